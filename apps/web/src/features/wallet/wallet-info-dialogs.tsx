import { CASHBACK_PERCENT, ROUBLES_PER_POINT } from '@portal/contracts/constants';
import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { Button } from '@/shared/ui/button';
import { Modal, ModalClose } from '@/shared/ui/modal';
import styles from './wallet-panel.module.css';

type DialogProps = { isOpen: boolean; onOpenChange: (isOpen: boolean) => void };

/** What cashback points are, with a link to the history. */
export function CashbackInfoDialog({ isOpen, onOpenChange }: DialogProps) {
  return (
    <Modal
      isOpen={isOpen}
      onOpenChange={onOpenChange}
      title="Баллы кэшбэка"
      footer={
        <ModalClose>
          <Button>Понятно</Button>
        </ModalClose>
      }
    >
      <p className={styles.dialogText}>
        За покупку и продление услуг мы возвращаем {CASHBACK_PERCENT}% от суммы баллами. Например,
        за покупку на 1000 ₽ начислится 50 баллов.
      </p>
      <p className={styles.dialogText}>
        Баллами можно оплатить услугу полностью или частично:{' '}
        <strong>1 балл = {ROUBLES_PER_POINT} ₽</strong>.
      </p>
      <Link className={styles.dialogLink} to={paths.walletHistory.getHref()}>
        История начислений и списаний
      </Link>
    </Modal>
  );
}

/** The overdraft is not available yet; the dialog says so and has an OK button. */
export function OverdraftInfoDialog({ isOpen, onOpenChange }: DialogProps) {
  return (
    <Modal
      isOpen={isOpen}
      onOpenChange={onOpenChange}
      title="Овердрафт"
      footer={
        <ModalClose>
          <Button>OK</Button>
        </ModalClose>
      }
    >
      <p className={styles.dialogText}>
        Овердрафт не подключён. Он позволит оплачивать услуги, даже когда на балансе нет средств.
      </p>
      <p className={styles.dialogText}>
        Подключение и использование овердрафта временно недоступны.
      </p>
    </Modal>
  );
}
