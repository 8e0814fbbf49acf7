/**
 * Every route of the web app in one place. Links and redirects use these, never string
 * literals, so renaming a route is one edit.
 */
export const paths = {
  home: { path: '/', getHref: () => '/' },
  auth: { path: '/auth', getHref: () => '/auth' },
  resetPassword: { path: '/reset-password', getHref: () => '/reset-password' },
  notMe: { path: '/not-me', getHref: () => '/not-me' },
  profile: { path: '/profile', getHref: () => '/profile' },
  devices: { path: '/profile/devices', getHref: () => '/profile/devices' },
  securityLog: { path: '/profile/security-log', getHref: () => '/profile/security-log' },
  walletHistory: { path: '/wallet/history', getHref: () => '/wallet/history' },
  walletReceipt: {
    path: '/wallet/receipts/:id',
    getHref: (id: string) => `/wallet/receipts/${encodeURIComponent(id)}`,
  },
  oauth: { path: '/oauth', getHref: () => '/oauth' },
  /** Opened from the deletion letter; the server builds the same address (account-data/letters.ts). */
  cancelDeletion: { path: '/account/cancel-deletion', getHref: () => '/account/cancel-deletion' },
  notFound: { path: '*', getHref: () => '/404' },
} as const;
