/**
 * The addresses of the web app's pages (apps/web/src/config/paths.ts, whose test keeps the two
 * lists equal), as React Router writes them: `:name` stands for one segment. The server answers
 * them with the page whatever the request's Accept header (apps/server/src/web/serve-web.ts), so
 * `curl http://localhost:3000/` gets the page as a browser does.
 */
export const PAGE_PATHS = [
  '/',
  '/auth',
  '/reset-password',
  '/not-me',
  '/profile',
  '/profile/devices',
  '/profile/security-log',
  '/wallet/history',
  '/wallet/receipts/:id',
  '/oauth',
  '/account/cancel-deletion',
] as const;

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
