import { availableParallelism } from 'node:os';
import { hash, verify } from '@node-rs/argon2';
import pLimit from 'p-limit';

// argon2id at OWASP's recommended minimum: 19 MiB, 2 passes, 1 lane. @node-rs/argon2 hashes on
// libuv's thread pool, so the event loop keeps serving while a hash runs.
const OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

// Hashing is pure CPU. Left unbounded, a burst of sign-ins takes every core and every other
// request waits behind it; one core stays free for the event loop, and sign-ins queue instead.
const hashing = pLimit(Math.max(1, availableParallelism() - 1));

export function hashPassword(password: string): Promise<string> {
  return hashing(() => hash(password, OPTIONS));
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await hashing(() => verify(passwordHash, password));
  } catch {
    return false;
  }
}
