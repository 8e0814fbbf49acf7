/**
 * The addresses of the web app's pages, by name, as React Router writes them: `:name` stands for
 * one segment. The web app's routes and links are built from these (apps/web/src/config/paths.ts);
 * the server answers them with the page whatever the request's Accept header
 * (apps/server/src/web/serve-web.ts), so `curl http://localhost:3000/` gets the page as a browser
 * does.
 */
export const PAGES = {
  home: '/',
  auth: '/auth',
  resetPassword: '/reset-password',
  notMe: '/not-me',
  profile: '/profile',
  devices: '/profile/devices',
  securityLog: '/profile/security-log',
  walletHistory: '/wallet/history',
  walletReceipt: '/wallet/receipts/:id',
  oauth: '/oauth',
  /** Opened from the deletion letter; the server builds the same address (account-data/letters.ts). */
  cancelDeletion: '/account/cancel-deletion',
} as const;

export const PAGE_PATHS = Object.values(PAGES);

/** Whether `pathname` (no query) is one of PAGE_PATHS; a trailing slash is allowed, as the router allows it. */
export function isPagePath(pathname: string): boolean {
  const segments = (path: string) => path.split('/').filter(Boolean);
  const asked = segments(pathname);
  return PAGE_PATHS.some((pattern) => {
    const expected = segments(pattern);
    return (
      expected.length === asked.length &&
      expected.every((segment, index) => segment.startsWith(':') || segment === asked[index])
    );
  });
}
