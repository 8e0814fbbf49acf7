import {
  RESEND_COUNTDOWN_FIRST_SECONDS,
  RESEND_COUNTDOWN_NEXT_SECONDS,
} from '@portal/contracts/constants';
import { useRef, useState } from 'react';
import { toApiFailure } from '@/shared/api/api-failure';
import { notify } from '@/shared/ui/toast';
import { useCountdown } from './use-countdown';

export type MailedCode = {
  /** Mails a code; true when there is one to type (a fresh one, or one still inside its countdown). */
  send: () => Promise<boolean>;
  isSending: boolean;
  /** Until another code may be asked for. */
  secondsLeft: number;
};

export type MailedCodeOptions = {
  /** The first letter went out before this screen did (the reset's first step): its countdown runs. */
  isFirstSent?: boolean;
  /** With `isFirstSent`: the seconds its countdown has left, when it began earlier (a reopened step). */
  firstWaitSeconds?: number;
  /** Called with the seconds of each countdown started, so a screen can keep it across a reload. */
  onCountdown?: (seconds: number) => void;
  /** Called after each letter that went out, so the screen can empty its code field. */
  onSent?: () => void;
  /** A refusal is not shown: the screen shows only field messages (the reset's steps). */
  isQuiet?: boolean;
};

/**
 * A code mailed on request, with its resend countdown: 60 s after the first letter, 30 s after each
 * later one, or what the server's `Retry-After` says. The server's message becomes a toast.
 */
export function useMailedCode(
  request: () => Promise<{ message: string }>,
  {
    isFirstSent = false,
    firstWaitSeconds = RESEND_COUNTDOWN_FIRST_SECONDS,
    onSent,
    onCountdown,
    isQuiet = false,
  }: MailedCodeOptions = {},
): MailedCode {
  const [isSending, setIsSending] = useState(false);
  const hasSent = useRef(isFirstSent);
  const countdown = useCountdown(isFirstSent ? firstWaitSeconds : 0);
  const startCountdown = (seconds: number) => {
    countdown.start(seconds);
    onCountdown?.(seconds);
  };

  async function send(): Promise<boolean> {
    setIsSending(true);
    try {
      notify.success((await request()).message);
      startCountdown(
        hasSent.current ? RESEND_COUNTDOWN_NEXT_SECONDS : RESEND_COUNTDOWN_FIRST_SECONDS,
      );
      hasSent.current = true;
      onSent?.();
      return true;
    } catch (error) {
      const failure = toApiFailure(error);
      if (!isQuiet) notify.error(failure.text);
      // Inside the countdown the letter sent a moment ago still holds a valid code.
      if (failure.status === 429) {
        if (failure.retryAfterSeconds) startCountdown(failure.retryAfterSeconds);
        return true;
      }
      return false;
    } finally {
      setIsSending(false);
    }
  }

  return { send, isSending, secondsLeft: countdown.secondsLeft };
}
