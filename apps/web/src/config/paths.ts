import { PAGES } from '@portal/contracts/page-paths';

/** A page without parameters: its address is its route. */
const page = <Path extends string>(path: Path) => ({ path, getHref: () => path });

/**
 * Every route of the web app in one place, from the one list of pages the server knows too
 * (packages/contracts/src/page-paths.ts). Links and redirects use these, never string literals,
 * so renaming a route is one edit.
 */
export const paths = {
  home: page(PAGES.home),
  auth: page(PAGES.auth),
  resetPassword: page(PAGES.resetPassword),
  notMe: page(PAGES.notMe),
  profile: page(PAGES.profile),
  devices: page(PAGES.devices),
  securityLog: page(PAGES.securityLog),
  walletHistory: page(PAGES.walletHistory),
  walletReceipt: {
    path: PAGES.walletReceipt,
    getHref: (id: string) => `/wallet/receipts/${encodeURIComponent(id)}`,
  },
  oauth: page(PAGES.oauth),
  cancelDeletion: page(PAGES.cancelDeletion),
  notFound: { path: '*', getHref: () => '/404' },
} as const;
