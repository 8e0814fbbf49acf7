import type { StaffAccountAction } from '@portal/contracts/staff';
import { useState } from 'react';
import { TextField } from '@/shared/ui/text-field';
import {
  useAccountActionMutation,
  useCorrectionMutation,
  useReconcileMutation,
  useRefundMutation,
  useResendLetterMutation,
  useResetFactorsMutation,
  useSendFactorResetCodeMutation,
} from './api/staff-api';
import { ReasonDialog } from './reason-dialog';
import styles from './staff.module.css';
import { STAFF_CHANGE_FORMS } from './staff-forms';

/** Which of the account's dialogs is open, with what it acts on. */
export type OpenDialog =
  | { kind: 'action'; action: StaffAccountAction; label: string }
  | { kind: 'resendLetter'; letterId: string }
  | { kind: 'factorResetCode' }
  | { kind: 'factorReset' }
  | { kind: 'correction' }
  | { kind: 'refund'; paymentId: string }
  | { kind: 'reconcile'; paymentId: string };

type AccountDialogsProps = {
  accountId: string;
  open: OpenDialog | null;
  onOpen: (dialog: OpenDialog | null) => void;
};

/**
 * The account page's changes, each a dialog that asks the reason (STAFF_CHANGE_FORMS) and shows
 * the server's message; the account is read again by the mutations' tags (api/staff-api.ts).
 */
export function AccountDialogs({ accountId, open, onOpen }: AccountDialogsProps) {
  const [act] = useAccountActionMutation();
  const [resend] = useResendLetterMutation();
  const [sendCode] = useSendFactorResetCodeMutation();
  const [resetFactors] = useResetFactorsMutation();
  const [correct] = useCorrectionMutation();
  const [refund] = useRefundMutation();
  const [reconcile] = useReconcileMutation();
  const close = () => onOpen(null);
  // Reset's second step takes the reason of the first, so the code is all there is to type.
  const [resetReason, setResetReason] = useState('');

  return (
    <>
      <ReasonDialog
        isOpen={open?.kind === 'action'}
        onClose={close}
        title={open?.kind === 'action' ? open.label : ''}
        submitLabel={open?.kind === 'action' ? open.label : ''}
        isDanger={open?.kind === 'action' && open.action === 'block'}
        schema={STAFF_CHANGE_FORMS.unlock}
        defaultValues={{ reason: '' }}
        onSubmit={({ reason }) =>
          open?.kind === 'action'
            ? act({ accountId, action: open.action, reason })
            : Promise.resolve({})
        }
      />
      <ReasonDialog
        isOpen={open?.kind === 'resendLetter'}
        onClose={close}
        title="Отправить письмо ещё раз"
        submitLabel="Отправить"
        schema={STAFF_CHANGE_FORMS.resendLetter}
        defaultValues={{ reason: '' }}
        onSubmit={({ reason }) =>
          open?.kind === 'resendLetter'
            ? resend({ accountId, letterId: open.letterId, reason })
            : Promise.resolve({})
        }
      />
      <ReasonDialog
        isOpen={open?.kind === 'factorResetCode'}
        onClose={close}
        title="Сбросить второй фактор: шаг 1 из 2"
        description="Клиенту уйдёт письмо с кодом. Попросите его прочитать код вам."
        submitLabel="Отправить код клиенту"
        schema={STAFF_CHANGE_FORMS.factorResetCode}
        defaultValues={{ reason: '' }}
        onSubmit={async ({ reason }) => {
          const result = await sendCode({ accountId, reason });
          if (result.data) setResetReason(reason);
          return result;
        }}
        onDone={() => onOpen({ kind: 'factorReset' })}
      />
      <ReasonDialog
        isOpen={open?.kind === 'factorReset'}
        onClose={close}
        title="Сбросить второй фактор: шаг 2 из 2"
        description="Введите код, который прочитал клиент: ключи доступа и аутентификатор будут отключены."
        submitLabel="Сбросить"
        isDanger
        schema={STAFF_CHANGE_FORMS.factorReset}
        defaultValues={{ reason: resetReason, code: '' }}
        fields={(form) => (
          <TextField
            label="Код из письма клиента"
            autoComplete="off"
            inputMode="numeric"
            autoFocus
            error={form.formState.errors.code?.message}
            {...form.register('code')}
          />
        )}
        onSubmit={(values) => resetFactors({ accountId, ...values })}
      />
      <ReasonDialog
        isOpen={open?.kind === 'correction'}
        onClose={close}
        title="Корректировка баланса"
        submitLabel="Провести"
        schema={STAFF_CHANGE_FORMS.correction}
        defaultValues={{ direction: 'credit', currency: 'rub', amount: '', reason: '' } as never}
        fields={(form) => (
          <>
            <label className={styles.select}>
              Что сделать
              <select {...form.register('direction')}>
                <option value="credit">Начислить</option>
                <option value="debit">Списать</option>
              </select>
            </label>
            <label className={styles.select}>
              Чем
              <select {...form.register('currency')}>
                <option value="rub">Рубли</option>
                <option value="points">Баллы</option>
              </select>
            </label>
            <TextField
              label="Сумма"
              inputMode="decimal"
              autoComplete="off"
              error={form.formState.errors.amount?.message as string | undefined}
              {...form.register('amount')}
            />
          </>
        )}
        onSubmit={(values, idempotencyKey) => correct({ accountId, ...values, idempotencyKey })}
      />
      <ReasonDialog
        isOpen={open?.kind === 'refund'}
        onClose={close}
        title="Возврат платежа"
        description="Пустая сумма — вернуть всё, что ещё не возвращено."
        submitLabel="Вернуть"
        schema={STAFF_CHANGE_FORMS.refund}
        defaultValues={{ amount: '', reason: '' } as never}
        fields={(form) => (
          <TextField
            label="Сумма, ₽ (необязательно)"
            inputMode="decimal"
            autoComplete="off"
            autoFocus
            error={form.formState.errors.amount?.message as string | undefined}
            {...form.register('amount')}
          />
        )}
        onSubmit={(values, idempotencyKey) =>
          open?.kind === 'refund'
            ? refund({ accountId, paymentId: open.paymentId, ...values, idempotencyKey })
            : Promise.resolve({})
        }
      />
      <ReasonDialog
        isOpen={open?.kind === 'reconcile'}
        onClose={close}
        title="Сверить с банком"
        description="Банк скажет, что стало с платежом; деньги зачислятся, если он оплачен и ещё не зачислен."
        submitLabel="Сверить"
        schema={STAFF_CHANGE_FORMS.reconcile}
        defaultValues={{ reason: '' }}
        onSubmit={({ reason }) =>
          open?.kind === 'reconcile'
            ? reconcile({ accountId, paymentId: open.paymentId, reason })
            : Promise.resolve({})
        }
      />
    </>
  );
}
