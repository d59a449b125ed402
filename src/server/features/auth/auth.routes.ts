/**
 * Mounts better-auth at /api/auth/* inside Fastify, adding what it does not do our way:
 * the spec's validation and messages, the failed-attempt sign-in limit, and security events.
 */
import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { changePasswordProblem, signInProblem, signUpProblem } from '#shared/credentials.ts';
import { ACCOUNT_MESSAGES } from '#shared/account-messages.ts';
import { MESSAGES } from '#shared/messages.ts';
import { ERROR_TEXT, type ErrorCode } from '#shared/error-text.ts';
import { ID_TOKEN_REFUSED } from '#shared/native-sign-in.ts';
import { appleCodeOf, idTokenProblem } from '#server/features/auth/id-token-body.ts';
import { findControlCharacters, hasControlCharacters, nestedDeeperThan, validateEmail, validateName, VALIDATION_MESSAGES } from '#shared/validation.ts';
import { authHeaders, getViewer, type Auth } from '#server/auth.ts';
import type { Database } from '#server/db/client.ts';
import { account, user } from '#server/db/schema/auth.ts';
import { getEntitlement } from '#server/features/billing/subscriptions.service.ts';
import { AUTH_BASE_PATH, createAuthEndpointMatcher } from '#server/features/auth/auth-endpoints.ts';
import { sessionTransport, withoutTokens } from '#server/features/auth/session-transport.ts';
import type { SignInAttempt, SignInLimiter } from '#server/features/auth/sign-in-limiter.ts';
import type { RateLimitStore } from '#server/features/security/rate-limit-store.ts';
import { AppError, sendAppError } from '#server/errors.ts';
import { authApi } from '#shared/contracts/auth.routes.ts';
import { routeServer } from '#server/serve-route.ts';
import { logSecurityEvent } from '#server/features/security/security-audit.service.ts';
import { keepAppleRefreshToken, type AppleSignIn } from '#server/features/auth/apple-revocations.ts';
import { ipBlockedUntil, monitorNow } from '#server/features/security/security-monitor.ts';

type Deps = { auth: Auth; db: Database; limiter: SignInLimiter; limits: RateLimitStore; publicUrl: string; googleClientId?: string; googleIosClientId?: string; apple?: AppleSignIn };
type Body = Record<string, unknown>;

const M = MESSAGES.auth;
const str = (v: unknown) => (typeof v === 'string' ? v : '');

/** Sign-up attempts per IP, counted before the account-exists check (the spec's default limit: 10 in 15 minutes). */
export const SIGN_UP_PER_IP = 10;
const SIGN_UP_WINDOW_MS = 15 * 60 * 1000;

const SIGN_IN = `${AUTH_BASE_PATH}/sign-in/email`;
const SIGN_UP = `${AUTH_BASE_PATH}/sign-up/email`;
const SOCIAL = `${AUTH_BASE_PATH}/sign-in/social`;
const CHANGE_PASSWORD = `${AUTH_BASE_PATH}/change-password`;

/** Every field better-auth redirects to, in a body or a query (its originCheck reads the same ones). */
const REDIRECT_FIELDS = ['callbackURL', 'redirectTo', 'errorCallbackURL', 'newUserCallbackURL'] as const;
export const REDIRECT_REFUSED = 'Links can only lead to a page of Harbour Mind.';

/**
 * A redirect target is a path on our site or an address inside PUBLIC_URL's origin, nothing else
 * (issue 33): better-auth also trusts the apps' origins, and https://localhost is any page a person's
 * own machine serves, so a reset link could have carried its token there.
 */
