/**
 * Auth API contracts: who is asking (/api/me) and which sign-in providers exist. Sign-in, sign-up,
 * sessions and password resets are better-auth's own endpoints under /api/auth/* (forwarded as they
 * are, with the spec's checks in front; see docs/security.md).
 */
import { z } from 'zod';
import { APPLE_IN_BROWSER_MESSAGES, APPLE_RETURN_CODE, PKCE_VERIFIER } from '#shared/native-sign-in.ts';
import { ROLE_OPTIONS } from '#shared/roles.ts';
import type { SchemaTable } from '#shared/contracts/route.ts';

/** What GET /api/me answers: the signed-in user and role, or nulls. */
const meResponse = z.object({
  user: z.object({ id: z.string(), email: z.string(), name: z.string(), emailVerified: z.boolean(), createdAt: z.string() }).nullable(),
  role: z.enum(ROLE_OPTIONS).nullable(),
  subscribed: z.boolean(),
  session: z.object({ expiresAt: z.string() }).optional(),
  /** Sign-in methods linked to the account ('credential', 'google', 'apple'). */
  providers: z.array(z.string()).optional(),
});
export type MeResponse = z.infer<typeof meResponse>;

const authProvidersResponse = z.object({
  google: z.boolean(),
  apple: z.boolean(),
  /** Google's web client id (public: it is in every Google sign-in URL). The Android app signs in for it (docs/decisions/0035). */
  googleClientId: z.string().optional(),
  /** The iOS app's Google client id, when configured: the iOS app signs in with Google on the device for it (decision 0064). */
  googleIosClientId: z.string().optional(),
});

/*
 * better-auth's own endpoints the web calls (served by better-auth behind auth.routes.ts, never by
 * serve()): the body the web sends, and what better-auth answers once every `token` field has been
 * taken out (session-transport.ts). Loose objects: better-auth adds fields of its own (image, dates,
 * ip address, …) and may add more in an upgrade; the fields the web reads are typed.
 */

/** better-auth's user as its answers carry it. */
const authUser = z.looseObject({ id: z.string(), email: z.string(), name: z.string(), emailVerified: z.boolean() });
/** One session as list-sessions and get-session answer (never its token). */
const authSession = z.looseObject({ id: z.string(), createdAt: z.string(), updatedAt: z.string(), expiresAt: z.string(), userAgent: z.string().nullish() });
/** `{ status: true }`: done (a reset's request also says, in better-auth's words, to check the mail). */
const authStatus = z.looseObject({ status: z.boolean() });
/** A path on this site (the server refuses any other redirect target). */
const sitePath = z.string();

const signInEmailBody = z.object({ email: z.string(), password: z.string() });
const signInEmailResponse = z.looseObject({ redirect: z.boolean(), user: authUser });

/** The e-mail's link signs the person in and continues to the callback (their intent, e.g. a trial). */
const signUpEmailBody = z.object({ name: z.string(), email: z.string(), password: z.string(), callbackURL: sitePath });
/** Not signed in yet: the address must be confirmed first. */
const signUpEmailResponse = z.looseObject({ user: authUser });

/** Nothing to say: the web signs out of this device. */
const signOutBody = z.object({});
const signOutResponse = z.looseObject({ success: z.boolean() });

const requestPasswordResetBody = z.object({ email: z.string(), redirectTo: sitePath });
const resetPasswordBody = z.object({ token: z.string(), newPassword: z.string() });
const sendVerificationEmailBody = z.object({ email: z.string(), callbackURL: sitePath });

/**
 * Sign in with Apple or Google. The web's redirect flow names where to come back (`callbackURL`) and is
 * answered with the provider's page; the apps' identity-token flow (`idToken`, decision 0035) with the user.
 */
const signInSocialBody = z.object({
  provider: z.enum(['apple', 'google']),
  callbackURL: sitePath.optional(),
  idToken: z
    .object({
      token: z.string(),
      nonce: z.string(),
      user: z.object({ name: z.object({ firstName: z.string().optional(), lastName: z.string().optional() }).optional(), email: z.string().optional() }).optional(),
      /** Apple's one-time code, exchanged for the refresh token revoked at account deletion (decision 0064). */
      authorizationCode: z.string().optional(),
    })
    .optional(),
});
const signInSocialResponse = z.discriminatedUnion('redirect', [z.looseObject({ redirect: z.literal(true), url: z.string() }), z.looseObject({ redirect: z.literal(false), user: authUser })]);

const updateUserBody = z.object({ name: z.string() });
const changePasswordBody = z.object({ currentPassword: z.string(), newPassword: z.string(), revokeOtherSessions: z.boolean() });
const changePasswordResponse = z.looseObject({ user: authUser });

const listSessionsResponse = z.array(authSession);
/** The session and its user, or null for a visitor. */
const getSessionResponse = z.looseObject({ session: authSession, user: authUser }).nullable();
const revokeOtherSessionsBody = z.object({});

/**
 * Sign in with Apple on Android (decision 0071): the one-time code the return link brought to the app
 * and the proof key its sign-in started with. Answered with the user; the session comes in
 * `set-auth-token` (the app asks for bearer transport), never as a cookie.
 */
const expired = APPLE_IN_BROWSER_MESSAGES.expired;
const appleRedeemBody = z.strictObject({
  code: z.string(expired).regex(APPLE_RETURN_CODE, expired),
  verifier: z.string(expired).regex(PKCE_VERIFIER, expired),
}, expired);
const appleRedeemResponse = z.object({ user: z.object({ id: z.string(), email: z.string(), name: z.string() }) });

/** The auth routes' contracts, by route name (their method, path and policy: auth.routes.ts). */
export const authSchemas = {
  me: { response: meResponse },
  providers: { response: authProvidersResponse },
  signInEmail: { body: signInEmailBody, response: signInEmailResponse },
  signUpEmail: { body: signUpEmailBody, response: signUpEmailResponse },
  signOut: { body: signOutBody, response: signOutResponse },
  requestPasswordReset: { body: requestPasswordResetBody, response: authStatus },
  resetPassword: { body: resetPasswordBody, response: authStatus },
  sendVerificationEmail: { body: sendVerificationEmailBody, response: authStatus },
  signInSocial: { body: signInSocialBody, response: signInSocialResponse },
  updateUser: { body: updateUserBody, response: authStatus },
  changePassword: { body: changePasswordBody, response: changePasswordResponse },
  listSessions: { response: listSessionsResponse },
  getSession: { response: getSessionResponse },
  revokeOtherSessions: { body: revokeOtherSessionsBody, response: authStatus },
  appleRedeem: { body: appleRedeemBody, response: appleRedeemResponse },
} satisfies SchemaTable;
