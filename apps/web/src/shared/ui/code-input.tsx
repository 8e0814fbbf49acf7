import { lazyPart } from './lazy-part';

export type { CodeInputProps } from './code-input-boxes';

/**
 * The boxes of a one-time code (`./code-input-boxes.tsx`, with `input-otp`), loaded when a code is
 * first asked for: every code step is a next step (a dialog's, the registration's), while /profile
 * shows several openers of them on its first paint (its budget: docs/benchmarks.md). The loader
 * shows meanwhile, «Нет соединения» with «Повторить» when it cannot load (`lazyPart`).
 */
export const CodeInput = lazyPart(() => import('./code-input-boxes'));
