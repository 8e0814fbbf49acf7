import { normalizeTypedCode } from '@portal/contracts/typed-code';
import { OTPInput, type SlotProps } from 'input-otp';
import type { CSSProperties, Ref } from 'react';
import styles from './code-input.module.css';

export type CodeInputProps = {
  value: string;
  onChange: (value: string) => void;
  /** Called once all boxes are filled (e.g. to submit at once). */
  onComplete?: (value: string) => void;
  length?: number;
  /** Red boxes: the code was refused. */
  isInvalid?: boolean;
  disabled?: boolean;
  autoFocus?: boolean;
  /** Accessible name of the hidden input behind the boxes. */
  label: string;
  ref?: Ref<HTMLInputElement>;
};

/** What a keystroke may add to the boxes: digits, the full-width ones too (input-otp's check). */
const DIGITS_AS_TYPED = '^[0-9\\uFF10-\\uFF19]+$';

/**
 * One box per character of a one-time code, on top of `input-otp`: a single real input, so paste,
 * SMS/e-mail autofill (`autocomplete="one-time-code"`) and screen readers work. Screens render it
 * through `./code-input.tsx`, which loads this file when a code is first asked for.
 */
export default function CodeInputBoxes({
  value,
  onChange,
  onComplete,
  length = 6,
  isInvalid = false,
  disabled,
  autoFocus,
  label,
  ref,
}: CodeInputProps) {
  return (
    <OTPInput
      ref={ref}
      value={value}
      // Full-width digits typed (an East Asian layout) pass the check below and come out ASCII;
      // `onComplete` is given the value, so it gets them ASCII too.
      onChange={(typed) => onChange(normalizeTypedCode(typed))}
      // A pasted «123 456», «123-456» or a line with spaces around it is the code it contains.
      pasteTransformer={normalizeTypedCode}
      onComplete={onComplete}
      maxLength={length}
      pattern={DIGITS_AS_TYPED}
      inputMode="numeric"
      autoComplete="one-time-code"
      autoFocus={autoFocus}
      disabled={disabled}
      aria-label={label}
      aria-invalid={isInvalid || undefined}
      containerClassName={styles.container}
      render={({ slots }) => (
        <div
          className={styles.slots}
          data-invalid={isInvalid || undefined}
          style={{ '--code-length': length } as CSSProperties}
        >
          {slots.map((slot, index) => (
            // The boxes are positions, not items: the index is their identity.
            // biome-ignore lint/suspicious/noArrayIndexKey: fixed-length row of positions
            <Slot key={index} {...slot} />
          ))}
        </div>
      )}
    />
  );
}

function Slot({ char, isActive, hasFakeCaret }: SlotProps) {
  return (
    <div
      className={styles.slot}
      data-active={isActive || undefined}
      data-filled={char ? true : undefined}
    >
      {char}
      {hasFakeCaret && <span className={styles.caret} aria-hidden="true" />}
    </div>
  );
}
