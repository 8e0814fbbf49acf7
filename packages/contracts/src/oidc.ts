import { z } from 'zod';

/**
 * The sign-in to a brand's site through the portal's OpenID provider: `/auth?interaction=<id>`
 * finishes the site's authorization with the portal's session, and the browser follows `url`
 * back into it (apps/server/src/modules/oidc).
 */
export const interactionIdSchema = z.string().regex(/^[\w-]{10,64}$/);

export const interactionParamsSchema = z.object({ uid: interactionIdSchema });

export const interactionSignInAnswerSchema = z.object({ url: z.string() });
export type InteractionSignInAnswer = z.infer<typeof interactionSignInAnswerSchema>;