function isOwnAddress(value: unknown, publicOrigin: string): boolean {
  if (typeof value !== 'string' || hasControlCharacters(value) || value.includes('\\')) return false;
  if (value.startsWith('/')) {
    const path = value.split(/[?#]/, 1)[0] ?? '';
    if (value.startsWith('//') || /%2f|%5c/i.test(path)) return false;
  } else if (!/^https?:\/\//i.test(value)) {
    return false;
  }
  try {
    const url = new URL(value, publicOrigin);
    return url.origin === publicOrigin && (value.startsWith('/') || (url.username === '' && url.password === ''));
  } catch {
    return false;
  }
}

function redirectProblem(sources: unknown[], publicOrigin: string): string | undefined {
  for (const source of sources) {
    if (typeof source !== 'object' || source === null) continue;
    for (const field of REDIRECT_FIELDS) {
      const value = (source as Body)[field];
      if (value !== undefined && !isOwnAddress(value, publicOrigin)) return REDIRECT_REFUSED;
    }
  }
  return undefined;
}

/** The spec's 'Please wait N seconds' answer, with Retry-After. */
function tooMany(reply: FastifyReply, seconds: number): AppError {
  reply.header('retry-after', String(seconds));
  return new AppError('auth/too-many-requests', M.tooManyAttempts(seconds), 429);
}

/** The spec's wording, and one of our codes, for better-auth's error codes. */
function authErrorMessage(path: string, code: string | undefined, message: string | undefined): { code: ErrorCode; message: string } {
  // Changing a password: the person is signed in, so the wrong password is the current one.
  if (code === 'INVALID_PASSWORD' && path.endsWith('/change-password')) return { code: 'auth/wrong-password', message: ACCOUNT_MESSAGES.wrongCurrentPassword };
  switch (code) {
    case 'INVALID_EMAIL_OR_PASSWORD':
    case 'INVALID_PASSWORD':
    case 'USER_NOT_FOUND':
      return { code: 'auth/wrong-password', message: M.invalidCredentials };
    case 'EMAIL_NOT_VERIFIED':
      return { code: 'auth/email-not-verified', message: M.emailNotVerified };
    case 'USER_ALREADY_EXISTS':
    case 'USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL':
      return { code: 'auth/email-already-in-use', message: M.accountExists };
    case 'PASSWORD_TOO_SHORT':
      return { code: 'auth/weak-password', message: M.passwordTooShort };
    case 'INVALID_EMAIL':
      return { code: 'auth/invalid-email', message: 'Please enter a valid email address' };
    // A provider sign-in that may not open the account of its address (its address unconfirmed on one
    // side or the other, decision 0064): the person signs in with that account's password instead.
    case 'OAUTH_LINK_ERROR':
      return { code: 'auth/email-already-in-use', message: M.accountExists };
    case 'INVALID_TOKEN':
      // On sign-in/social it is an identity token from the apps that failed better-auth's checks.
      if (path === SOCIAL) return { code: 'auth/failed', message: ID_TOKEN_REFUSED };
      return { code: 'auth/invalid-token', message: ERROR_TEXT['auth/invalid-token'] };
    default: {
      const text = message || ERROR_TEXT['auth/failed'];
      if (path.endsWith('/sign-in/email')) return { code: 'auth/failed', message: M.signInFailed(text) };
      if (path.endsWith('/sign-up/email')) return { code: 'auth/failed', message: M.signUpFailed(text) };
      return { code: 'auth/failed', message: text };
    }
  }
}

/** Passwords are only ever hashed: any character may stay in them. */
const PASSWORD_KEYS = ['password', 'newPassword', 'currentPassword'];

/**
 * Refusals for any JSON body before it is re-serialised and forwarded: arrays and deep nesting
 * (JSON.stringify of a body nested 20 000 deep overflows the stack: a 500), and control characters
 * in any field (a NUL reaches PostgreSQL: a 500; others would be stored), with the spec's messages.
 */
function bodyProblem(raw: unknown): string | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  if (Array.isArray(raw) || nestedDeeperThan(raw, 8)) return ERROR_TEXT['validation/invalid-input'];
  const at = findControlCharacters(raw, { skip: PASSWORD_KEYS });
  if (!at) return undefined;
  if (at === 'email' || at === 'newEmail') return VALIDATION_MESSAGES.emailBadChars;
  if (at === 'name') return VALIDATION_MESSAGES.nameBadChars;
  return ERROR_TEXT['validation/invalid-input'];
}

/** Server-side checks with the spec's messages before better-auth sees the request. */
function precheck(path: string, body: Body): string | undefined {
  if (path === SIGN_IN) return signInProblem({ email: str(body.email), password: str(body.password) })?.message;
  if (path === SIGN_UP) return signUpProblem({ name: str(body.name), email: str(body.email), password: str(body.password) })?.message;
  if (path === `${AUTH_BASE_PATH}/request-password-reset` || path === `${AUTH_BASE_PATH}/send-verification-email`) {
    const email = validateEmail(str(body.email));
    if (!email.valid) return email.error;
  }
  if (path === SOCIAL) return idTokenProblem(body);
  if (path === `${AUTH_BASE_PATH}/change-password`) return changePasswordProblem({ currentPassword: str(body.currentPassword), newPassword: str(body.newPassword) });
  if (path === `${AUTH_BASE_PATH}/update-user` && body.name !== undefined) {
    const name = validateName(str(body.name));
    if (!name.valid) return name.error;
  }
  return undefined;
}

export async function authRoutes(app: FastifyInstance, { auth, db, limiter, limits, publicUrl, googleClientId, googleIosClientId, apple }: Deps): Promise<void> {
  const endpointOf = createAuthEndpointMatcher(auth);
  const publicOrigin = new URL(publicUrl).origin;

  await app.register((scope, _options, registered) => {
    // Apple posts its OAuth callback as a form; better-auth parses it itself from the raw text.
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => done(null, body));

    scope.route({
      method: ['GET', 'POST'],
      url: `${AUTH_BASE_PATH}/*`,
      // Documentation only (no body schema, so better-auth receives exactly what was sent).
      schema: {
        tags: ['auth'],
        summary: 'better-auth endpoints',
        description:
          'Forwarded to better-auth when the path is exactly one of its endpoints (sign-in/email, sign-up/email, sign-out, get-session, request-password-reset, reset-password/:token, verify-email, send-verification-email, sign-in/social, callback/:id, update-user, …), after the spec\'s checks and limits. Errors use the app\'s error shape. Native apps send `x-session-transport: bearer` and get the session token in `set-auth-token` instead of a cookie. The apps’ identity-token sign-in (`sign-in/social` with `idToken: { token, nonce }`) may add Apple’s `authorizationCode`: the server exchanges it for the refresh token it revokes when the account is deleted.',
      },
      handler: async (request: FastifyRequest, reply: FastifyReply) => {
        // One path, computed once: what is checked, limited and logged below is what better-auth runs.
        const path = request.canonicalPath;
        if (!endpointOf(path)) throw new AppError('not-found');
        const isJson = typeof request.body === 'object' && request.body !== null;
        const body: Body = isJson ? (request.body as Body) : {};
        const ip = request.ip;
        const email = str(body.email).trim().toLowerCase();

        if (request.method === 'POST') {
          const shape = bodyProblem(request.body);
          if (shape) throw new AppError('validation/invalid-input', shape, 400);
          const problem = precheck(path, body);
          if (problem) throw new AppError('validation/invalid-input', problem, 400);
        }
        const redirect = redirectProblem([body, request.query], publicOrigin);
        if (redirect) throw new AppError('validation/invalid-input', redirect, 400);
        if (path === SIGN_UP) {
          // Counted before the account-exists answer, so that answer cannot be used to test addresses at will.
          const attempts = await limits.hit(`signup:ip:${ip}`, SIGN_UP_WINDOW_MS, ip);
          if (attempts.count > SIGN_UP_PER_IP) {
            await logSecurityEvent({ db, eventType: 'rate_limit_exceeded', severity: 'high', userEmail: email, ipAddress: ip, details: { action: 'sign-up' } });
            throw tooMany(reply, Math.max(1, Math.ceil((attempts.resetAt - Date.now()) / 1000)));
          }
          // The spec tells people plainly that the account exists (better-auth would hide it).
          if (await emailTaken(email)) throw new AppError('auth/email-already-in-use', M.accountExists, 409);
        }
        let attempt: SignInAttempt | undefined;
        if (path === SIGN_IN) {
          attempt = await limiter.begin(email, ip);
          if (!attempt.allowed) {
            await logSecurityEvent({ db, eventType: 'rate_limit_exceeded', severity: 'high', userEmail: email, ipAddress: ip, details: { action: 'sign-in' } });
            throw tooMany(reply, attempt.retryAfterSeconds);
          }
        }
        // Changing a password judges the current one: a guess like any sign-in, on the same counters,
        // refused from a blocked IP like sign-in (ip-block-guard.ts). Without a session better-auth answers 401.
        let account: { id: string; email: string } | undefined;
        if (path === CHANGE_PASSWORD && request.method === 'POST') {
          const viewer = await getViewer(auth, db, request);
          if (viewer) {
            account = { id: viewer.user.id, email: viewer.user.email };
            await refuseBlockedIp(ip, reply);
            attempt = await limiter.begin(account.email, ip);
            if (!attempt.allowed) {
              await logSecurityEvent({ db, eventType: 'rate_limit_exceeded', severity: 'high', userId: account.id, userEmail: account.email, ipAddress: ip, details: { action: 'change-password' } });
              throw tooMany(reply, attempt.retryAfterSeconds);
            }
          }
        }

        const transport = sessionTransport(request, path, [SIGN_IN, SOCIAL]);
        const headers = authHeaders(request);
        const init: RequestInit = { method: request.method, headers };
        if (request.method === 'POST') {
          if (isJson) {
            headers.set('content-type', 'application/json');
            init.body = JSON.stringify(body);
          } else if (typeof request.body === 'string') {
            init.body = request.body;
          }
        }
        const query = request.raw.url?.slice(path.length) ?? '';
        const target = new URL(path + query, publicUrl);
        let response: Response;
        try {
          response = await auth.handler(new Request(target, init));
        } catch (error) {
          await (attempt?.allowed ? attempt.notCounted() : undefined);
          throw error;
        }
        const text = await response.text();

        await afterAuth({ path, status: response.status, text, email, ip, attempt, account, provider: str(body.provider), appleCode: appleCodeOf(body), log: request.log });

        reply.status(response.status);
        response.headers.forEach((value, key) => {
          if (key === 'set-cookie' || key === 'content-length' || key === 'content-encoding') return;
          if (key === 'set-auth-token' && transport === 'cookie') return;
          reply.header(key, value);
        });
        const cookies = response.headers.getSetCookie();
        // A bearer client keeps its session in the device's secure storage; it gets no cookie to leak.
        if (cookies.length && transport === 'cookie') reply.header('set-cookie', cookies);
        reply.header('cache-control', 'no-store');

        const parsed = text.startsWith('{') || text.startsWith('[') ? safeParse(text) : undefined;
        if (response.status >= 400 && text.startsWith('{')) {
          const error = parsed as { code?: string; message?: string } | undefined;
          const mapped = authErrorMessage(path, error?.code, error?.message);
          // better-auth's status stands (401 wrong password, 403 unverified, 400 bad token); the shape and code are ours.
          return sendAppError(reply, new AppError(mapped.code, mapped.message, response.status));
        }
        if (parsed !== undefined) return reply.type('application/json').send(JSON.stringify(withoutTokens(parsed)));
        return reply.send(text);
      },
    });
    registered();
  });

  async function emailTaken(email: string): Promise<boolean> {
    const [row] = await db.select({ id: user.id }).from(user).where(eq(user.email, email)).limit(1);
    return Boolean(row);
  }

  /** The security monitor's block (ip-block-guard.ts), for the password checks it does not cover by path. */
  async function refuseBlockedIp(ip: string, reply: FastifyReply): Promise<void> {
    const until = await ipBlockedUntil({ db, ip });
    if (!until) return;
    const seconds = Math.max(1, Math.ceil((until.getTime() - monitorNow(db)) / 1000));
    reply.header('retry-after', String(seconds));
    throw new AppError('auth/too-many-requests', M.tooManyAttempts(seconds), 429, { blocked: true });
  }

  async function afterAuth({
    path,
    status,
    text,
    email,
    ip,
    attempt,
    account: signedIn,
    provider,
    appleCode,
    log,
  }: {
    path: string;
    status: number;
    text: string;
    email: string;
    ip: string;
    attempt: SignInAttempt | undefined;
    account: { id: string; email: string } | undefined;
    provider: string;
    appleCode: { identityToken: string; code: string } | undefined;
    log: FastifyRequest['log'];
  }) {
    const ok = status < 400;
    if (path === CHANGE_PASSWORD && signedIn && attempt?.allowed) {
      const code = (safeParse(text) as { code?: string } | undefined)?.code;
      if (ok) return attempt.succeeded();
      if (code !== 'INVALID_PASSWORD') return attempt.notCounted();
      const failures = await attempt.failed();
      await logSecurityEvent({
        db,
        eventType: 'failed_login',
        severity: failures > 5 ? 'high' : 'medium',
        userId: signedIn.id,
        userEmail: signedIn.email,
        ipAddress: ip,
        details: { action: 'change-password', attemptsInWindow: failures },
      });
      return;
    }
    if (path === SIGN_IN && attempt?.allowed) {
      if (ok) {
        const userId = (safeParse(text) as { user?: { id?: string } } | undefined)?.user?.id;
        await attempt.succeeded();
        await logSecurityEvent({ db, eventType: 'user_login', severity: 'low', userId, userEmail: email, ipAddress: ip, details: { method: 'email' } });
      } else if (status !== 401) {
        await attempt.notCounted();
      } else {
        const failures = await attempt.failed();
        await logSecurityEvent({
          db,
          eventType: 'failed_login',
          severity: failures > 5 ? 'high' : 'medium',
          userEmail: email,
          ipAddress: ip,
          details: { attemptsInWindow: failures },
        });
      }
    } else if (path === SOCIAL && ok) {
      // An identity-token sign-in from the apps answers with the user (the redirect flow answers with a URL only).
      const signedIn = (safeParse(text) as { user?: { id?: string; email?: string } } | undefined)?.user;
      if (signedIn) await logSecurityEvent({ db, eventType: 'user_login', severity: 'low', userId: signedIn.id, userEmail: signedIn.email, ipAddress: ip, details: { method: provider } });
      // The apps' Sign in with Apple: Apple's refresh token, kept sealed to be revoked at deletion (decision 0064).
      if (signedIn?.id && appleCode && apple) await keepAppleRefreshToken({ db, apple, userId: signedIn.id, ...appleCode, log });
    } else if (path === SIGN_UP && ok) {
      const userId = (safeParse(text) as { user?: { id?: string } } | undefined)?.user?.id;
      await logSecurityEvent({ db, eventType: 'user_signup', severity: 'low', userId, userEmail: email, ipAddress: ip });
    } else if (path === `${AUTH_BASE_PATH}/request-password-reset` && ok) {
      await logSecurityEvent({ db, eventType: 'password_reset_requested', severity: 'medium', userEmail: email, ipAddress: ip });
    }
  }

  const serve = routeServer(app, { auth, db });

  /** Who is asking: user, role and whether they may listen (the server's one entitlement check). */
  serve(authApi.me, async ({ viewer }) => {
    if (!viewer) return { user: null, role: null, subscribed: false };
    const entitlement = await getEntitlement({ db, userId: viewer.user.id, role: viewer.role });
    const u = viewer.user;
    // How the user signs in (diagnostics overlay); provider names only, never tokens.
    const providers = await db.selectDistinct({ providerId: account.providerId }).from(account).where(eq(account.userId, u.id));
    return {
      user: { id: u.id, email: u.email, name: u.name, emailVerified: u.emailVerified, createdAt: u.createdAt.toISOString() },
      role: viewer.role,
      subscribed: entitlement.subscribed,
      session: { expiresAt: viewer.session.expiresAt.toISOString() },
      providers: providers.map((p) => p.providerId).sort(),
    };
  });

  /**
   * Which sign-in providers are configured, so the UI can say 'not available' instead of failing; and
   * Google's web client id, which the Android app's sign-in needs (one setting, the server's).
   */
  serve(authApi.providers, () =>
    Promise.resolve({
      google: 'google' in auth.options.socialProviders,
      apple: 'apple' in auth.options.socialProviders,
      ...(googleClientId ? { googleClientId } : {}),
      ...(googleIosClientId ? { googleIosClientId } : {}),
    }),
  );
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
