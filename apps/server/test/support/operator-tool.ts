// The operator's tool (modules/operator) run in the test's process against an app's services,
// as `npm run admin -- …` runs it against the portal's database.
import type { FastifyInstance } from 'fastify';
import { runAdmin } from '../../src/modules/operator/cli.js';

export interface AdminRun {
  code: number;
  out: string;
  err: string;
}

/** Runs one command line of the tool; answers its exit code and what it printed, line by line. */
export async function runAdminIn(app: FastifyInstance, ...argv: string[]): Promise<AdminRun> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runAdmin(
    {
      deps: app.deps,
      log: app.log,
      out: (line) => out.push(line),
      err: (line) => err.push(line),
    },
    argv,
  );
  return { code, out: out.join('\n'), err: err.join('\n') };
}
