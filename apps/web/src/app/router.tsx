import { Route, Routes } from 'react-router';
import { paths } from '@/config/paths';
import { RedirectIfSignedIn } from '@/features/auth/redirect-if-signed-in';
import { RequireAuth } from '@/features/auth/require-auth';
import { useSessionWatch } from '@/features/auth/session-watch';
import { PublicFrame } from '@/features/layout/public-frame';
import { OAuthRedirectPage } from '@/features/oauth/oauth-redirect-page';
import { lazyPart } from '@/shared/ui/lazy-part';

// Pages load on demand, so a visitor on /auth downloads none of the signed-in screens (nor their
// frame: sidebar, mobile header, bottom bar).
const AppFrame = lazyPart(
  () => import('@/features/layout/app-frame').then((module) => ({ default: module.AppFrame })),
  'page',
);
const AuthPage = lazyPart(() => import('@/features/auth/auth-page'), 'page');
const ResetPasswordPage = lazyPart(
  () => import('@/features/reset-password/reset-password-page'),
  'page',
);
const NotMePage = lazyPart(() => import('@/features/not-me/not-me-page'), 'page');
const HomePage = lazyPart(() => import('./routes/home-page'), 'page');
const ProfilePage = lazyPart(() => import('./routes/profile-page'), 'page');
const DevicesPage = lazyPart(() => import('@/features/devices/devices-page'), 'page');
const SecurityLogPage = lazyPart(() => import('@/features/security-log/security-log-page'), 'page');
const WalletHistoryPage = lazyPart(() => import('@/features/wallet/wallet-history-page'), 'page');
const CancelDeletionPage = lazyPart(
  () => import('@/features/account-data/cancel-deletion-page'),
  'page',
);
const ReceiptPage = lazyPart(() => import('@/features/wallet/receipt-page'), 'page');
const NotFoundPage = lazyPart(() => import('@/features/not-found/not-found-page'), 'page');
// The support desk: its own chunks, loaded only when /staff is opened (a customer's visit to any
// other page takes none of it); to anyone not staff it shows the not-found page
// (docs/decisions/0044-support-desk.md).
const StaffArea = lazyPart(() => import('@/features/staff/staff-area'), 'page');

/**
 * The staff area's address, STAFF_PAGES.search of packages/contracts/src/staff.ts written out:
 * that module brings zod, which the first paint must not (decision 34); router.test.ts holds the
 * two equal.
 */
export const STAFF_AREA_PATH = '/staff/*';

/** How long the first render waits for the page of the address, whose code is on its way. */
const FIRST_PAGE_WAIT_MS = 250;

/**
 * Resolves once the page of `pathname` is loaded (only /auth's page is listed in its index.html,
 * apps/web/route-preloads.ts), or after FIRST_PAGE_WAIT_MS, or at once for any other address:
 * the first render then shows the page rather than a frame of the loader. A failed load is the
 * page's to show («Нет соединения» with «Повторить», shared/ui/lazy-part.tsx), as any later load.
 */
export function firstPageLoaded(pathname: string): Promise<void> {
  if (pathname !== paths.auth.path) return Promise.resolve();
  return Promise.race([
    AuthPage.preload().catch(() => {}),
    new Promise<void>((resolve) => setTimeout(resolve, FIRST_PAGE_WAIT_MS)),
  ]);
}

/**
 * Every route, in React Router's declarative mode: the app uses no loaders or actions, and the
 * data router's code would cost /auth about 17 KB of gzipped JavaScript (its budget:
 * apps/web/README.md, "Budgets"). The session's end, in this tab or another, leads to /auth.
 */
export function AppRoutes() {
  useSessionWatch();
  return (
    <Routes>
      <Route path={paths.oauth.path} element={<OAuthRedirectPage />} />
      <Route element={<PublicFrame />}>
        <Route element={<RedirectIfSignedIn />}>
          <Route path={paths.auth.path} element={<AuthPage />} />
        </Route>
        <Route path={paths.resetPassword.path} element={<ResetPasswordPage />} />
        <Route path={paths.notMe.path} element={<NotMePage />} />
        <Route path={paths.cancelDeletion.path} element={<CancelDeletionPage />} />
      </Route>
      <Route element={<RequireAuth />}>
        <Route path={STAFF_AREA_PATH} element={<StaffArea notFound={<NotFoundPage />} />} />
        <Route element={<AppFrame />}>
          <Route path={paths.home.path} element={<HomePage />} />
          <Route path={paths.profile.path} element={<ProfilePage />} />
          <Route path={paths.devices.path} element={<DevicesPage />} />
          <Route path={paths.securityLog.path} element={<SecurityLogPage />} />
          <Route path={paths.walletHistory.path} element={<WalletHistoryPage />} />
          <Route path={paths.walletReceipt.path} element={<ReceiptPage />} />
        </Route>
      </Route>
      <Route path={paths.notFound.path} element={<NotFoundPage />} />
    </Routes>
  );
}
