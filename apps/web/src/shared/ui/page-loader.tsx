import styles from './page-loader.module.css';

/** Shown while a lazily loaded page arrives. */
export function PageLoader() {
  return (
    <div className={styles.loader} role="status">
      <span className={styles.spinner} aria-hidden="true" />
      <span className="visually-hidden">Загрузка…</span>
    </div>
  );
}
