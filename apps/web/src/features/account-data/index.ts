// What the profile embeds of «Мои данные и аккаунт»; the cancel page is a route of its own
// (app/router.tsx). Everything else in this folder is private.
export { AccountDataSection } from './account-data-section';
