import { isCleanName, roublesSchema } from '@portal/contracts/common';
import { DEFAULT_SERVICE_PRICE } from '@portal/contracts/constants';
import { SIBLING_SERVICE_NAME_FORBIDDEN, SIBLING_URL_NOT_HTTPS } from '@portal/contracts/messages';
import { ownerServiceSchema } from '@portal/contracts/services';
import { z } from 'zod';

// The server-to-server API for sibling sites (this module's README.md). Not used by the web app,
// so these schemas live beside the routes rather than in @portal/contracts.

/**
 * Whether a URL a sibling site gives the portal to show its users (a service's «Управление») may
 * be shown: `https:`, or `http:` when the portal itself runs on this machine (`isLocalPortal`).
 * Any other scheme (`javascript:`, `data:`) is refused at the API, not only by the page's CSP.
 */
export function isShowableUrl(value: string, isPortalLocal: boolean): boolean {
  try {
    const { protocol } = new URL(value);
    return protocol === 'https:' || (isPortalLocal && protocol === 'http:');
  } catch {
    return false;
  }
}

/** A service's name as the customer and the support desk see it: 400 otherwise. */
const serviceNameSchema = z
  .string()
  .trim()
  .min(1)
  .max(128)
  .refine(isCleanName, SIBLING_SERVICE_NAME_FORBIDDEN);

/** A URL a sibling site gives the portal to show: 400 `SIBLING_URL_NOT_HTTPS` otherwise. */
export const shownUrlSchema = (isPortalLocal: boolean) =>
  z
    .string()
    .trim()
    .max(2048)
    .refine((value) => isShowableUrl(value, isPortalLocal), SIBLING_URL_NOT_HTTPS)
    .describe('https:// (http:// — только для портала, запущенного локально)');

export const siblingOrderRequestSchema = (isPortalLocal: boolean) =>
  z.object({
    orderId: z
      .string()
      .regex(
        /^[A-Za-z0-9_.:-]{1,64}$/,
        'orderId: от 1 до 64 символов: латиница, цифры, «-», «_», «.», «:»',
      )
      .describe(
        'Номер заказа на стороне сайта; повтор с тем же номером отвечает тем же ответом и не списывает второй раз',
      ),
    userId: z.uuid('userId: ожидается UUID пользователя (из verify-token)'),
    service: z.object({
      externalId: z
        .string()
        .min(1)
        .max(64)
        .describe('Идентификатор услуги на стороне сайта: тот же идентификатор — продление'),
      name: serviceNameSchema,
      serverCount: z.number().int().min(0).max(10_000),
      pricePerMonth: roublesSchema
        .refine((value) => value >= 0 && value <= 1_000_000, 'pricePerMonth: от 0 до 1 000 000 ₽')
        .default(DEFAULT_SERVICE_PRICE)
        .describe('Цена в месяц, рубли (по умолчанию 1790)'),
      autoRenew: z.boolean().default(true),
      manageUrl: shownUrlSchema(isPortalLocal).nullable().optional(),
    }),
    months: z.number().int().min(1).max(12).default(1).describe('На сколько месяцев оплатить'),
    usePoints: z
      .boolean()
      .default(false)
      .describe(
        'Сначала списать баллы (1 балл = 1 ₽), остаток — рублями; так же будут оплачиваться продления',
      ),
  });
export type SiblingOrderRequest = z.infer<ReturnType<typeof siblingOrderRequestSchema>>;

export const siblingOrderAnswerSchema = z.object({
  orderId: z.string(),
  kind: z.enum(['purchase', 'renewal']),
  service: ownerServiceSchema,
  charged: z.object({
    total: z.number().describe('Цена заказа, рубли'),
    roubles: z.number().describe('Списано с рублёвого баланса'),
    points: z.number().int().describe('Списано баллов'),
  }),
  cashbackPoints: z
    .number()
    .int()
    .describe('Начислено баллов: 5% от рублёвой части, вниз до целого'),
  balance: z.number().describe('Рублёвый баланс после заказа'),
  balanceStars: z.number().int().describe('Баллы после заказа'),
});
export type SiblingOrderAnswer = z.infer<typeof siblingOrderAnswerSchema>;

export const siblingServiceUpdateSchema = (isPortalLocal: boolean) =>
  z
    .object({
      name: serviceNameSchema,
      serverCount: z.number().int().min(0).max(10_000),
      pricePerMonth: roublesSchema.refine(
        (value) => value >= 0 && value <= 1_000_000,
        'pricePerMonth: от 0 до 1 000 000 ₽',
      ),
      autoRenew: z.boolean(),
      manageUrl: shownUrlSchema(isPortalLocal).nullable(),
    })
    .partial();

export const siblingWalletAnswerSchema = z.object({
  balance: z.number().describe('Рубли'),
  balanceStars: z.number().int().describe('Баллы'),
});

export const siblingOrderCancelRequestSchema = z.object({
  userId: z.uuid('userId: ожидается UUID пользователя (из verify-token)'),
});

export const siblingOrderCancelAnswerSchema = z.object({
  orderId: z.string(),
  status: z.literal('cancelled'),
  returned: z.object({
    roubles: z.number().describe('Возвращено на рублёвый баланс: рублёвая часть оплаты'),
    points: z.number().int().describe('Возвращено баллов: баллы, которыми платили'),
  }),
  cashbackTakenBack: z
    .number()
    .int()
    .describe('Списано баллов кэшбэка за заказ: сколько было начислено, но не больше, чем есть'),
  service: ownerServiceSchema,
  balance: z.number().describe('Рублёвый баланс после отмены'),
  balanceStars: z.number().int().describe('Баллы после отмены'),
});
export type SiblingOrderCancelAnswer = z.infer<typeof siblingOrderCancelAnswerSchema>;
