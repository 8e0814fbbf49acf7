import { Link } from 'react-router';
import { useAppSelector } from '@/app/hooks';
import { paths } from '@/config/paths';
import { selectUser } from '@/features/auth/user-slice';
import { Card } from '@/shared/ui/card';
import { ChevronRightIcon } from '@/shared/ui/icons';
import { Skeleton } from '@/shared/ui/skeleton';
import styles from './user-card.module.css';

function initialsOf(firstName: string, lastName: string, userName: string): string {
  const letters = `${firstName.trim().charAt(0)}${lastName.trim().charAt(0)}`;
  return (letters || userName.charAt(0)).toUpperCase();
}

/** Spec §2 "Home": who is signed in, with the way to the profile. */
export function UserCard() {
  const user = useAppSelector(selectUser);
  if (!user) {
    return (
      <Card className={styles.card} aria-label="Пользователь" aria-busy="true">
        <Skeleton width={64} height={64} radius="50%" />
        <div className={styles.text}>
          <Skeleton width={180} height={20} />
          <Skeleton width={120} height={14} />
        </div>
      </Card>
    );
  }
  const fullName = [user.firstName, user.lastName].filter(Boolean).join(' ') || user.userName;
  return (
    <Card className={styles.card} aria-label="Пользователь">
      {user.avatarUrl ? (
        <img className={styles.avatar} src={user.avatarUrl} alt="" width={64} height={64} />
      ) : (
        <span className={styles.avatar} aria-hidden="true">
          {initialsOf(user.firstName, user.lastName, user.userName)}
        </span>
      )}
      <div className={styles.text}>
        <p className={styles.greeting}>Здравствуйте,</p>
        <p className={styles.name}>{fullName}</p>
        <p className={styles.meta}>
          @{user.userName} · {user.email}
        </p>
      </div>
      <Link className={styles.profileLink} to={paths.profile.getHref()}>
        Профиль
        <ChevronRightIcon width={16} height={16} />
      </Link>
    </Card>
  );
}
