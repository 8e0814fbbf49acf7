import { Outlet } from 'react-router';
import { useDeletionNotice } from '@/features/account-data';
import styles from './app-frame.module.css';
import { BottomBar } from './bottom-bar';
import { MobileHeader } from './mobile-header';
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
          <Outlet />
        </main>
      </div>
      <BottomBar />
    </div>
  );
}
