import { afterEach, vi } from 'vitest';

// STYLE #10: an unexpected console.error fails the test that caused it.
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
