/**
 * The OpenID Provider's keys and clients (modules/oidc): `oidc-keys` lists the signing keys,
 * `oidc-keys rotate` brings in new ones (recorded), `oidc-keys rotate --now` replaces a leaked
 * one at once (recorded), `oidc-clients` lists the clients of OIDC_CLIENTS. The rotation's
 * timeline is modules/oidc/signing-keys.ts's.
 */
import type { Executor } from '../../db/database.js';
import type { KeyInfo, KeyState } from '../oidc/index.js';
import { recordOperatorAction } from './audit.js';
import { ACTION_OPTIONS, actorOf, type Command, type ParsedValues } from './command.js';
import { type OperatorContext, Refusal, table, UsageError, when } from './context.js';

const STATE_TEXT: Record<KeyState, string> = {
  next: 'опубликован, подпишет позже',
  signing: 'подписывает',
  retired: 'опубликован, не подписывает',
  dropped: 'снят',
};

function keyTable(keys: KeyInfo[]): string[] {
  return table(
    ['kid', 'алгоритм', 'создан', 'подписывает с', 'подписывал до', 'в JWKS до', 'состояние'],
    keys.map((key) => [
      key.kid,
      key.alg,
      when(key.createdAt),
      when(key.signsFrom),
      when(key.retiredAt),
      when(key.droppedAt),
      STATE_TEXT[key.state],
    ]),
  );
}

export const oidcKeysCommand: Command = {
  name: 'oidc-keys',
  summary: 'ключи подписи входа на сайты: список и смена',
  usage: [
    'oidc-keys',
    'oidc-keys rotate --operator <имя> [--reason "…"]',
    'oidc-keys rotate --now --operator <имя> --reason "…"',
  ],
  help: [
    'Без аргументов: ключи подписи провайдера OpenID (RS256 и ES256) — когда созданы, с какого',
    'момента подписывают, до какого подписывали, до какого остаются в JWKS, и состояние.',
    'rotate: новые ключи сразу публикуются в JWKS, а подписывать начинают через 5 минут —',
    'за это время каждый процесс портала (они перечитывают ключи раз в минуту) их узнает.',
    'Старые ключи с того же момента не подписывают, но остаются в JWKS, пока не истекут',
    'подписанные ими токены (ID-токен живёт час), затем снимаются. Пока новые ключи не начали',
    'подписывать, следующая смена не принимается.',
    'rotate --now — если ключ утёк: все прежние ключи удаляются и снимаются из JWKS сразу, новые',
    'подписывают немедленно (и во время обычной смены). Подписанные прежними ключами токены',
    'перестают проверяться. Процессы портала переходят на новые ключи, перечитав их, — не позже',
    'чем через минуту. Причина (--reason) обязательна.',
  ],
  options: { ...ACTION_OPTIONS, now: { type: 'boolean' } },
  async run(ctx, positionals, values) {
    const { deps, out } = ctx;
    const [action, ...extra] = positionals;
    if (extra.length > 0) throw new UsageError(`Лишние аргументы: ${extra.join(' ')}`, 'oidc-keys');
    if (action === undefined) {
      if (values.now) throw new UsageError('--now — только вместе с rotate', 'oidc-keys');
      for (const line of keyTable(await deps.oidcSigningKeys.list())) out(line);
      return;
    }
    if (action !== 'rotate') throw new UsageError(`Нет такого действия: ${action}`, 'oidc-keys');
    if (values.now) return rotateNow(ctx, values);
    const rotated = await changeKeys(ctx, {
      actor: actorOf(values, 'oidc-keys', false),
      command: 'oidc-keys rotate',
      change: (tx) => deps.oidcSigningKeys.rotate(tx),
      details: (result) => ({
        retired: result.retired.map(({ kid, alg, retiredAt }) => ({ kid, alg, retiredAt })),
      }),
    });
    if (!rotated) {
      const next = (await deps.oidcSigningKeys.list()).find((key) => key.state === 'next');
      throw new Refusal(
        `Смена ключей уже идёт: новые ключи начнут подписывать ${when(next?.signsFrom)}. ` +
          'Ничего не изменено; повторите после этого момента.',
      );
    }
    const signsFrom = rotated.added[0]!.signsFrom;
    out(`Новые ключи опубликованы; подписывать начнут ${when(signsFrom)}:`);
    for (const line of keyTable(rotated.added)) out(line);
    out(
      rotated.retired.length > 0
        ? `Прежние ключи подписывают до ${when(signsFrom)} и остаются в JWKS до ${when(rotated.retired[0]!.droppedAt)}.`
        : 'Прежних подписывающих ключей не было.',
    );
  },
};

