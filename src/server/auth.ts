/**
 * better-auth over our database: e-mail + password with required verification, password reset
 * that signs out other sessions, Apple and Google when configured, database sessions in
 * HttpOnly SameSite=Lax cookies (Secure over https). Plus the hooks routes use to ask who is asking.
 */
import { betterAuth } from 'better-auth';
import { bearer } from 'better-auth/plugins';
import { isAPIError } from 'better-auth/api';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { fromNodeHeaders } from 'better-auth/node';
import { eq } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Role } from '#shared/roles.ts';
import { allows } from '#shared/policies.ts';
import { MIN_PASSWORD_LENGTH } from '#shared/constants.ts';
import type { Config } from '#server/config.ts';
import { NATIVE_APP_ORIGINS } from '#server/native-cors.ts';
import type { Database } from '#server/db/client.ts';
import { account, session, user, userRoles, verification } from '#server/db/schema/auth.ts';
import { AppError } from '#server/errors.ts';
import { ERROR_TEXT } from '#shared/error-text.ts';
import { brandedMail, type Mailer } from '#server/mail.ts';
import type { AuthHooks } from '#server/features/auth/auth-hooks.ts';

/** Set by the server from Fastify's request.ip; any client-sent copy is dropped first. */
export const CLIENT_IP_HEADER = 'x-hm-client-ip';

type LogFn = (obj: object, msg: string) => void;
/** The app's pino logger; a quiet caller (the CLI) may leave out the levels it never shows. */
type Log = { info: LogFn; error: LogFn; warn?: LogFn; debug?: LogFn };

/** `Authorization: Bearer <something>`: the native apps' session (better-auth's bearer plugin reads the same). */
const BEARER = /^bearer\s+\S/i;

/** Whether the request carries a bearer token; such a request authenticates by that token alone (authHeaders). */
export function hasBearerToken(headers: { authorization?: string | undefined }): boolean {
  return BEARER.test(headers.authorization ?? '');
}

/**
 * The apps' WebView origins are trusted only for requests without cookies, that is bearer requests
 * (authHeaders drops the cookie of a bearer request) and the apps' sign-in: a cookie request from
 * capacitor://localhost or https://localhost (any page on someone's own machine) is cross-site.
 */
function trustedOriginsFor(request: Request | undefined): string[] {
  return request && !request.headers.has('cookie') ? [...NATIVE_APP_ORIGINS] : [];
}

/**
 * better-auth's log lines through the app's pino logger: its own logger writes raw text, so a
 * callbackURL holding CR LF wrote a whole forged line (issue 33). pino writes JSON with every string
 * escaped. Only the message and an error's name and message go out: other arguments may hold rows.
 */
function betterAuthLog(log: Log) {
  return (level: 'debug' | 'info' | 'warn' | 'error', message: string, ...args: unknown[]) => {
    const err = args.find((a): a is Error => a instanceof Error);
    const write = log[level] ?? (level === 'warn' ? log.error : log.info);
    write.call(log, { source: 'better-auth', ...(err ? { err: { name: err.name, message: err.message } } : {}) }, message);
  };
}

export type AuthDeps = {
  config: Config;
  db: Database;
  mailer: Mailer;
  secret: string;
  log: Log;
  onMailFailure?: (kind: 'verification' | 'reset', email: string) => void;
  /** The app's checks, limits and security events around the endpoints (auth-hooks.ts); the CLI serves no requests and has none. */
  hooks?: Pick<AuthHooks, 'before' | 'after'>;
};

