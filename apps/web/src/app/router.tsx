import { lazy } from 'react';
import { createBrowserRouter } from 'react-router';
import { paths } from '@/config/paths';
import { RedirectIfSignedIn } from '@/features/auth/redirect-if-signed-in';
import { RequireAuth } from '@/features/auth/require-auth';
import { AppFrame } from '@/features/layout/app-frame';
import { PublicFrame } from '@/features/layout/public-frame';
import { OAuthRedirectPage } from '@/features/oauth/oauth-redirect-page';

// Pages load on demand, so a visitor on /auth downloads none of the signed-in screens.
const AuthPage = lazy(() => import('@/features/auth/auth-page'));
const ResetPasswordPage = lazy(() => import('@/features/reset-password/reset-password-page'));
const HomePage = lazy(() => import('./routes/home-page'));
const ProfilePage = lazy(() => import('@/features/profile/profile-page'));
const DevicesPage = lazy(() => import('@/features/devices/devices-page'));
const WalletHistoryPage = lazy(() => import('@/features/wallet/wallet-history-page'));
const NotFoundPage = lazy(() => import('@/features/not-found/not-found-page'));

export function createRouter() {
  return createBrowserRouter([
    { path: paths.oauth.path, element: <OAuthRedirectPage /> },
    {
      element: <PublicFrame />,
      children: [
        {
          element: <RedirectIfSignedIn />,
          children: [{ path: paths.auth.path, element: <AuthPage /> }],
        },
        { path: paths.resetPassword.path, element: <ResetPasswordPage /> },
      ],
    },
    {
      element: <RequireAuth />,
      children: [
        {
          element: <AppFrame />,
          children: [
            { path: paths.home.path, element: <HomePage /> },
            { path: paths.profile.path, element: <ProfilePage /> },
            { path: paths.devices.path, element: <DevicesPage /> },
            { path: paths.walletHistory.path, element: <WalletHistoryPage /> },
          ],
        },
      ],
    },
    { path: paths.notFound.path, element: <NotFoundPage /> },
  ]);
}
