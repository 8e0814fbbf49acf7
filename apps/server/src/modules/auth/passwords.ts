import { hash, verify } from '@node-rs/argon2';

// DESIGN §3: argon2id, 19 MiB, 2 passes, 1 lane. @node-rs/argon2 hashes on libuv's thread pool,
// so the event loop keeps serving while a hash runs.
const OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
}
