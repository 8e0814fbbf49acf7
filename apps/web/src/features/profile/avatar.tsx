import type { User } from '@portal/contracts/auth';
import { AVATAR_DISPLAY_SIZE_PX } from '@portal/contracts/constants';
import styles from './profile-page.module.css';

/** The user's picture at 128 px (spec §9), or their initial when there is none. */
export function Avatar({ user, className }: { user: User; className?: string }) {
  const classes = [styles.avatar, className ?? ''].filter(Boolean).join(' ');
  if (user.avatarUrl) {
    return (
      <img
        className={classes}
        src={user.avatarUrl}
        alt="Аватар"
        width={AVATAR_DISPLAY_SIZE_PX}
        height={AVATAR_DISPLAY_SIZE_PX}
      />
    );
  }
  const initial = (user.firstName || user.userName || '?').trim().charAt(0).toUpperCase();
  return (
    <div className={classes} role="img" aria-label="Аватар">
      {initial}
    </div>
  );
}
