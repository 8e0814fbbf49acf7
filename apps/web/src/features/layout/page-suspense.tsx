import { Suspense } from 'react';
import { Outlet } from 'react-router';
import { PageLoader } from '@/shared/ui/page-loader';

/** The page of the current address, with a loader while its code arrives. */
export function PageSuspense() {
  return (
    <Suspense fallback={<PageLoader />}>
      <Outlet />
    </Suspense>
  );
}
