/**
 * SIGTERM: idle connections (also one that never sent a request) close at once, requests in
 * flight finish with `Connection: close`, nothing is answered in English, and the process exits 0. It ends within the grace period also when its database is gone and nobody reads its
 * output any more.
 */
import { once } from 'node:events';
import net from 'node:net';
import { SERVICE_UNAVAILABLE } from '@portal/contracts/messages';
import { afterAll, describe, expect, it } from 'vitest';
import { createScratchDatabase, type ScratchDatabase } from '../support/system/scratch-database.js';
import { startServer } from '../support/system/server-process.js';
import { waitFor } from '../support/wait-for.js';

const scratches: ScratchDatabase[] = [];
afterAll(async () => {
  await Promise.all(scratches.map((scratch) => scratch.drop().catch(() => {})));
});

/**
 * Resolves when the socket has closed, however it ended. `events.once` would reject on the
 * `error` a reset connection emits first (ECONNRESET), and the server may reset either socket.
 */
function closeOf(socket: net.Socket) {
  return new Promise<void>((resolve) => socket.once('close', () => resolve()));
}

/** Resolves once the server no longer accepts connections: it has begun to close. */
async function waitUntilRefusing(port: number) {
  for (;;) {
    const isRefused = await new Promise<boolean>((resolve) => {
      const probe = net.connect(port, '127.0.0.1');
      probe.once('connect', () => {
        probe.destroy();
        resolve(false);
      });
      probe.once('error', () => resolve(true));
    });
    if (isRefused) return;
  }
}

describe('SIGTERM', () => {
  it('closes idle connections at once, lets the request in flight finish with Connection: close, exits 0', async () => {
    const scratch = await createScratchDatabase();
    scratches.push(scratch);
    const server = await startServer({ DATABASE_URL: scratch.url });
    // A spare connection that never sends a request, as browsers open.
    const idle = net.connect(server.port, '127.0.0.1');
    idle.on('error', () => {});
    await once(idle, 'connect');
    const idleClosed = closeOf(idle);

    // A keep-alive connection with a request in flight: its body has not all arrived yet.
    const body = JSON.stringify({ usernameOrEmail: 'nobody_here', password: 'Wrong-Pass1' });
    const busy = net.connect(server.port, '127.0.0.1');
    await once(busy, 'connect');
    busy.on('error', () => {});
    let received = '';
    busy.on('data', (chunk) => {
      received += chunk;
    });
    const closed = closeOf(busy);
    // `Expect: 100-continue` makes the server say when it has read the request's head: only then
    // is the request in flight. A head still unread at SIGTERM is an idle connection, closed.
    const CONTINUE = 'HTTP/1.1 100 Continue\r\n\r\n';
    busy.write(
      `POST /authms/api/Auth/login HTTP/1.1\r\nHost: portal\r\nContent-Type: application/json\r\n` +
        `Expect: 100-continue\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`,
    );
    await waitFor('the server to read the request head', () => received.startsWith(CONTINUE), {
      intervalMs: 5,
    });
    busy.write(body.slice(0, 10));

    const startedAt = Date.now();
    server.signal('SIGTERM');
    await waitUntilRefusing(server.port);
    await idleClosed;
    // The rest of the body, and a second request behind it on the same connection.
    busy.write(`${body.slice(10)}GET /health HTTP/1.1\r\nHost: portal\r\n\r\n`);
    await closed;
    await server.exited();

    expect(server.exitCode()).toBe(0);
    expect(Date.now() - startedAt).toBeLessThan(5_000);
    const answers = received.slice(CONTINUE.length).split(/(?=HTTP\/1\.1 )/);
    // The request in flight was answered as usual, and its connection closes after it.
    expect(answers[0]).toMatch(/^HTTP\/1\.1 401 /);
    expect(answers[0]).toMatch(/\r\nconnection: close\r\n/i);
    // Node drops the request queued behind it; if one is answered, it is the Russian 503.
    for (const answer of answers.slice(1)) {
      expect(answer).toMatch(/^HTTP\/1\.1 503 /);
      expect(JSON.parse(answer.split('\r\n\r\n')[1]!)).toEqual({ message: SERVICE_UNAVAILABLE });
    }
  });

  it('ends the process within the grace period when its database is gone and its output unread', async () => {
    const scratch = await createScratchDatabase();
    scratches.push(scratch);
    const server = await startServer({ DATABASE_URL: scratch.url, LOG_LEVEL: 'info' });
    await scratch.drop();
    server.closeOutput();
    const startedAt = Date.now();
    server.signal('SIGTERM');
    await server.exited();
    // The grace period is 10 s.
    expect(Date.now() - startedAt).toBeLessThan(12_000);
  });
});
