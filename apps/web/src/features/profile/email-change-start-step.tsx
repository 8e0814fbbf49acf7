import blocks from '@/shared/ui/blocks.module.css';
import { Button } from '@/shared/ui/button';

/** The e-mail change's first step: a code to the current address, sent on request. */
export function EmailChangeStartStep({
  currentEmail,
  isBusy,
  onSendCode,
}: {
  currentEmail: string;
  isBusy: boolean;
  onSendCode: () => void;
}) {
  return (
    <div className={blocks.stack}>
      <p className={blocks.lead}>
        Сначала подтвердим текущую почту <strong>{currentEmail}</strong>: отправим на неё код.
      </p>
      <Button disabled={isBusy} aria-busy={isBusy} onClick={onSendCode}>
        Отправить код
      </Button>
    </div>
  );
}
