import { createAction } from '@reduxjs/toolkit';

// Plain actions both slices react to. They live apart from the slices so that thunks and the user
// slice can dispatch them without importing a slice (no import cycles).

/** A token is in storage now (a login, a confirmed registration, or a Yandex ID sign-in). */
export const tokenSet = createAction<string>('auth/tokenSet');

/**
 * The token is gone from storage (logout, or the server refused it); every auth field resets.
 * Other features reset their state on sign-out by listening to this action.
 */
export const signedOut = createAction('auth/signedOut');

/**
 * The server refused the stored session (it ended elsewhere: another device, a password reset):
 * after the sign-out, /auth says why until the next sign-in.
 */
export const sessionEndNoticed = createAction('auth/sessionEndNoticed');

/** The account's second factor was switched on or off (by the authenticator settings). */
export const requiresTwoFactorChanged = createAction<boolean>('auth/requiresTwoFactorChanged');
