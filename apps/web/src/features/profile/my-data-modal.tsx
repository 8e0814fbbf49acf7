import { zodResolver } from '@hookform/resolvers/zod';
import type { User } from '@portal/contracts/auth';
import { type UpdateProfileForm, updateProfileFormSchema } from '@portal/contracts/profile';
import { withoutSpaces } from '@portal/contracts/without-spaces';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useAppDispatch } from '@/app/hooks';
import { userMerged } from '@/features/auth';
import { toApiFailure } from '@/shared/api/api-failure';
import { showFailure } from '@/shared/lib/show-failure';
import blocks from '@/shared/ui/blocks.module.css';
import { Button } from '@/shared/ui/button';
import { Modal, ModalClose } from '@/shared/ui/modal';
import { TextField } from '@/shared/ui/text-field';
import { notify } from '@/shared/ui/toast';
import { updateProfile } from './api/update-profile';
import { AvatarUpload } from './avatar-upload';
import { profileErrorTexts } from './profile-error-texts';

const FIELDS = ['userName', 'firstName', 'middleName', 'lastName'] as const;

function formValues(user: User): UpdateProfileForm {
  return {
    userName: user.userName,
    firstName: user.firstName,
    middleName: user.middleName ?? '',
    lastName: user.lastName,
  };
}

/**
 * 'Мои данные': nickname and the three names with their rules, the avatar;
 * Save sends the trimmed values (the nickname without spaces, stripped as typed as at
 * registration), merges what the server stored into the user and shows the server's message.
 */
export function MyDataModal({
  user,
  isOpen,
  onOpenChange,
}: {
  user: User;
  isOpen: boolean;
  onOpenChange: (isOpen: boolean) => void;
}) {
  const dispatch = useAppDispatch();
  const [isSaving, setIsSaving] = useState(false);
  const form = useForm<UpdateProfileForm>({
    resolver: zodResolver(updateProfileFormSchema(user.userName)),
    defaultValues: formValues(user),
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });
  const { errors } = form.formState;
  const userName = form.register('userName');

  // Every opening starts from what is stored now.
  useEffect(() => {
    if (isOpen) form.reset(formValues(user));
  }, [isOpen, form, user]);

  const save = form.handleSubmit(async (values) => {
    setIsSaving(true);
    try {
      const { message, ...stored } = await updateProfile(values);
      dispatch(userMerged(stored));
      notify.success(message);
      onOpenChange(false);
    } catch (error) {
      // Shown once: under each field refused (a taken nickname too), else as toasts.
      const failure = toApiFailure(error);
      showFailure(failure, FIELDS, form.setError, profileErrorTexts(failure));
    } finally {
      setIsSaving(false);
    }
  });

  return (
    <Modal
      isOpen={isOpen}
      onOpenChange={onOpenChange}
      title="Мои данные"
      size="lg"
      footer={
        <>
          <ModalClose>
            <Button variant="secondary">Отмена</Button>
          </ModalClose>
          <Button type="submit" form="my-data-form" disabled={isSaving} aria-busy={isSaving}>
            Сохранить
          </Button>
        </>
      }
    >
      <form id="my-data-form" className={blocks.stack} noValidate onSubmit={save}>
        <AvatarUpload />
        <TextField
          label="Никнейм"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          error={errors.userName?.message}
          {...userName}
          onChange={(event) => {
            // Spaces go as they are typed; a nickname of spaces alone stays, so its message
            // says so («Поле не должно состоять только из пробелов»), not that it is empty.
            const stripped = withoutSpaces(event.target.value);
            if (stripped && stripped !== event.target.value) event.target.value = stripped;
            return userName.onChange(event);
          }}
        />
        <TextField
          label="Имя"
          autoComplete="given-name"
          error={errors.firstName?.message}
          {...form.register('firstName')}
        />
        <TextField
          label="Отчество"
          autoComplete="additional-name"
          error={errors.middleName?.message}
          {...form.register('middleName')}
        />
        <TextField
          label="Фамилия"
          autoComplete="family-name"
          error={errors.lastName?.message}
          {...form.register('lastName')}
        />
      </form>
    </Modal>
  );
}
