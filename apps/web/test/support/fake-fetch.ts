import { vi } from 'vitest';

/** A call the stand-in `fetch` received. */
export type Sent = { url: string; init: RequestInit };

/** Stands in for `fetch`: records what was sent and answers with `answer`. */
export function fakeFetch(answer: () => Response | Promise<Response>): Sent[] {
  const sent: Sent[] = [];
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    sent.push({ url, init });
    return answer();
  });
  return sent;
}

/** A JSON answer, as the server sends it. */
export const json = (data: unknown, init?: ResponseInit) =>
  new Response(JSON.stringify(data), {
    ...init,
    headers: { 'Content-Type': 'application/json', ...init?.headers },
  });
