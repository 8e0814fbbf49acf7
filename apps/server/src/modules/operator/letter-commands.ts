/** The mail outbox: `letters --stuck`, `letters resend <id>`, `letters drop <id>`. */
import { maskEmail } from '../../adapters/mail-letter.js';
import { dropLetter, findLetter, listStuckLetters } from '../../adapters/mail-operator.js';
import { recordOperatorAction } from './audit.js';
import { ACTION_OPTIONS, actorOf, type Command, staffActorOf } from './command.js';
import { Refusal, table, UsageError, when } from './context.js';

export const lettersCommand: Command = {
  name: 'letters',
  summary: 'застрявшие письма: список, отправить снова, снять',
  usage: [
    'letters --stuck',
    'letters resend <id письма> --operator <имя> [--reason "…"]',
    'letters drop <id письма> --operator <имя> --reason "…"',
  ],
  help: [
    '--stuck: письма, которые не ушли и ещё могут уйти — отложенные после неудач, брошенные',
    'остановившимся процессом и оставленные после 5 дней неудач. Письма с истёкшим кодом не',
    'показываются: код уже не действует.',
    'resend: письмо снова в очереди; работающий портал отправит его в течение нескольких секунд.',
    'Письмо с кодом после срока кода и письмо, текст которого уже стёрт, не отправляются.',
    'Письмо старше 5 дней при новой неудаче снова оставляется (failed): сначала почините SMTP.',
    'drop: письмо удаляется из очереди (кому и тема остаются в журнале действий).',
  ],
  options: { ...ACTION_OPTIONS, stuck: { type: 'boolean' } },
  async run(ctx, positionals, values) {
    const { deps, out } = ctx;
    const [action, id, ...extra] = positionals;
    if (values.stuck) {
      if (positionals.length > 0) throw new UsageError('--stuck без аргументов', 'letters');
      const rows = await listStuckLetters(deps.db, deps.clock.now());
      if (rows.length === 0) {
        out('Застрявших писем нет');
        return;
      }
      for (const line of table(
        ['id', 'создано', 'кому', 'тема', 'состояние', 'попыток', 'следующая', 'ошибка'],
        rows.map((row) => [
          row.id,
          when(row.createdAt),
          row.toAddress,
          row.subject,
          row.status,
          row.attempts,
          row.status === 'pending' ? when(row.nextAttemptAt) : '',
          (row.lastError ?? '').slice(0, 80),
        ]),
      )) {
        out(line);
      }
      return;
    }
    if (action !== 'resend' && action !== 'drop') {
      throw new UsageError('Укажите --stuck, resend <id> или drop <id>', 'letters');
    }
    if (!id) throw new UsageError('Не указан id письма', 'letters');
    if (extra.length > 0) throw new UsageError(`Лишние аргументы: ${extra.join(' ')}`, 'letters');
    const actor = actorOf(values, 'letters', action === 'drop');
    if (action === 'resend') {
      // The rule is the support desk's (modules/staff/letter-service.ts), which the pages call too.
      await deps.staff.letters.resend(staffActorOf(values, 'letters', false), id);
      out(
        `Письмо ${id} снова в очереди: работающий портал отправит его в течение нескольких секунд`,
      );
      return;
    }
    const letter = await findLetter(deps.db, id);
    if (!letter) throw new Refusal(`Письма нет: ${id}`);
    await deps.db.transaction(async (tx) => {
      const now = deps.clock.now();
      if (!(await dropLetter(tx, id, now))) {
        throw new Refusal(
          `Письмо не снять: оно ${letter.status === 'sent' ? 'уже отправлено' : 'отправляется прямо сейчас'}`,
        );
      }
      await recordOperatorAction(tx, {
        ...actor,
        command: 'letters drop',
        accountId: null,
        details: {
          letterId: id,
          to: maskEmail(letter.toAddress),
          subject: letter.subject,
          status: letter.status,
          attempts: letter.attempts,
        },
        at: now,
      });
    });
    out(`Письмо ${id} снято из очереди`);
  },
};
