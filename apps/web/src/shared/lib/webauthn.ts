import type {
  PasskeyAssertion,
  PasskeyCreationOptions,
  PasskeyRegistrationResponse,
  PasskeyRequestOptions,
} from '@portal/contracts/passkeys';
import { loadOnce } from './load-once';

// The browser's passkey dialogs through @simplewebauthn/browser, loaded with the first use: /auth
// stays within its first-visit script budget (apps/web/e2e/budgets-auth-bundle.e2e.ts). A failed
// load (no connection) is tried again by the next use.
const library = loadOnce(() => import('@simplewebauthn/browser'));

/** Can this browser use passkeys at all (WebAuthn)? Answered without loading the library. */
export function isWebAuthnAvailable(): boolean {
  return typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function';
}

/**
 * Does the browser offer passkeys in the login field's autofill (conditional mediation)? The
 * library is loaded only when the browser has the native hook.
 */
export async function isAutofillAvailable(): Promise<boolean> {
  const credential = isWebAuthnAvailable()
    ? (window.PublicKeyCredential as { isConditionalMediationAvailable?: unknown })
    : undefined;
  if (typeof credential?.isConditionalMediationAvailable !== 'function') return false;
  return (await library()).browserSupportsWebAuthnAutofill();
}

/** The browser's dialog that makes a new passkey for these options. */
export async function createPasskey(
  options: PasskeyCreationOptions,
): Promise<PasskeyRegistrationResponse> {
  const { startRegistration } = await library();
  return (await startRegistration({
    optionsJSON: options as Parameters<typeof startRegistration>[0]['optionsJSON'],
  })) as PasskeyRegistrationResponse;
}

/**
 * The browser's dialog that signs these options with a passkey; with `useBrowserAutofill`, the
 * login field's autofill offers the passkeys instead, and this waits until one is chosen.
 */
export async function signWithPasskey(
  options: PasskeyRequestOptions,
  useBrowserAutofill = false,
): Promise<PasskeyAssertion> {
  const { startAuthentication } = await library();
  return (await startAuthentication({
    optionsJSON: options as Parameters<typeof startAuthentication>[0]['optionsJSON'],
    useBrowserAutofill,
  })) as PasskeyAssertion;
}

/**
 * The person closed the browser's dialog, or another ceremony replaced this one: nothing to
 * report.
 */
export function isPasskeyCancelled(error: unknown): boolean {
  const { name, code } = (error ?? {}) as { name?: string; code?: string };
  return (
    name === 'NotAllowedError' ||
    name === 'AbortError' ||
    code === 'ERROR_CEREMONY_ABORTED' ||
    code === 'ERROR_PASSTHROUGH_SEE_CAUSE_PROPERTY'
  );
}
