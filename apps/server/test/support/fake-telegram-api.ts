import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for the Telegram Bot API (https://core.telegram.org/bots/api), speaking its
 * wire format: `POST /bot<token>/<method>` with a JSON (or form) body, answered with
 * `{ ok: true, result }` or `{ ok: false, error_code, description }`. Point grammY at it with
 * `client.apiRoot` (the portal's TELEGRAM_API_ROOT). Tests push updates in as a Telegram user
 * would cause them and read what the bot sent out.
 */

interface FakeTelegramUser {
  id: number;
  first_name: string;
  username?: string;
}

interface BotApiCall {
  method: string;
  payload: Record<string, unknown>;
}

export interface FakeTelegramApi {
  /** The value for TELEGRAM_API_ROOT / grammY's `apiRoot` (no trailing slash). */
  readonly apiRoot: string;
  readonly token: string;
  readonly botUsername: string;
  /** The portal's settings that point its bot here (polling mode). */
  readonly config: {
    TELEGRAM_BOT_TOKEN: string;
    TELEGRAM_API_ROOT: string;
    TELEGRAM_BOT_USERNAME: string;
  };
  /** Every call the bot made, in order. */
  readonly calls: BotApiCall[];
  /** The user sends a text message to the bot (e.g. `/start <token>`). */
  sendText(from: FakeTelegramUser, text: string): void;
  /** The user shares a contact: their own (`user_id` = their id) or someone else's. */
  sendContact(
    from: FakeTelegramUser,
    contact: { phone_number: string; user_id?: number; first_name?: string },
  ): void;
  /** The user presses an inline button of a message the bot sent. */
  pressButton(from: FakeTelegramUser, data: string, messageId?: number): void;
  /** Resolves with the first call (already made or coming) that matches; rejects after a while. */
  waitForCall(
    method: string,
    matches?: (payload: Record<string, unknown>) => boolean,
    timeoutMs?: number,
  ): Promise<Record<string, unknown>>;
  /** Calls of one method so far. */
  callsOf(method: string): Record<string, unknown>[];
  /**
   * Calls of `method` from now on are recorded at once but answered only after `release()`: a
   * request the bot has under way, for tests of what waits for it.
   */
  hold(method: string): { release(): void };
  close(): Promise<void>;
}

const BOT_ID = 7_000_000_001;

export async function startFakeTelegramApi(
  options: { token?: string; botUsername?: string } = {},
): Promise<FakeTelegramApi> {
  const token = options.token ?? `${BOT_ID}:FAKE-${Math.random().toString(36).slice(2, 12)}`;
  const botUsername = options.botUsername ?? 'portal_test_bot';
  const calls: BotApiCall[] = [];
  const updates: Record<string, unknown>[] = [];
  let nextUpdateId = 1;
  let nextMessageId = 1;
  let pollWaiters: (() => void)[] = [];
  let callWaiters: (() => void)[] = [];
  let closed = false;
  const held = new Map<string, Promise<void>>();

  const wakePollers = () => {
    const waiting = pollWaiters;
    pollWaiters = [];
    for (const wake of waiting) wake();
  };
  const wakeCallWaiters = () => {
    const waiting = callWaiters;
    callWaiters = [];
    for (const wake of waiting) wake();
  };

  const push = (update: Record<string, unknown>) => {
    updates.push({ update_id: nextUpdateId++, ...update });
    wakePollers();
  };
  const now = () => Math.floor(Date.now() / 1000);
  const chatOf = (from: FakeTelegramUser) => ({
    id: from.id,
    type: 'private',
    first_name: from.first_name,
    ...(from.username ? { username: from.username } : {}),
  });
  const userOf = (from: FakeTelegramUser) => ({ ...from, is_bot: false });
  /** A new message's envelope: what every message the user sends carries. */
  const messageFrom = (from: FakeTelegramUser) => ({
    message_id: nextMessageId++,
    date: now(),
    chat: chatOf(from),
    from: userOf(from),
  });

  const methods: Record<string, (payload: Record<string, unknown>) => Promise<unknown> | unknown> =
    {
      getMe: () => ({
        id: BOT_ID,
        is_bot: true,
        first_name: 'Portal Test Bot',
        username: botUsername,
        can_join_groups: false,
        can_read_all_group_messages: false,
        supports_inline_queries: false,
        can_connect_to_business: false,
        has_main_web_app: false,
      }),
      deleteWebhook: () => true,
      setWebhook: () => true,
      getUpdates: async (payload) => {
        const offset = Number(payload.offset ?? 0);
        // Confirmed updates (id below the offset) are forgotten, as Telegram does.
        while (updates.length > 0 && Number(updates[0]!.update_id) < offset) updates.shift();
        const timeoutMs = Math.min(Number(payload.timeout ?? 0), 30) * 1000;
        if (updates.length === 0 && timeoutMs > 0 && !closed) {
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, timeoutMs);
            pollWaiters.push(() => {
              clearTimeout(timer);
              resolve();
            });
          });
        }
        const limit = Number(payload.limit ?? 100);
        return updates.slice(0, limit);
      },
      sendMessage: (payload) => ({
        message_id: nextMessageId++,
        date: now(),
        chat: { id: Number(payload.chat_id), type: 'private', first_name: 'User' },
        from: { id: BOT_ID, is_bot: true, first_name: 'Portal Test Bot', username: botUsername },
        text: String(payload.text ?? ''),
      }),
      answerCallbackQuery: () => true,
      editMessageText: (payload) => ({
        message_id: Number(payload.message_id ?? 0),
        date: now(),
        chat: { id: Number(payload.chat_id), type: 'private', first_name: 'User' },
        text: String(payload.text ?? ''),
      }),
      editMessageReplyMarkup: () => true,
    };

  const server = createServer((request, response) => {
    void handle(request, response);
  });

  async function handle(request: IncomingMessage, response: ServerResponse) {
    const answer = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    const match = /^\/bot([^/]+)\/([A-Za-z]+)$/.exec(
      new URL(request.url ?? '/', 'http://x').pathname,
    );
    if (!match) return answer(404, { ok: false, error_code: 404, description: 'Not Found' });
    const [, requestToken, method] = match;
    if (requestToken !== token) {
      return answer(401, { ok: false, error_code: 401, description: 'Unauthorized' });
    }
    const payload = await readPayload(request, new URL(request.url ?? '/', 'http://x'));
    calls.push({ method: method!, payload });
    wakeCallWaiters();
    await held.get(method!);
    const implementation = methods[method!];
    if (!implementation) return answer(200, { ok: true, result: true });
    try {
      return answer(200, { ok: true, result: await implementation(payload) });
    } catch (error) {
      return answer(400, { ok: false, error_code: 400, description: String(error) });
    }
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const apiRoot = `http://127.0.0.1:${port}`;

  return {
    apiRoot,
    token,
    botUsername,
    config: {
      TELEGRAM_BOT_TOKEN: token,
      TELEGRAM_API_ROOT: apiRoot,
      TELEGRAM_BOT_USERNAME: botUsername,
    },
    calls,
    sendText(from, text) {
      const entities = text.startsWith('/')
        ? [{ type: 'bot_command', offset: 0, length: text.split(' ')[0]!.length }]
        : undefined;
      push({ message: { ...messageFrom(from), text, ...(entities ? { entities } : {}) } });
    },
    sendContact(from, contact) {
      push({
        message: {
          ...messageFrom(from),
          contact: { first_name: contact.first_name ?? from.first_name, ...contact },
        },
      });
    },
    pressButton(from, data, messageId = 1) {
      push({
        callback_query: {
          id: String(nextUpdateId * 1000),
          from: userOf(from),
          chat_instance: String(from.id),
          data,
          message: {
            message_id: messageId,
            date: now(),
            chat: chatOf(from),
            text: '…',
          },
        },
      });
    },
    callsOf(method) {
      return calls.filter((call) => call.method === method).map((call) => call.payload);
    },
    hold(method) {
      let release = () => {};
      held.set(
        method,
        new Promise<void>((resolve) => {
          release = resolve;
        }),
      );
      return {
        release() {
          held.delete(method);
          release();
        },
      };
    },
    async waitForCall(method, matches = () => true, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = calls.find((call) => call.method === method && matches(call.payload));
        if (found) return found.payload;
        const left = deadline - Date.now();
        if (left <= 0) {
          const seen = calls.map((call) => call.method).join(', ');
          throw new Error(
            `the bot made no matching ${method} call within ${timeoutMs} ms (seen: ${seen})`,
          );
        }
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          callWaiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
    },
    async close() {
      closed = true;
      wakePollers();
      wakeCallWaiters();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function readPayload(request: IncomingMessage, url: URL): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const raw = Buffer.concat(chunks).toString('utf8');
  const query = Object.fromEntries(url.searchParams);
  if (!raw) return query;
  const type = request.headers['content-type'] ?? '';
  if (type.includes('application/json')) return { ...query, ...(JSON.parse(raw) as object) };
  if (type.includes('application/x-www-form-urlencoded')) {
    return { ...query, ...Object.fromEntries(new URLSearchParams(raw)) };
  }
  return query;
}
