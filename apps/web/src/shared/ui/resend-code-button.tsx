import { formatCountdown } from '@/shared/lib/use-countdown';
import type { MailedCode } from '@/shared/lib/use-mailed-code';
import { LinkButton } from './link-button';

/** 'Отправить код повторно', held by the countdown while it runs. */
export function ResendCodeButton({ code }: { code: MailedCode }) {
  return (
    <LinkButton disabled={code.isSending || code.secondsLeft > 0} onClick={() => void code.send()}>
      {code.secondsLeft > 0
        ? `Отправить код повторно через ${formatCountdown(code.secondsLeft)}`
        : 'Отправить код повторно'}
    </LinkButton>
  );
}
