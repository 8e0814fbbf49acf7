import path from 'node:path';
import type { Plugin, Rollup } from 'vite';
import { paths } from './src/config/paths.ts';

/** Written beside index.html: for each address below, the files its first paint loads lazily. */
export const ROUTE_PRELOADS_FILE = 'route-preloads.json';

/**
 * The lazily loaded modules an address renders first (src/app/router.tsx). A browser learns of
 * them only once the app's own code has run; named in the page, they download beside it
 * (apps/server/src/web/serve-web.ts adds the links). Only /auth: every visitor of it renders it,
 * while a signed-in page's files would be wasted on a visitor without a session, who is sent to
 * /auth (the server cannot tell, the session lives in the browser's storage).
 */
const ROUTE_MODULES: Record<string, string[]> = {
  [paths.auth.path]: ['src/features/auth/auth-page.tsx'],
};

/** `{ "/auth": ["/assets/auth-page-….js", "/assets/auth-page-….css", …] }`, for the server. */
export type RoutePreloads = Record<string, string[]>;

/**
 * The build step that writes ROUTE_PRELOADS_FILE: each address's modules with every file they
 * import statically, less what index.html already loads. A module that is no longer a lazy page
 * stops the build, so the list cannot drift from the router unnoticed.
 */
export function routePreloads(): Plugin {
  let root = '';
  return {
    name: 'portal-route-preloads',
    apply: 'build',
    configResolved(config) {
      root = config.root;
    },
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((file) => file.type === 'chunk');
      const byFile = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
      const withImports = (chunk: Rollup.OutputChunk, into = new Set<string>()): Set<string> => {
        if (into.has(chunk.fileName)) return into;
        into.add(chunk.fileName);
        for (const css of chunk.viteMetadata?.importedCss ?? []) into.add(css);
        for (const file of chunk.imports) {
          const imported = byFile.get(file);
          if (imported) withImports(imported, into);
        }
        return into;
      };
      const loadedByPage = new Set<string>();
      for (const entry of chunks.filter((chunk) => chunk.isEntry)) withImports(entry, loadedByPage);

      const preloads: RoutePreloads = {};
      for (const [route, modules] of Object.entries(ROUTE_MODULES)) {
        const files = new Set<string>();
        for (const module of modules) {
          const chunk = chunks.find(
            (candidate) =>
              candidate.isDynamicEntry &&
              candidate.facadeModuleId &&
              path.relative(root, candidate.facadeModuleId) === module,
          );
          if (!chunk) this.error(`${module} (${route}) is not a lazily loaded module of the build`);
          for (const file of withImports(chunk)) if (!loadedByPage.has(file)) files.add(`/${file}`);
        }
        preloads[route] = [...files];
      }
      this.emitFile({
        type: 'asset',
        fileName: ROUTE_PRELOADS_FILE,
        source: JSON.stringify(preloads),
      });
    },
  };
}
