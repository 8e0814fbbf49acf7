import { AVATAR_MIME_TYPES } from '@portal/contracts/constants';
import { AVATAR_WRONG_TYPE } from '@portal/contracts/messages';
import { useRef, useState } from 'react';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { fetchCurrentUser, selectUser, userMerged } from '@/features/auth';
import { toApiFailure } from '@/shared/api/api-failure';
import { useUnmountSignal } from '@/shared/lib/use-unmount-signal';
import { Avatar } from '@/shared/ui/avatar';
import { Button } from '@/shared/ui/button';
import { notify } from '@/shared/ui/toast';
import { updateAvatar } from './api/update-avatar';
import { uploadFile } from './api/upload-file';
import styles from './profile.module.css';

const ACCEPTED: readonly string[] = AVATAR_MIME_TYPES;

/**
 * The avatar: a PNG or JPEG is chosen, a progress bar counts the upload in percent, then a
 * second call sets it; success shows the server's message, an error shows it and resets the upload.
 *
 * Closing «Мои данные» before the avatar is set gives it up: the call in flight is aborted and its
 * answer ignored (no toast, no new picture). Aborted during the upload, the avatar stays as it
 * was: the file may have been stored, but only `update-avatar` makes it the avatar, and that call
 * is never sent. Aborted during `update-avatar`, the server may have set it before the abort
 * reached it, so the user is read again and the page shows whichever avatar the server kept.
 */
export function AvatarUpload() {
  const dispatch = useAppDispatch();
  const user = useAppSelector(selectUser);
  const inputRef = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const isBusy = progress !== null;
  const closingSignal = useUnmountSignal();

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
    const signal = closingSignal();
    let isSetting = false;
    setProgress(0);
    try {
      const { data: address } = await uploadFile(file, setProgress, signal);
      if (signal.aborted) return;
      isSetting = true;
      const { message } = await updateAvatar(address, signal);
      if (signal.aborted) {
        void dispatch(fetchCurrentUser());
        return;
      }
      dispatch(userMerged({ avatarUrl: address }));
      notify.success(message);
    } catch (error) {
      if (signal.aborted) {
        if (isSetting) void dispatch(fetchCurrentUser());
        return;
      }
      notify.error(toApiFailure(error).text);
    } finally {
      if (!signal.aborted) reset();
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
