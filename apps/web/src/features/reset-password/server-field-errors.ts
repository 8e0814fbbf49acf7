import axios from 'axios';

/** Per-field messages of a 400 answer (DESIGN §2), or {} for any other failure. */
export function serverFieldErrors(error: unknown): Record<string, string[]> {
  if (!axios.isAxiosError(error) || error.response?.status !== 400) return {};
  const errors = (error.response.data as { errors?: unknown } | undefined)?.errors;
  if (!errors || typeof errors !== 'object') return {};
  const result: Record<string, string[]> = {};
  for (const [field, messages] of Object.entries(errors)) {
    if (Array.isArray(messages)) {
      result[field] = messages.filter((item): item is string => typeof item === 'string');
    }
  }
  return result;
}

/** The first field message of a 400 answer, whatever the field; null otherwise. */
export function firstFieldMessage(error: unknown): string | null {
  for (const messages of Object.values(serverFieldErrors(error))) {
    if (messages[0]) return messages[0];
  }
  return null;
}
