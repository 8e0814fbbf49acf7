import { z } from 'zod';
import { isCleanName, messageAnswerSchema, timestampSchema } from './common';
import { PASSKEY_MESSAGES, PASSKEY_NAME_MAX_LENGTH } from './passkey-messages';

/**
 * Passkeys (WebAuthn) of the account: the calls under `/authms/api/Auth/passkeys`
 * (apps/server/src/modules/passkeys). The options the server answers and the browser's answers
 * are WebAuthn's JSON shapes (base64url strings), as `@simplewebauthn/browser` reads and writes
 * them.
 */

// The texts live apart from the schemas, so a screen can show them without loading zod.
export { PASSKEY_MESSAGES, PASSKEY_NAME_MAX_LENGTH } from './passkey-messages';
/**
 * A passkey's name, as people's names: the support desk shows it too, so no character may
 * rearrange or hide what is shown around it (`isCleanName`).
 */
export const passkeyNameSchema = z
  .string({ error: PASSKEY_MESSAGES.nameRequired })
  .trim()
  .min(1, { error: PASSKEY_MESSAGES.nameRequired, abort: true })
  .refine(isCleanName, PASSKEY_MESSAGES.nameForbiddenCharacters)
  .max(PASSKEY_NAME_MAX_LENGTH, PASSKEY_MESSAGES.nameTooLong);

// Bounds only keep hostile bodies small; the library checks the contents.
const base64url = (max: number) =>
  z
    .string()
    .max(max)
    .regex(/^[A-Za-z0-9_-]*$/);
const transportSchema = z.enum(['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb']);
const extensionResultsSchema = z.record(z.string(), z.unknown());

/** What both of the browser's answers carry about the credential (PublicKeyCredential's JSON). */
const publicKeyCredentialFields = {
  id: base64url(1400),
  rawId: base64url(1400),
  type: z.literal('public-key'),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults: extensionResultsSchema,
};

/** The browser's answer to `navigator.credentials.create` (RegistrationResponseJSON). */
export const passkeyRegistrationResponseSchema = z.object({
  ...publicKeyCredentialFields,
  response: z.object({
    clientDataJSON: base64url(8000),
    attestationObject: base64url(32000),
    authenticatorData: base64url(8000).optional(),
    transports: z.array(transportSchema).max(10).optional(),
    publicKeyAlgorithm: z.number().int().optional(),
    publicKey: base64url(8000).optional(),
  }),
});
export type PasskeyRegistrationResponse = z.infer<typeof passkeyRegistrationResponseSchema>;

/** The browser's answer to `navigator.credentials.get` (AuthenticationResponseJSON). */
export const passkeyAssertionSchema = z.object({
  ...publicKeyCredentialFields,
  response: z.object({
    clientDataJSON: base64url(8000),
    authenticatorData: base64url(8000),
    // ML-DSA signatures (offered first when the server's Node has post-quantum support) are
    // 2420–4627 bytes, 3227–6170 characters here; ECDSA and RSA ones far fewer.
    signature: base64url(8000),
    userHandle: base64url(200).optional(),
  }),
});
export type PasskeyAssertion = z.infer<typeof passkeyAssertionSchema>;

// Typed as loosely as WebAuthn's own JSON types, so the library's options pass as they are.
const credentialDescriptorSchema = z.object({
  id: z.string(),
  type: z.string(),
  transports: z.array(z.string()).optional(),
});

/** PublicKeyCredentialCreationOptionsJSON, as the server makes it. */
export const passkeyCreationOptionsSchema = z.object({
  rp: z.object({ name: z.string(), id: z.string().optional() }),
  user: z.object({ id: z.string(), name: z.string(), displayName: z.string() }),
  challenge: z.string(),
  pubKeyCredParams: z.array(z.object({ alg: z.number(), type: z.string() })),
  timeout: z.number().optional(),
  excludeCredentials: z.array(credentialDescriptorSchema).optional(),
  authenticatorSelection: z
    .object({
      authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
      residentKey: z.enum(['discouraged', 'preferred', 'required']).optional(),
      requireResidentKey: z.boolean().optional(),
      userVerification: z.enum(['discouraged', 'preferred', 'required']).optional(),
    })
    .optional(),
  hints: z.array(z.enum(['hybrid', 'security-key', 'client-device'])).optional(),
  attestation: z.enum(['direct', 'enterprise', 'indirect', 'none']).optional(),
  extensions: z.record(z.string(), z.unknown()).optional(),
});
export type PasskeyCreationOptions = z.infer<typeof passkeyCreationOptionsSchema>;

/** PublicKeyCredentialRequestOptionsJSON, as the server makes it. */
export const passkeyRequestOptionsSchema = z.object({
  challenge: z.string(),
  timeout: z.number().optional(),
  rpId: z.string().optional(),
  allowCredentials: z.array(credentialDescriptorSchema).optional(),
  userVerification: z.enum(['discouraged', 'preferred', 'required']).optional(),
  hints: z.array(z.enum(['hybrid', 'security-key', 'client-device'])).optional(),
  extensions: z.record(z.string(), z.unknown()).optional(),
});
export type PasskeyRequestOptions = z.infer<typeof passkeyRequestOptionsSchema>;

// ---------------------------------------------------------------- calls

/** One passkey as the profile lists it; its key never leaves the server. */
export const passkeySchema = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: timestampSchema,
  lastUsedAt: timestampSchema.nullable(),
});
export type Passkey = z.infer<typeof passkeySchema>;

export const passkeyListAnswerSchema = z.object({ data: z.array(passkeySchema) });
export type PasskeyListAnswer = z.infer<typeof passkeyListAnswerSchema>;

export const passkeyCreationOptionsAnswerSchema = z.object({
  options: passkeyCreationOptionsSchema,
});
export const passkeyRequestOptionsAnswerSchema = z.object({ options: passkeyRequestOptionsSchema });

export const passkeyRegisterRequestSchema = z.object({
  name: passkeyNameSchema,
  response: passkeyRegistrationResponseSchema,
});
export type PasskeyRegisterRequest = z.infer<typeof passkeyRegisterRequestSchema>;
export const passkeyRegisterAnswerSchema = messageAnswerSchema.extend({ passkey: passkeySchema });

export const passkeyRenameRequestSchema = z.object({ name: passkeyNameSchema });
export type PasskeyRenameRequest = z.infer<typeof passkeyRenameRequestSchema>;

/** The add and rename dialogs' field. */
export const passkeyNameFormSchema = passkeyRenameRequestSchema;
export type PasskeyNameForm = z.infer<typeof passkeyNameFormSchema>;

export const passkeyParamsSchema = z.object({ id: z.string().max(64) });

export const passkeySignInRequestSchema = z.object({
  response: passkeyAssertionSchema,
  rememberMe: z.boolean().optional(),
});
export type PasskeySignInRequest = z.infer<typeof passkeySignInRequestSchema>;
export const passkeySignInAnswerSchema = z.object({ token: z.string(), userId: z.string() });
