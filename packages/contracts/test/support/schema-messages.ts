/** Test-only helpers: read what a schema says about an input. */
import type { z } from 'zod';
import { toFieldErrors } from '../../src/common';

/** Every message of every issue, in order; [] when the input passes. */
export function messagesOf(schema: z.ZodType, input: unknown): string[] {
  const result = schema.safeParse(input);
  return result.success ? [] : result.error.issues.map((issue) => issue.message);
}

/** Messages per field path; {} when the input passes. */
export function fieldMessagesOf(schema: z.ZodType, input: unknown): Record<string, string[]> {
  const result = schema.safeParse(input);
  return result.success ? {} : toFieldErrors(result.error);
}