export function createAuth({ config, db, mailer, secret, log, onMailFailure, hooks }: AuthDeps) {
  const https = config.publicUrl.startsWith('https://');
  const socialProviders: Record<string, unknown> = {};
  // Identity-token sign-in from the apps (docs/decisions/0035): better-auth checks the token's signature
  // against the provider's published keys, its issuer, expiry and audience, and the nonce the app sent.
  // Google: the web client id first (the redirect flow's), then the apps' ids, all accepted as audience.
  if (config.oauth.google) socialProviders.google = { clientId: config.oauth.google.clientIds, clientSecret: config.oauth.google.clientSecret, prompt: 'select_account' };
  // Apple: a native token is made for the app's bundle id, never for the web's Services ID (the web
  // redirect flow gets its token from Apple's token endpoint and does not use this check).
  if (config.oauth.apple) socialProviders.apple = { ...config.oauth.apple, audience: [config.oauth.apple.appBundleIdentifier ?? config.appLinks.appId] };

  /** A mail failure (SMTP down) must not lose the sign-up: the row stays and the user can ask for a resend. */
  const sendSafely = async (kind: 'verification' | 'reset', to: string, build: () => ReturnType<typeof brandedMail>) => {
    try {
      await mailer.send(build());
    } catch (error) {
      log.error({ err: { message: (error as Error).message }, kind }, 'mail delivery failed');
      onMailFailure?.(kind, to);
    }
  };

  return betterAuth({
    appName: 'Harbour Mind',
    baseURL: config.publicUrl,
    basePath: '/api/auth',
    secret,
    database: drizzleAdapter(db, { provider: 'pg', schema: { user, session, account, verification } }),
    // The native apps sign in from their WebViews' origins, with bearer tokens (native-cors.ts);
    // PUBLIC_URL's origin is always trusted (baseURL). Redirect targets are checked in auth.routes.ts.
    trustedOrigins: trustedOriginsFor,
    emailAndPassword: {
      enabled: true,
      requireEmailVerification: true,
      minPasswordLength: MIN_PASSWORD_LENGTH,
      maxPasswordLength: 128,
      autoSignIn: false,
      revokeSessionsOnPasswordReset: true,
      resetPasswordTokenExpiresIn: 60 * 60,
      sendResetPassword: async ({ user: u, url }) => {
        await sendSafely('reset', u.email, () =>
          brandedMail({
            to: u.email,
            subject: 'Reset your Harbour Mind password',
            greeting: `Hello ${u.name},`,
            body: ['We received a request to reset the password for your Harbour Mind account.', 'The link below works for one hour. Setting a new password signs you out everywhere else.'],
            action: { label: 'Choose a new password', url },
            footer: 'If you did not ask for this, you can ignore this e-mail: your password has not changed.',
          }),
        );
      },
    },
    emailVerification: {
      sendOnSignUp: true,
      sendOnSignIn: false,
      // The link signs the person in once, on first use (a used link only confirms again): they came
      // to start a trial or a practice, not to type their password twice. docs/decisions/0022.
      autoSignInAfterVerification: true,
      expiresIn: 60 * 60 * 24,
      sendVerificationEmail: async ({ user: u, url }) => {
        await sendSafely('verification', u.email, () =>
          brandedMail({
            to: u.email,
            subject: 'Confirm your e-mail for Harbour Mind',
            greeting: `Welcome to Harbour Mind, ${u.name}.`,
            body: ['Please confirm your e-mail address to finish creating your account. The link signs you in and works once, for 24 hours.'],
            action: { label: 'Confirm my e-mail', url },
            footer: 'If you did not create an account, you can ignore this e-mail.',
          }),
        );
      },
    },
    socialProviders,
    account: {
      // Provider tokens (the web's Apple refresh token above all: it is kept to be revoked at deletion,
      // decision 0064) are stored sealed with the auth secret, never as they came.
      encryptOAuthTokens: true,
      // Sign-in that follows a person (decision 0064): a provider sign-in joins the account of the same
      // address only when the provider vouches for the address and the account's own address is
      // confirmed. Written out so a change of better-auth's defaults cannot loosen it.
      accountLinking: { enabled: true, trustedProviders: [], requireLocalEmailVerified: true, allowDifferentEmails: false },
    },
    // Native shells send the session as 'Authorization: Bearer <token>' (spec: bearer session).
    plugins: [bearer()],
    ...(hooks ? { hooks: { before: hooks.before, after: hooks.after } } : {}),
    session: {
      expiresIn: 60 * 60 * 24 * 30,
      updateAge: 60 * 60 * 24,
    },
    // Off: the credentials limiter (credentials-limiter.ts) holds every limit on sign-in, sign-up and the
    // mails, in the app's store and error shape, and the global brake (global-rate-limit.ts) every other
    // request's. better-auth's own would be a third, with its own table and its own 429 (issue 34 item 4).
    rateLimit: { enabled: false },
    advanced: {
      // better-auth turns its Origin and callback checks off when NODE_ENV=test: tests must run what production runs.
      disableOriginCheck: false,
      useSecureCookies: https,
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
      defaultCookieAttributes: { httpOnly: true, sameSite: 'lax', secure: https },
    },
    // What its router catches (its origin check's refusals, the hooks' refusals, a failure) through the
    // app's logger: its default writes them as raw text, and a refused request as an error.
    onAPIError: {
      onError: (error) => {
        if (isAPIError(error) && error.statusCode < 500) {
          log.debug?.({ source: 'better-auth', status: error.statusCode }, error.message);
          return;
        }
        const err = error instanceof Error ? { name: error.name, message: error.message } : { message: String(error) };
        log.error({ source: 'better-auth', err }, 'better-auth request failed');
      },
    },
    telemetry: { enabled: false },
    logger: { level: 'warn', log: betterAuthLog(log) },
  });
}

