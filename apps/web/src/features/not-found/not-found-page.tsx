import { Link } from 'react-router';
import { paths } from '@/config/paths';
import { NotFoundDarkIllustration, NotFoundLightIllustration } from './not-found-illustrations';
import styles from './not-found-page.module.css';

/** Any unknown path. Reachable signed in or not, so it has no app frame. */
export default function NotFoundPage() {
  return (
    <main className={styles.page}>
      <NotFoundLightIllustration className={`${styles.illustration} ${styles.light}`} />
      <NotFoundDarkIllustration className={`${styles.illustration} ${styles.dark}`} />
      <h1 className={styles.title}>Упс! Кажется, вы попали на несуществующую страницу</h1>
      <Link to={paths.home.getHref()} className={styles.home}>
        Вернуться на главную
      </Link>
    </main>
  );
}
