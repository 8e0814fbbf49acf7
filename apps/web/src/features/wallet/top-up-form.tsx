import { zodResolver } from '@hookform/resolvers/zod';
import { DEFAULT_TOP_UP_AMOUNT, QUICK_TOP_UP_AMOUNTS } from '@portal/contracts/constants';
import {
  buildTopUpPayment,
  type OfferedPaymentMethod,
  PAYMENT_METHOD_TITLES,
  type TopUpForm as TopUpFormValues,
  topUpFormSchema,
} from '@portal/contracts/wallet';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useAppSelector } from '@/app/hooks';
import { selectUser } from '@/features/auth';
import { toApiFailure } from '@/shared/api/api-failure';
import { formatRoubles } from '@/shared/lib/format-money';
import { showFailure } from '@/shared/lib/show-failure';
import { submitInPlace } from '@/shared/lib/submit-in-place';
import { useUnmountSignal } from '@/shared/lib/use-unmount-signal';
import blocks from '@/shared/ui/blocks.module.css';
import { ChevronRightIcon } from '@/shared/ui/icons';
import { createTopUpPayment } from './api/create-top-up-payment';
import { paymentErrorText } from './payment-error-text';
import { PaymentMethodIcon } from './payment-method-icon';
import styles from './top-up-form.module.css';
import { selectPaymentMethods } from './wallet-slice';

const METHOD_HINTS: Record<OfferedPaymentMethod, string> = {
  card: 'Visa, Mastercard, МИР',
  sbp: 'Через приложение вашего банка',
};

/**
 * The top-up form: the amount (default 500, sent as a number, no client limits), quick picks
 * and the methods. Choosing a method starts the payment; while that request is in flight the list
 * is dimmed and disabled, and on success the browser leaves for the payment page. Every refusal
 * of the amount (the form's rule or the server's limits) shows under the field, not as a toast.
 *
 * Closing the dialog (it unmounts the form) gives the request up: it is aborted, and an answer
 * that still comes is ignored, so the browser never leaves for a payment the person walked away
 * from. A payment the server created all the same is left alone: it waits unpaid, listed in the
 * history as pending with its page until that expires, and the reconciliation
 * (apps/server/src/modules/payments/reconcile.ts) cancels it at the bank once long expired.
 */
export function TopUpForm() {
  const user = useAppSelector(selectUser);
  const methods = useAppSelector(selectPaymentMethods);
  const [pendingMethod, setPendingMethod] = useState<OfferedPaymentMethod | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    setValue,
    watch,
    formState: { errors },
  } = useForm<TopUpFormValues>({
    resolver: zodResolver(topUpFormSchema),
    defaultValues: { amount: DEFAULT_TOP_UP_AMOUNT },
  });
  const amount = watch('amount');
  const isBusy = pendingMethod !== null;
  const closingSignal = useUnmountSignal();

  const pay = (method: OfferedPaymentMethod) =>
    handleSubmit(async ({ amount: roubles }) => {
      if (!user) return;
      const signal = closingSignal();
      setPendingMethod(method);
      try {
        const address = await createTopUpPayment(
          method,
          buildTopUpPayment({ userId: user.id, email: user.email, amount: roubles }),
          signal,
        );
        if (signal.aborted) return;
        // The list stays disabled: the page is being replaced by the payment page.
        window.location.assign(address);
      } catch (error) {
        if (signal.aborted) return;
        showFailure(toApiFailure(error), ['amount'], setError, paymentErrorText(error));
        setPendingMethod(null);
      }
    })();

  return (
    <form
      className={blocks.stack}
      noValidate
      onSubmit={submitInPlace(() => {
        // Enter in the amount field pays by card, the first method.
        const [first] = methods;
        if (first && !isBusy) void pay(first);
      })}
    >
      <div className={styles.amountField}>
        <label htmlFor="top-up-amount" className={styles.label}>
          Сумма пополнения
        </label>
        <div className={styles.amountControl}>
          <input
            id="top-up-amount"
            type="number"
            inputMode="decimal"
            step="any"
            className={styles.amountInput}
            aria-invalid={errors.amount ? true : undefined}
            aria-describedby={errors.amount ? 'top-up-amount-error' : undefined}
            disabled={isBusy}
            {...register('amount', { valueAsNumber: true })}
          />
          <span className={styles.currency} aria-hidden="true">
            ₽
          </span>
        </div>
        {errors.amount?.message ? (
          <p id="top-up-amount-error" className={styles.error} role="alert">
            {errors.amount.message}
          </p>
        ) : null}
      </div>

      <fieldset className={styles.quickPicks} disabled={isBusy}>
        <legend className="visually-hidden">Быстрый выбор суммы</legend>
        {QUICK_TOP_UP_AMOUNTS.map((value) => (
          <button
            key={value}
            type="button"
            className={styles.quickPick}
            aria-pressed={amount === value}
            onClick={() => setValue('amount', value, { shouldValidate: true })}
          >
            {value.toLocaleString('ru-RU')}
          </button>
        ))}
      </fieldset>

      <div className={styles.methodsHeader}>
        <span className={styles.label}>Способ оплаты</span>
        {Number.isFinite(amount) && amount > 0 ? (
          <span className={styles.total}>к оплате {formatRoubles(amount)}</span>
        ) : null}
      </div>
      <ul
        className={`${blocks.choiceList} ${styles.methods}`}
        aria-label="Способы оплаты"
        aria-busy={isBusy}
        data-busy={isBusy ? 'true' : undefined}
      >
        {methods.map((method) => (
          <li key={method}>
            <button
              type="button"
              className={`${blocks.choiceRow} ${styles.method}`}
              disabled={isBusy}
              onClick={() => void pay(method)}
            >
              <PaymentMethodIcon method={method} />
              <span className={blocks.choiceText}>
                <span className={styles.methodTitle}>{PAYMENT_METHOD_TITLES[method]}</span>
                <span className={styles.methodHint}>{METHOD_HINTS[method]}</span>
              </span>
              {pendingMethod === method ? (
                <span
                  className={`${blocks.spinner} ${blocks.spinnerSmall}`}
                  role="status"
                  aria-label="Создаём платёж"
                />
              ) : (
                <ChevronRightIcon className={blocks.chevron} />
              )}
            </button>
          </li>
        ))}
      </ul>
      <p className={styles.note}>
        Вы перейдёте на защищённую страницу оплаты. Деньги поступят на баланс сразу после
        подтверждения банком.
      </p>
    </form>
  );
}
