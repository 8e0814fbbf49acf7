import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The terminal the portal processes are configured with; the stand-in signs and checks with it. */
export const TERMINAL_KEY = 'SystemTestDEMO';
export const TERMINAL_PASSWORD = 'system-test-terminal-password';

/** One call of T-Bank's API as the stand-in receives it. */
export interface TbankCall {
  /** The last part of the path: `Init`, `CheckOrder`, `Cancel`… */
  method: string;
  /** The body as sent (JSON). */
  raw: string;
  request: IncomingMessage;
  response: ServerResponse;
}

export interface FakeTbank {
  /** What a portal process needs to talk to it (`TBANK_API_URL` and the terminal). */
  env(timeoutMs: number): Record<string, string>;
  /** Drops open connections (a held answer included) and stops listening. */
  close(): Promise<void>;
}

/**
 * A local HTTP server in T-Bank's place. `answer` gets every call once its body has arrived and
 * decides what happens: an answer, an error, a dropped socket, or nothing at all.
 */
export async function startFakeTbank(answer: (call: TbankCall) => void): Promise<FakeTbank> {
  const server = createServer((request, response) => {
    let raw = '';
    request.on('data', (chunk) => {
      raw += chunk;
    });
    request.on('end', () => {
      answer({ method: request.url?.split('/').pop() ?? '', raw, request, response });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    env: (timeoutMs) => ({
      PAYMENT_PROVIDER: 'tbank',
      TBANK_TERMINAL_KEY: TERMINAL_KEY,
      TBANK_PASSWORD: TERMINAL_PASSWORD,
      TBANK_API_URL: `http://127.0.0.1:${port}`,
      TBANK_TIMEOUT_MS: String(timeoutMs),
    }),
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
