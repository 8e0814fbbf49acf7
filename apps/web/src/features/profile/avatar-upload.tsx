import { AVATAR_MIME_TYPES } from '@portal/contracts/constants';
import { AVATAR_WRONG_TYPE } from '@portal/contracts/messages';
import { useRef, useState } from 'react';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { selectUser, userMerged } from '@/features/auth';
import { toApiFailure } from '@/shared/api/api-failure';
import { Avatar } from '@/shared/ui/avatar';
import { Button } from '@/shared/ui/button';
import { notify } from '@/shared/ui/toast';
import { updateAvatar } from './api/update-avatar';
import { uploadFile } from './api/upload-file';
import styles from './profile-page.module.css';

const ACCEPTED: readonly string[] = AVATAR_MIME_TYPES;

/**
 * The avatar: a PNG or JPEG is chosen, a progress bar counts the upload in percent, then a
 * second call sets it; success shows the server's message, an error shows it and resets the upload.
 */
export function AvatarUpload() {
  const dispatch = useAppDispatch();
  const user = useAppSelector(selectUser);
  const inputRef = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const isBusy = progress !== null;

  function reset() {
    setProgress(null);
    if (inputRef.current) inputRef.current.value = '';
  }

  async function upload(file: File) {
    if (!ACCEPTED.includes(file.type)) {
      notify.error(AVATAR_WRONG_TYPE);
      reset();
      return;
    }
    setProgress(0);
    try {
      const { data: address } = await uploadFile(file, setProgress);
      const { message } = await updateAvatar(address);
      dispatch(userMerged({ avatarUrl: address }));
      notify.success(message);
    } catch (error) {
      notify.error(toApiFailure(error).text);
    } finally {
      reset();
    }
  }

  if (!user) return null;
  return (
    <div className={styles.avatarPicker}>
      <Avatar user={user} size={64} />
      <div className={styles.avatarControls}>
        <input
          ref={inputRef}
          className={styles.fileInput}
          type="file"
          accept={ACCEPTED.join(',')}
          aria-label="Файл аватара"
          tabIndex={-1}
          disabled={isBusy}
          onChange={(event) => {
            const file = event.target.files?.[0];
            if (file) void upload(file);
          }}
        />
        <Button
          variant="secondary"
          size="sm"
          disabled={isBusy}
          onClick={() => inputRef.current?.click()}
        >
          Загрузить аватар
        </Button>
        {isBusy ? (
          <div className={styles.progress}>
            <div
              className={styles.progressTrack}
              role="progressbar"
              aria-label="Загрузка аватара"
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={progress}
            >
              <div className={styles.progressBar} style={{ width: `${progress}%` }} />
            </div>
            <span>{progress}%</span>
          </div>
        ) : (
          <span className={styles.muted}>PNG или JPEG</span>
        )}
      </div>
    </div>
  );
}
