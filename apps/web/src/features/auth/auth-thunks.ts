import type {
  LoginAnswer,
  LoginRequest,
  LoginSuccessAnswer,
  RegisterAnswer,
  RegisterRequest,
  VerifyRegistrationAnswer,
  VerifyRegistrationRequest,
} from '@portal/contracts/auth';
import type { PasskeySignInRequest } from '@portal/contracts/passkeys';
import { createAsyncThunk } from '@reduxjs/toolkit';
import { type ApiFailure, toApiFailure } from '@/shared/api/api-failure';
import { storeAccessToken } from '@/shared/api/token-storage';
import { postLogin } from './api/login';
import { postLogout } from './api/logout';
import { postPasskeySignIn } from './api/passkey-sign-in';
import { postRegister } from './api/register';
import { postVerifyRegistration } from './api/verify-registration';
import { signOutLocally } from './auth-session';
import { writePendingConfirmation } from './pending-confirmation';
import { writeRequiresTwoFactor } from './two-factor-flag';

type Rejects = { rejectValue: ApiFailure };

/**
 * `requiresTwoFactor` keeps the user signed out (the form shows the code field);
 * otherwise the token is stored before the store learns of it, so the next request carries it.
 */
export const loginUser = createAsyncThunk<LoginAnswer, LoginRequest, Rejects>(
  'auth/login',
  async (body, { rejectWithValue }) => {
    try {
      const answer = await postLogin(body);
      if ('token' in answer) {
        storeAccessToken(answer.token);
        // Signed in with a code: this account uses a second factor.
        writeRequiresTwoFactor(body.twoFactorCode !== undefined);
      } else if (!answer.passkeyOptions) {
        writeRequiresTwoFactor(true);
      }
      return answer;
    } catch (error) {
      return rejectWithValue(toApiFailure(error));
    }
  },
);

/**
 * A sign-in by a passkey alone, once the browser answered the challenge (the form runs the
 * dialog): the session, stored like a login's.
 */
export const signInWithPasskey = createAsyncThunk<
  LoginSuccessAnswer,
  PasskeySignInRequest,
  Rejects
>('auth/passkeySignIn', async (body, { rejectWithValue }) => {
  try {
    const answer = await postPasskeySignIn(body);
    storeAccessToken(answer.token);
    writeRequiresTwoFactor(false);
    return answer;
  } catch (error) {
    return rejectWithValue(toApiFailure(error));
  }
});

/** Creates the unconfirmed account and mails its code (the page then opens the code screen). */
export const registerUser = createAsyncThunk<RegisterAnswer, RegisterRequest, Rejects>(
  'auth/register',
  async (body, { rejectWithValue }) => {
    try {
      return await postRegister(body);
    } catch (error) {
      return rejectWithValue(toApiFailure(error));
    }
  },
);

/** Confirming the code answers `userId` and `token`: the new user is signed in. */
export const verifyRegistration = createAsyncThunk<
  VerifyRegistrationAnswer,
  VerifyRegistrationRequest,
  Rejects
>('auth/verifyRegistration', async (body, { rejectWithValue }) => {
  try {
    const answer = await postVerifyRegistration(body);
    storeAccessToken(answer.token);
    writePendingConfirmation(null);
    return answer;
  } catch (error) {
    return rejectWithValue(toApiFailure(error));
  }
});

/**
 * Logout: the server call, then the token is removed and the state reset. The local
 * sign-out happens even when the call fails: the user asked to leave.
 */
export const logoutUser = createAsyncThunk<void, void>('auth/logout', async (_, { dispatch }) => {
  try {
    await postLogout();
  } catch {
    // A dead or missing session is signed out already; a network failure must not keep the user in.
  } finally {
    dispatch(signOutLocally());
  }
});
