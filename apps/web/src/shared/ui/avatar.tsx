import type { User } from '@portal/contracts/auth';
import type { CSSProperties } from 'react';
import styles from './avatar.module.css';

type AvatarUser = Pick<User, 'avatarUrl' | 'firstName' | 'lastName' | 'userName'>;

/** First letters of the first and last name ('Иван Петров' → 'ИП'), else the nickname's first. */
export function initialsOf({ firstName, lastName, userName }: AvatarUser): string {
  const letters = `${firstName.trim().charAt(0)}${lastName.trim().charAt(0)}`;
  return (letters || userName.trim().charAt(0) || '?').toUpperCase();
}

/**
 * The user's picture, or their initials when there is none: the one avatar of every screen, so
 * home and profile show the same. `size` in px; a screen may shrink it with `className`.
 */
export function Avatar({
  user,
  size,
  className,
}: {
  user: AvatarUser;
  size: number;
  className?: string;
}) {
  const classes = [styles.avatar, className ?? ''].filter(Boolean).join(' ');
  const style = { '--avatar-size': `${size}px` } as CSSProperties;
  if (user.avatarUrl) {
    return (
      <img
        className={classes}
        style={style}
        src={user.avatarUrl}
        alt="Аватар"
        width={size}
        height={size}
        data-testid="avatar"
      />
    );
  }
  return (
    <span className={classes} style={style} role="img" aria-label="Аватар" data-testid="avatar">
      {initialsOf(user)}
    </span>
  );
}
