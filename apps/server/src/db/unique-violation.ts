/**
 * True when the error, or one it wraps (drizzle puts the driver's error in `cause`), is
 * PostgreSQL's unique_violation (SQLSTATE 23505): a unique index let only one of two writers in.
 */
export function isUniqueViolation(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; depth++) {
    if ((current as { code?: unknown }).code === '23505') return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
