/**
 * Auth API contracts: who is asking (/api/me) and which sign-in providers exist. Sign-in, sign-up,
 * sessions and password resets are better-auth's own endpoints under /api/auth/* (forwarded as they
 * are, with the spec's checks in front; see docs/security.md).
 */
import { z } from 'zod';
import { ROLE_OPTIONS } from '#shared/roles.ts';
import type { SchemaTable } from '#shared/contracts/route.ts';

/** What GET /api/me answers: the signed-in user and role, or nulls. */
export const meResponse = z.object({
  user: z.object({ id: z.string(), email: z.string(), name: z.string(), emailVerified: z.boolean(), createdAt: z.string() }).nullable(),
  role: z.enum(ROLE_OPTIONS).nullable(),
  subscribed: z.boolean(),
  session: z.object({ expiresAt: z.string() }).optional(),
  /** Sign-in methods linked to the account ('credential', 'google', 'apple'). */
  providers: z.array(z.string()).optional(),
});
export type MeResponse = z.infer<typeof meResponse>;

export const authProvidersResponse = z.object({
  google: z.boolean(),
  apple: z.boolean(),
  /** Google's web client id (public: it is in every Google sign-in URL). The Android app signs in for it (docs/decisions/0035). */
  googleClientId: z.string().optional(),
  /** The iOS app's Google client id, when configured: the iOS app signs in with Google on the device for it (decision 0064). */
  googleIosClientId: z.string().optional(),
});
export type AuthProviders = z.infer<typeof authProvidersResponse>;

/** The auth routes' contracts, by route name (their method, path and policy: auth.routes.ts). */
export const authSchemas = {} satisfies SchemaTable;
