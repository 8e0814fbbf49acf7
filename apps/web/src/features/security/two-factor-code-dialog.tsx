import { zodResolver } from '@hookform/resolvers/zod';
import { FIELD_REQUIRED } from '@portal/contracts/messages';
import { secondFactorCodeSchema } from '@portal/contracts/security';
import { useEffect, useId } from 'react';
import { useForm } from 'react-hook-form';
import { z } from 'zod';
import { toApiFailure } from '@/shared/api/api-failure';
import { showFailure } from '@/shared/lib/show-failure';
import blocks from '@/shared/ui/blocks.module.css';
import { Button } from '@/shared/ui/button';
import { Modal, ModalClose, whenClosed } from '@/shared/ui/modal';
import { AuthenticatorCodeField } from './authenticator-code-field';

/** Empty: 'Заполните поле'; otherwise six digits or a recovery code. */
const confirmCodeSchema = z.object({
  code: z.string().trim().min(1, FIELD_REQUIRED).pipe(secondFactorCodeSchema),
});

type TwoFactorCodeDialogProps = {
  isOpen: boolean;
  title: string;
  description: string;
  submitLabel: string;
  /** The action removes protection: its button is red, as every destructive one. */
  isDestructive?: boolean;
  onClose: () => void;
  onClosed?: () => void;
  /** Throws when the server refuses: its message becomes the toast. */
  onConfirm: (code: string) => Promise<void>;
};

/** A change of the authenticator confirmed by its code or a recovery code (disable, renew). */
export function TwoFactorCodeDialog({
  isOpen,
  title,
  description,
  submitLabel,
  isDestructive = false,
  onClose,
  onClosed,
  onConfirm,
}: TwoFactorCodeDialogProps) {
  const formId = useId();
  const form = useForm<{ code: string }>({
    resolver: zodResolver(confirmCodeSchema),
    defaultValues: { code: '' },
  });
  const {
    handleSubmit,
    reset,
    setError,
    formState: { isSubmitting },
  } = form;

  // Every opening starts with an empty field.
  useEffect(() => {
    if (isOpen) reset({ code: '' });
  }, [isOpen, reset]);

  const onSubmit = handleSubmit(async ({ code }) => {
    try {
      await onConfirm(code);
    } catch (error) {
      // Shown once: under the field when the code is what was refused, else as a toast.
      showFailure(toApiFailure(error), ['code'], setError);
    }
  });

  return (
    <Modal
      isOpen={isOpen}
      onOpenChange={whenClosed(onClose)}
      onClosed={onClosed}
      title={title}
      description={description}
      footer={
        <>
          <ModalClose>
            <Button variant="secondary">Отмена</Button>
          </ModalClose>
          <Button
            type="submit"
            form={formId}
            variant={isDestructive ? 'danger' : 'primary'}
            disabled={isSubmitting}
            aria-busy={isSubmitting}
          >
            {submitLabel}
          </Button>
        </>
      }
    >
      <form id={formId} className={blocks.stack} onSubmit={onSubmit} noValidate>
        <AuthenticatorCodeField form={form} label="Код подтверждения" autoFocus />
      </form>
    </Modal>
  );
}
