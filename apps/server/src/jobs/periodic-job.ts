import type { FastifyInstance } from 'fastify';

/**
 * Runs `run` every `intervalSeconds` once the server listens (never under `app.inject`, so tests
 * call the job functions directly), one run at a time per process, stopped on close. The jobs
 * are safe to run on several processes at once: they work under row locks and idempotency keys.
 */
export function schedulePeriodicJob(
  app: FastifyInstance,
  name: string,
  intervalSeconds: number,
  run: () => Promise<unknown>,
) {
  if (intervalSeconds <= 0) return;
  let timer: NodeJS.Timeout | undefined;
  let isRunning = false;
  app.addHook('onListen', async () => {
    timer = setInterval(async () => {
      if (isRunning) return;
      isRunning = true;
      try {
        const result = await run();
        app.log.debug({ job: name, result }, 'periodic job done');
      } catch (error) {
        app.log.error({ err: error, job: name }, 'periodic job failed');
      } finally {
        isRunning = false;
      }
    }, intervalSeconds * 1000);
    timer.unref();
  });
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
  });
}
