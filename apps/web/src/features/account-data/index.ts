// What the profile embeds of «Мои данные и аккаунт», and the notice the signed-in frame runs after
// a sign-in that cancelled a deletion. The cancel page is a route of its own (app/router.tsx).
// Everything else in this folder is private.
export { AccountDataSection } from './account-data-section';
export { useDeletionNotice } from './use-deletion-notice';