export type Auth = ReturnType<typeof createAuth>;

export type Viewer = {
  user: { id: string; email: string; name: string; emailVerified: boolean; createdAt: Date; image: string | null };
  session: { id: string; expiresAt: Date };
  role: Role;
};

/**
 * Headers for better-auth built from a Fastify request, with the trusted client IP. A request with a
 * bearer token is authenticated by that token only: its cookie is dropped, so a wrong or revoked
 * token never falls back to the browser's session (the CSRF guard relies on this, csrf-guard.ts).
 */
export function authHeaders(request: FastifyRequest): Headers {
  const headers = fromNodeHeaders(request.headers);
  if (hasBearerToken(request.headers)) headers.delete('cookie');
  headers.delete(CLIENT_IP_HEADER);
  headers.set(CLIENT_IP_HEADER, request.ip);
  return headers;
}

async function roleOf(db: Database, userId: string): Promise<Role> {
  const rows = await db.select({ role: userRoles.role }).from(userRoles).where(eq(userRoles.userId, userId));
  return rows.at(0)?.role ?? 'user';
}

/** The signed-in viewer, or undefined. */
export async function getViewer(auth: Auth, db: Database, request: FastifyRequest): Promise<Viewer | undefined> {
  const result = await auth.api.getSession({ headers: authHeaders(request) });
  if (!result) return undefined;
  const u = result.user;
  return {
    user: { id: u.id, email: u.email, name: u.name, emailVerified: u.emailVerified, createdAt: u.createdAt, image: u.image ?? null },
    session: { id: result.session.id, expiresAt: result.session.expiresAt },
    role: await roleOf(db, u.id),
  };
}

declare module 'fastify' {
  interface FastifyRequest {
    viewer?: Viewer;
  }
}

/** The viewer the route's onRequest hook (requireUser / requirePolicy) has set; 401 if a route forgot the hook. */
export function viewerOf(request: FastifyRequest): Viewer {
  if (!request.viewer) throw new AppError('auth/unauthenticated', 'User not authenticated', 401);
  return request.viewer;
}

/** onRequest hook: 401 unless signed in; sets request.viewer. */
export function requireUser(auth: Auth, db: Database) {
  return async (request: FastifyRequest, _reply: FastifyReply) => {
    const viewer = await getViewer(auth, db, request);
    if (!viewer) throw new AppError('auth/unauthenticated', 'User not authenticated', 401);
    request.viewer = viewer;
  };
}

/** onRequest hook for routes that also answer visitors: sets request.viewer when signed in. */
export function optionalUser(auth: Auth, db: Database) {
  return async (request: FastifyRequest, _reply: FastifyReply) => {
    request.viewer = await getViewer(auth, db, request);
  };
}

/** onRequest hook: 401 for a visitor, 403 unless the policy (src/shared/policies.ts) lets the viewer in. */
export function requirePolicy(auth: Auth, db: Database, policy: 'staff' | 'admin') {
  const needUser = requireUser(auth, db);
  return async (request: FastifyRequest, reply: FastifyReply) => {
    try {
      await needUser(request, reply);
    } catch (error) {
      if (error instanceof AppError) throw error;
      // The session or role could not be read (the database is failing): say so, never a bare 500.
      request.log.error({ err: error }, 'role check failed');
      throw new AppError('admin/check-failed', ERROR_TEXT['admin/check-failed']);
    }
    if (!allows(policy, viewerOf(request))) throw new AppError('auth/forbidden', 'Access denied. Admin privileges required.', 403);
  };
}
