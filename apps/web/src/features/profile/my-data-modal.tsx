import { zodResolver } from '@hookform/resolvers/zod';
import type { User } from '@portal/contracts/auth';
import { type UpdateProfileForm, updateProfileFormSchema } from '@portal/contracts/profile';
import axios from 'axios';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useAppDispatch } from '@/app/hooks';
import { userMerged } from '@/features/auth/user-slice';
import { Button } from '@/shared/ui/button';
import { Modal, ModalClose } from '@/shared/ui/modal';
import { TextField } from '@/shared/ui/text-field';
import { notify } from '@/shared/ui/toast';
import { updateProfile } from './api/update-profile';
import { AvatarUpload } from './avatar-upload';
import { profileErrorTexts } from './profile-error-texts';
import styles from './profile-page.module.css';

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
 * 'Мои данные' (spec §2 Profile, §5): nickname and the three names with their rules, the avatar;
 * Save sends the trimmed values, merges them into the stored user and shows the server's message.
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

  // Every opening starts from what is stored now.
  useEffect(() => {
    if (isOpen) form.reset(formValues(user));
  }, [isOpen, form, user]);

  const save = form.handleSubmit(async (values) => {
    setIsSaving(true);
    try {
      const { message } = await updateProfile(values);
      dispatch(userMerged(values));
      notify.success(message);
      onOpenChange(false);
    } catch (error) {
      for (const text of profileErrorTexts(error)) notify.error(text);
      const fieldErrors = axios.isAxiosError(error)
        ? (error.response?.data as { errors?: Record<string, string[]> } | undefined)?.errors
        : undefined;
      for (const field of FIELDS) {
        const message = fieldErrors?.[field]?.[0];
        if (message) form.setError(field, { message });
      }
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
      <form id="my-data-form" className={styles.form} noValidate onSubmit={save}>
        <AvatarUpload />
        <TextField
          label="Никнейм"
          autoComplete="username"
          error={errors.userName?.message}
          {...form.register('userName')}
        />
        <div className={styles.fieldsGrid}>
          <TextField
            label="Имя"
            autoComplete="given-name"
            error={errors.firstName?.message}
            {...form.register('firstName')}
          />
          <TextField
            label="Фамилия"
            autoComplete="family-name"
            error={errors.lastName?.message}
            {...form.register('lastName')}
          />
        </div>
        <TextField
          label="Отчество"
          autoComplete="additional-name"
          error={errors.middleName?.message}
          {...form.register('middleName')}
        />
      </form>
    </Modal>
  );
}
