import { zodResolver } from '@hookform/resolvers/zod';
import type { ReactNode } from 'react';
import { useState } from 'react';
import {
  type DefaultValues,
  type FieldValues,
  type Path,
  type Resolver,
  type UseFormReturn,
  useForm,
} from 'react-hook-form';
import type { z } from 'zod';
import { failureOf } from '@/shared/api/api-failure';
import blocks from '@/shared/ui/blocks.module.css';
import { Button } from '@/shared/ui/button';
import { Modal, ModalClose, whenClosed } from '@/shared/ui/modal';
import modalStyles from '@/shared/ui/modal.module.css';
import { TextField } from '@/shared/ui/text-field';
import { notify } from '@/shared/ui/toast';
import styles from './staff.module.css';

/** What a staff change answers: its message, and for money whether it is done or waits. */
export type StaffChangeResult = {
  data?: { message: string; status?: 'done' | 'pending' };
  error?: unknown;
};

export type ReasonDialogProps<Values extends FieldValues> = {
  isOpen: boolean;
  onClose: () => void;
  title: string;
  description?: ReactNode;
  submitLabel: string;
  isDanger?: boolean;
  /** The form's schema from the contracts; every one has the required `reason`. */
  // biome-ignore lint/suspicious/noExplicitAny: a schema's input may differ from its output (coerced numbers).
  schema: z.ZodType<Values, any>;
  defaultValues: DefaultValues<Values>;
  /** Fields above the reason (amount, code, e-mail…). */
  fields?: (form: UseFormReturn<Values>) => ReactNode;
  /**
   * The change, with the key of this opening of the dialog (crypto.randomUUID, made once per
   * opening): a repeated click, or a try again after no answer, is then one change for the server.
   */
  onSubmit: (values: Values, openingKey: string) => Promise<StaffChangeResult>;
  /** After the server took the change (the dialog closes, the toast shows its message). */
  onDone?: () => void;
};

/**
 * A staff change's dialog: its fields, the reason every change needs (staffReasonSchema), the
 * server's refusal shown in the dialog as it says it; taken, a toast with the server's message
 * (money waiting for a second member's approval: an info toast) and the dialog closes.
 */
export function ReasonDialog<Values extends FieldValues>(props: ReasonDialogProps<Values>) {
  return (
    <Modal
      isOpen={props.isOpen}
      onOpenChange={whenClosed(props.onClose)}
      title={props.title}
      description={props.description}
    >
      {props.isOpen ? <ReasonForm {...props} /> : null}
    </Modal>
  );
}

function ReasonForm<Values extends FieldValues>({
  schema,
  defaultValues,
  fields,
  onSubmit,
  onClose,
  onDone,
  submitLabel,
  isDanger,
}: ReasonDialogProps<Values>) {
  // One key per opening: this form mounts when the dialog opens.
  const [openingKey] = useState(() => crypto.randomUUID());
  const [refusal, setRefusal] = useState<string | null>(null);
  const form = useForm<Values>({
    resolver: zodResolver(schema) as unknown as Resolver<Values>,
    defaultValues,
  });
  const { errors, isSubmitting } = form.formState;

  const submit = form.handleSubmit(async (values) => {
    setRefusal(null);
    const result = await onSubmit(values, openingKey);
    if (result.error !== undefined || !result.data) {
      setRefusal(failureOf(result.error).text);
      return;
    }
    if (result.data.status === 'pending') notify.info(result.data.message);
    else notify.success(result.data.message);
    onClose();
    onDone?.();
  });

  return (
    <form className={blocks.stack} noValidate onSubmit={(event) => void submit(event)}>
      {fields?.(form)}
      <TextField
        label="Причина или номер обращения"
        autoComplete="off"
        autoFocus={!fields}
        error={errors.reason?.message as string | undefined}
        {...form.register('reason' as Path<Values>)}
      />
      <p className={styles.error} role="alert">
        {refusal}
      </p>
      {/* Laid out as a modal's footer, as the customer's proof step does. */}
      <div className={modalStyles.footer}>
        <ModalClose>
          <Button variant="secondary" disabled={isSubmitting}>
            Отмена
          </Button>
        </ModalClose>
        <Button
          type="submit"
          variant={isDanger ? 'danger' : 'primary'}
          disabled={isSubmitting}
          aria-busy={isSubmitting}
        >
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}
