import { randomBytes } from 'node:crypto';

export interface Answer {
  status: number;
  headers: Headers;
  /** Parsed JSON when the answer is JSON, the text otherwise. */
  // biome-ignore lint/suspicious/noExplicitAny: every test checks the shape it reads with expect.
  body: any;
}

export interface CallOptions {
  body?: unknown;
  token?: string;
  /** The client address the server should see (X-Forwarded-For; the servers trust loopback). */
  ip?: string;
  headers?: Record<string, string>;
  timeoutMs?: number;
}

/** One real HTTP request to a server process. */
export async function call(
  base: string,
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.body !== undefined) headers['content-type'] ??= 'application/json';
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.ip) headers['x-forwarded-for'] = options.ip;
  const response = await fetch(`${base}${path}`, {
    method,
    headers,
    body:
      options.body === undefined
        ? undefined
        : typeof options.body === 'string'
          ? options.body
          : JSON.stringify(options.body),
    signal: AbortSignal.timeout(options.timeoutMs ?? 20_000),
  });
  const text = await response.text();
  const isJson = (response.headers.get('content-type') ?? '').includes('application/json');
  return {
    status: response.status,
    headers: response.headers,
    body: isJson ? JSON.parse(text) : text,
  };
}

/**
 * A client address of its own for each test (the IPv6 documentation range), so per-address rate
 * limits held in the shared Redis never collide between tests, files or runs.
 */
export function randomClientIp(): string {
  const groups = randomBytes(8).toString('hex').match(/.{4}/g)!;
  return `2001:db8:${groups.join(':')}::1`;
}
