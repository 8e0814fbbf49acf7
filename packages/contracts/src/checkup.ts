import { z } from 'zod';

/**
 * `GET /authms/api/Auth/checkup`: the account's security checkup, one item per rule, each
 * `isDone` or not. The web words each item (`CHECKUP_TEXTS`) and offers the step that does it.
 * `recovery_codes` is listed only while the authenticator is on.
 */
export const CHECKUP_ITEMS = [
  'email_confirmed',
  'second_factor',
  'recovery_codes',
  'sign_in_alerts',
  'idle_sessions',
  'password_not_common',
] as const;
export const checkupItemSchema = z.enum(CHECKUP_ITEMS);
export type CheckupItem = z.infer<typeof checkupItemSchema>;

/** At least this many unused recovery codes, or the checkup asks for new ones. */
export const CHECKUP_MIN_RECOVERY_CODES = 3;
/** A live session unused for longer than this is worth a look on the devices page. */
export const CHECKUP_IDLE_SESSION_DAYS = 90;

export const checkupAnswerSchema = z.object({
  items: z.array(z.object({ item: checkupItemSchema, isDone: z.boolean() })),
  /** How many items are not done (0: nothing to do). */
  missing: z.number().int().min(0),
});
export type CheckupAnswer = z.infer<typeof checkupAnswerSchema>;

/** What each item says when it is not done, and when it is. */
export const CHECKUP_TEXTS: Record<CheckupItem, { todo: string; done: string; action: string }> = {
  email_confirmed: {
    todo: 'Почта не подтверждена',
    done: 'Почта подтверждена',
    action: 'Подтвердить почту',
  },
  second_factor: {
    todo: 'Двухфакторная защита выключена',
    done: 'Двухфакторная защита включена',
    action: 'Включить',
  },
  recovery_codes: {
    todo: `Осталось меньше ${CHECKUP_MIN_RECOVERY_CODES} резервных кодов`,
    done: 'Резервных кодов достаточно',
    action: 'Получить новые коды',
  },
  sign_in_alerts: {
    todo: 'Оповещения о входе выключены',
    done: 'Оповещения о входе включены',
    action: 'Включить оповещения',
  },
  idle_sessions: {
    todo: `Есть сеансы, которыми не пользовались больше ${CHECKUP_IDLE_SESSION_DAYS} дней`,
    done: 'Забытых сеансов нет',
    action: 'Открыть устройства',
  },
  password_not_common: {
    todo: 'Пароль слишком распространённый',
    done: 'Пароль не из списка распространённых',
    action: 'Сменить пароль',
  },
};

/** The checkup card's title and the home page's line while something is missing. */
export const CHECKUP_TITLE = 'Проверка безопасности';
export const checkupHomeLine = (missing: number) =>
  `${CHECKUP_TITLE}: ${missing} ${plural(missing, ['пункт требует', 'пункта требуют', 'пунктов требуют'])} внимания`;

function plural(count: number, forms: [string, string, string]): string {
  const tens = count % 100;
  const ones = count % 10;
  if (tens >= 11 && tens <= 14) return forms[2];
  if (ones === 1) return forms[0];
  if (ones >= 2 && ones <= 4) return forms[1];
  return forms[2];
}
