/**
 * A real SMTP server, so tests see letters as they go over the wire. It listens on a free
 * loopback port, accepts every letter without TLS or login, parses it (mailparser) and keeps it.
 *
 *   const smtp = await startSmtpServer();            // closed after the test file
 *   const { app } = await createTestApp({ config: { SMTP_URL: smtp.url } });
 *   ...
 *   const letter = await smtp.waitForLetter('ivan@example.com');   // no sleeps: resolves on arrival
 *   const code = codeIn(letter.text);
 *
 * `waitForLetter(to)` answers the oldest letter to that address not answered before, waiting up
 * to `timeoutMs` (default 10 s) for one to arrive. `failNext(n)` makes the next n deliveries fail
 * with a temporary error (451), to test retries.
 */
import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll } from 'vitest';

interface ReceivedLetter {
  /** Envelope recipients, lower-cased. */
  to: string[];
  from: string;
  subject: string;
  text: string;
  html: string;
}

export interface TestSmtpServer {
  url: string;
  readonly letters: readonly ReceivedLetter[];
  waitForLetter(to: string, options?: { timeoutMs?: number }): Promise<ReceivedLetter>;
  failNext(count: number): void;
  close(): Promise<void>;
}

export async function startSmtpServer(
  /** `port`: listen there instead of a free port (a server "coming back" after an outage). */
  options: { closeAfterAll?: boolean; port?: number } = {},
): Promise<TestSmtpServer> {
  const letters: ReceivedLetter[] = [];
  const claimed = new Set<ReceivedLetter>();
  const waiters = new Set<() => void>();
  let failuresLeft = 0;

  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      if (failuresLeft > 0) {
        failuresLeft -= 1;
        stream.resume();
        stream.on('end', () => {
          const error = Object.assign(new Error('Временная ошибка, попробуйте позже'), {
            responseCode: 451,
          });
          callback(error);
        });
        return;
      }
      simpleParser(stream)
        .then((parsed) => {
          letters.push({
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address.toLowerCase()),
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            html: typeof parsed.html === 'string' ? parsed.html : '',
          });
          for (const wake of waiters) wake();
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;

  const close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  if (options.closeAfterAll !== false) afterAll(close);

  const take = (address: string) => {
    const letter = letters.find((item) => !claimed.has(item) && item.to.includes(address));
    if (letter) claimed.add(letter);
    return letter;
  };

  return {
    url: `smtp://127.0.0.1:${port}`,
    letters,
    failNext(count) {
      failuresLeft = count;
    },
    waitForLetter(to, { timeoutMs = 10_000 } = {}) {
      const address = to.trim().toLowerCase();
      const ready = take(address);
      if (ready) return Promise.resolve(ready);
      return new Promise((resolve, reject) => {
        const wake = () => {
          const letter = take(address);
          if (!letter) return;
          cleanup();
          resolve(letter);
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`no letter to ${address} within ${timeoutMs} ms`));
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          waiters.delete(wake);
        };
        waiters.add(wake);
      });
    },
    close,
  };
}

/** The six-digit code of a letter's text, or a failed test. */
export function codeIn(text: string): string {
  const match = /\b(\d{6})\b/.exec(text);
  if (!match?.[1]) throw new Error(`no six-digit code in: ${text}`);
  return match[1];
}
