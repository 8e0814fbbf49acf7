import { Suspense } from 'react';
import { Outlet } from 'react-router';
import { PageLoader } from '@/shared/ui/page-loader';
import styles from './app-frame.module.css';
import { BottomBar } from './bottom-bar';
import { MobileHeader } from './mobile-header';
import { Sidebar } from './sidebar';

/** The signed-in frame: sidebar on desktop, header and bottom bar on mobile. */
export function AppFrame() {
  return (
    <div className={styles.frame}>
      <Sidebar />
      <div className={styles.column}>
        <MobileHeader />
        <main className={styles.content}>
          <Suspense fallback={<PageLoader />}>
            <Outlet />
          </Suspense>
        </main>
      </div>
      <BottomBar />
    </div>
  );
}
