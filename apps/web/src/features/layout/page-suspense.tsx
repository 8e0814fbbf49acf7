import { Suspense } from 'react';
import { Outlet, useLocation } from 'react-router';
import { PageLoader } from '@/shared/ui/page-loader';

/**
 * The page of the current address, with a loader while its code arrives. The boundary is new for
 * each address: in the build's Preact (docs/decisions/0026-preact-in-the-build.md) a boundary
 * still waiting for one page's code stays blank when the visitor moves on before it arrives (Back
 * right after a click), so the page moved on to gets a boundary of its own.
 */
export function PageSuspense() {
  const { pathname } = useLocation();
  return (
    <Suspense key={pathname} fallback={<PageLoader />}>
      <Outlet />
    </Suspense>
  );
}
