import { afterAll, beforeAll } from 'vitest';
import { createScratchDatabase, type ScratchDatabase } from './scratch-database.js';
import { type ServerProcess, startServer } from './server-process.js';
import { startTemporaryCluster, type TemporaryCluster } from './temporary-cluster.js';

/** One portal process on a throwaway PostgreSQL cluster that the test may stop or freeze. */
export interface ServerOnOwnCluster {
  readonly cluster: TemporaryCluster;
  readonly scratch: ScratchDatabase;
  readonly server: ServerProcess;
}

/**
 * Starts the cluster, a scratch database on it and one server before the file's tests; after
 * them, thaws the cluster (a failed test may leave it frozen) and takes everything down. The
 * fields are filled in `beforeAll`: read them inside tests and hooks.
 */
export function setupServerOnOwnCluster(): ServerOnOwnCluster {
  const started = {} as {
    cluster: TemporaryCluster;
    scratch: ScratchDatabase;
    server: ServerProcess;
  };
  beforeAll(async () => {
    started.cluster = await startTemporaryCluster();
    started.scratch = await createScratchDatabase(started.cluster.adminUrl);
    started.server = await startServer({ DATABASE_URL: started.scratch.url });
  });
  afterAll(async () => {
    await started.cluster?.thaw().catch(() => {});
    await started.server?.stop();
    await started.scratch?.drop().catch(() => {});
    await started.cluster?.destroy();
  });
  return started;
}
