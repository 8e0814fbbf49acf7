import { useAppSelector } from '@/app/hooks';
import { selectUser } from '@/features/auth';
import { saveFile } from '@/shared/lib/save-file';
import { Button } from '@/shared/ui/button';
import { Modal, whenClosed } from '@/shared/ui/modal';
import { notify } from '@/shared/ui/toast';
import styles from './security.module.css';

type RecoveryCodesDialogProps = {
  /** The codes to show; the dialog is open while there are any. */
  codes: string[];
  onClose: () => void;
  /** Where the focus goes afterwards: the dialog follows another one, so no opener is left. */
  returnFocusTo?: () => HTMLElement | null | undefined;
};

function recoveryCodesFile(codes: string[], account: string): string {
  return [
    `Резервные коды для входа${account ? ` (${account})` : ''}`,
    'Каждый код можно использовать один раз вместо кода из приложения-аутентификатора.',
    '',
    ...codes,
    '',
  ].join('\n');
}

/**
 * The ten recovery codes, shown once (the server keeps only their hashes), with copy and
 * download, so the account survives a lost phone.
 */
export function RecoveryCodesDialog({ codes, onClose, returnFocusTo }: RecoveryCodesDialogProps) {
  const user = useAppSelector(selectUser);
  const text = recoveryCodesFile(codes, user?.email ?? '');

  async function copy() {
    try {
      await navigator.clipboard.writeText(codes.join('\n'));
      notify.success('Коды скопированы');
    } catch {
      notify.error('Не удалось скопировать: выделите коды и скопируйте вручную');
    }
  }

  function download() {
    saveFile(new Blob([text], { type: 'text/plain;charset=utf-8' }), 'recovery-codes.txt');
  }

  return (
    <Modal
      isOpen={codes.length > 0}
      onOpenChange={whenClosed(onClose)}
      title="Резервные коды"
      description="Сохраните их в надёжном месте. Каждый код можно один раз ввести вместо кода из приложения, если телефона не окажется под рукой. Больше мы их не покажем."
      footer={<Button onClick={onClose}>Я сохранил коды</Button>}
      returnFocusTo={returnFocusTo}
    >
      <ol className={styles.codes} aria-label="Резервные коды">
        {codes.map((code) => (
          <li key={code} className={styles.recoveryCode}>
            {code}
          </li>
        ))}
      </ol>
      <div className={styles.codeActions}>
        <Button variant="secondary" size="sm" onClick={() => void copy()}>
          Скопировать
        </Button>
        <Button variant="secondary" size="sm" onClick={download}>
          Скачать
        </Button>
      </div>
    </Modal>
  );
}
