import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { FileStorage } from '../../adapters/storage.js';
import type { DataOwner } from '../../db/data-owners.js';

/**
 * The uploads' rows (schema.ts) go in the erasure's transaction; their files after it commits
 * (a crash in between leaves files nobody can reach, never a half-erased account).
 */
export const uploadsData = (storage: FileStorage, log: FastifyBaseLogger): DataOwner => ({
  module: 'uploads',
  tables: [{ name: 'uploads', onErasure: 'erase' }],
  async erase(tx, { userId, afterCommit }) {
    const result = (await tx.execute(
      sql`DELETE FROM uploads WHERE user_id = ${userId} RETURNING key`,
    )) as unknown as { rows: { key: string }[] };
    const keys = result.rows.map((row) => row.key);
    afterCommit(async () => {
      for (const key of keys) {
        await storage.remove(key).catch((error: unknown) => {
          log.error({ err: error, key }, 'an erased account’s file could not be removed');
        });
      }
    });
  },
});
