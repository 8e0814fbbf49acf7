import { useDeletionNotice } from '@/features/account-data';
import styles from './app-frame.module.css';
import { BottomBar } from './bottom-bar';
import { MobileHeader } from './mobile-header';
import { PageSuspense } from './page-suspense';
import { Sidebar } from './sidebar';

/** The signed-in frame: sidebar on desktop, header and bottom bar on mobile. */
export function AppFrame() {
  useDeletionNotice();
  return (
    <div className={styles.frame}>
      <Sidebar />
      <div className={styles.column}>
        <MobileHeader />
        <main className={styles.content}>
          <PageSuspense />
        </main>
      </div>
      <BottomBar />
    </div>
  );
}
