import { Link } from 'react-router';
import { useAppSelector } from '@/app/hooks';
import { paths } from '@/config/paths';
import { selectUser } from '@/features/auth';
import { Avatar } from '@/shared/ui/avatar';
import { Card } from '@/shared/ui/card';
import { ChevronRightIcon } from '@/shared/ui/icons';
import { Skeleton } from '@/shared/ui/skeleton';
import styles from './user-card.module.css';

/** Home: who is signed in, with the way to the profile. */
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
      <Avatar user={user} size={64} className={styles.avatar} />
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
