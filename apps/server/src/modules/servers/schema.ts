import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from '../accounts/schema.js';

export const services = pgTable('services', {
  id: uuid('id').primaryKey().default(sql`gen_random_uuid()`),
  userId: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  sibling: text('sibling').notNull(),
  externalId: text('external_id').notNull(),
  name: text('name').notNull(),
  serverCount: integer('server_count').notNull(),
  priceKopecks: bigint('price_kopecks', { mode: 'number' }).notNull(),
  autoRenew: boolean('auto_renew').notNull().default(true),
  usePoints: boolean('use_points').notNull().default(false),
  manageUrl: text('manage_url'),
  paidUntil: timestamp('paid_until', { withTimezone: true }).notNull(),
  status: text('status', { enum: ['active', 'suspended'] })
    .notNull()
    .default('active'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const serviceOrders = pgTable(
  'service_orders',
  {
    sibling: text('sibling').notNull(),
    orderId: text('order_id').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    serviceId: uuid('service_id')
      .notNull()
      .references(() => services.id, { onDelete: 'cascade' }),
    requestHash: text('request_hash').notNull(),
    answer: jsonb('answer').notNull(),
    /** Months paid for (migration 0761); null for orders placed before it. */
    months: integer('months'),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    /** The answer of the cancel, given again to every repeat. */
    cancelAnswer: jsonb('cancel_answer'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.sibling, table.orderId] })],
);

export type ServiceRow = typeof services.$inferSelect;