/** `oidc-keys rotate --now`: a leaked key replaced at once, every old key withdrawn. */
async function rotateNow(ctx: OperatorContext, values: ParsedValues) {
  const { deps, out } = ctx;
  const rotated = (await changeKeys(ctx, {
    actor: actorOf(values, 'oidc-keys', true),
    command: 'oidc-keys rotate --now',
    change: (tx) => deps.oidcSigningKeys.rotateNow(tx),
    details: (result) => ({
      withdrawn: result.withdrawn.map(({ kid, alg, state }) => ({ kid, alg, state })),
    }),
  }))!;
  out('Новые ключи подписывают с этого момента:');
  for (const line of keyTable(rotated.added)) out(line);
  const withdrawn = rotated.withdrawn.map((key) => key.kid).join(', ');
  out(
    withdrawn
      ? `Прежние ключи удалены и сняты из JWKS: ${withdrawn}. Подписанные ими токены больше не проверяются.`
      : 'Прежних опубликованных ключей не было.',
  );
  out('Работающие процессы портала перейдут на новые ключи в течение минуты.');
}

/**
 * A change of the keys in one transaction with its record: the added keys' kid, algorithm and
 * start, and what `details` tells of the rest. Null, and nothing recorded, when `change` refused.
 */
async function changeKeys<Change extends { added: KeyInfo[] }>(
  { deps }: OperatorContext,
  options: {
    actor: ReturnType<typeof actorOf>;
    command: string;
    change: (tx: Executor) => Promise<Change | null>;
    details: (change: Change) => Record<string, unknown>;
  },
): Promise<Change | null> {
  return deps.db.transaction(async (tx) => {
    const result = await options.change(tx);
    if (!result) return null;
    await recordOperatorAction(tx, {
      ...options.actor,
      command: options.command,
      accountId: null,
      details: {
        added: result.added.map(({ kid, alg, signsFrom }) => ({ kid, alg, signsFrom })),
        ...options.details(result),
      },
      at: deps.clock.now(),
    });
    return result;
  });
}

export const oidcClientsCommand: Command = {
  name: 'oidc-clients',
  summary: 'сайты, входящие через кабинет (OIDC_CLIENTS)',
  usage: ['oidc-clients'],
  help: [
    'Клиенты провайдера OpenID из настройки OIDC_CLIENTS: id, название, виды входа (grant types)',
    'и адреса возврата. Секреты не показываются. Меняются они только в настройке, с перезапуском.',
  ],
  options: {},
  async run(ctx, positionals) {
    if (positionals.length > 0) {
      throw new UsageError(`Лишние аргументы: ${positionals.join(' ')}`, 'oidc-clients');
    }
    const clients = ctx.deps.config.OIDC_CLIENTS;
    if (clients.length === 0) {
      ctx.out('Клиентов нет: OIDC_CLIENTS не задана');
      return;
    }
    for (const line of table(
      ['id', 'название', 'виды входа', 'адреса возврата'],
      clients.map((client) => [
        client.client_id,
        client.client_name,
        client.grant_types.join(', '),
        (client.redirect_uris ?? []).join(' '),
      ]),
    )) {
      ctx.out(line);
    }
  },
};
