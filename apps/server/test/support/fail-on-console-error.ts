import { afterEach, vi } from 'vitest';

// An unexpected console.error fails the test that caused it, so errors cannot pass unnoticed.
const errors: unknown[][] = [];
const original = console.error;
console.error = (...args: unknown[]) => {
  errors.push(args);
  original(...args);
};

afterEach(() => {
  if (errors.length > 0) {
    const seen = errors.splice(0).map((args) => args.map(String).join(' '));
    throw new Error(`unexpected console.error:\n${seen.join('\n')}`);
  }
});

export function allowConsoleErrors() {
  return vi.spyOn(console, 'error').mockImplementation(() => {});
}
