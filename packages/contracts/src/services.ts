import { z } from 'zod';
import { timestampSchema } from './common';

/** A purchased service. `amount`, `message`, `serverCount` are the names clients already read. */
export const ownerServiceSchema = z.object({
  id: z.string(),
  /** Price per month, roubles with two decimals (default 1790). */
  amount: z.number(),
  /** The service's name. */
  message: z.string(),
  serverCount: z.number().int(),
  autoRenew: z.boolean(),
  manageUrl: z.string().nullable(),
  paidUntil: timestampSchema.nullable(),
  /** Suspended when auto-renewal could not pay for it. */
  status: z.enum(['active', 'suspended']),
});
export type OwnerService = z.infer<typeof ownerServiceSchema>;

export const ownerServicesAnswerSchema = z.array(ownerServiceSchema);
export type OwnerServicesAnswer = z.infer<typeof ownerServicesAnswerSchema>;

export const catalogueStatusSchema = z.enum(['active', 'inactive', 'soon']);
export type CatalogueStatus = z.infer<typeof catalogueStatusSchema>;

/** A service of the brand's catalogue: active opens it, inactive is disabled, soon says 'Скоро'. */
export const catalogueItemSchema = z.object({
  imgUrl: z.string(),
  title: z.string(),
  description: z.string(),
  link: z.string(),
  status: catalogueStatusSchema,
});
export type CatalogueItem = z.infer<typeof catalogueItemSchema>;
