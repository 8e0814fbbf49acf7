// What other features may use of the session and the signed-in user (apps/web/README.md says why
// these live in auth). Everything else in this folder is private to it.
export { signedOut } from './auth-actions';
export { setRequiresTwoFactor, signOutLocally } from './auth-session';
export { recheckSession } from './session-watch';
export { useLogout } from './use-logout';
export { fetchCurrentUser, selectUser, userMerged } from './user-slice';
