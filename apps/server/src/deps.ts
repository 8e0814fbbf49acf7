/**
 * What the modules share, as `app.deps.<name>`. Empty here on purpose: the core plugin
 * (core-plugin.ts) and each module's plugin add their own part by declaration merging, next to
 * the code that builds it, so this file imports nothing and nothing has to import app.ts.
 */
// biome-ignore lint/suspicious/noEmptyInterface: filled by declaration merging in each plugin
export interface AppDeps {}

declare module 'fastify' {
  interface FastifyInstance {
    deps: AppDeps;
  }
}
