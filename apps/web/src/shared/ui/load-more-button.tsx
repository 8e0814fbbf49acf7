import { Button } from './button';
import styles from './load-more-button.module.css';

/** «Показать ещё» under a paged list; says it is loading while the next page is on its way. */
export function LoadMoreButton({
  isLoading,
  onClick,
}: {
  isLoading: boolean;
  onClick: () => void;
}) {
  return (
    <Button variant="secondary" className={styles.more} onClick={onClick} disabled={isLoading}>
      {isLoading ? 'Загружаем…' : 'Показать ещё'}
    </Button>
  );
}
