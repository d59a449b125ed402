/**
 * What the app adds to better-auth, through better-auth's own extension points (issue 34 item 4):
 * `hooks.before` runs the spec's checks and messages and the credentials limiter before an endpoint
 * judges anything; `hooks.after` settles the limiter's counters and records
 * the security events (and the apps' Apple refresh token) from the endpoint's outcome. The Fastify route
 * (auth.routes.ts) forwards: it refuses paths better-auth is not asked to serve, bodies that cannot be
 * forwarded and links that lead off the site (before better-auth's own origin check, with our words),
 * and puts every answer in the app's shape.
 *
 * The hooks act on HTTP requests only (`ctx.request`): the server's own calls (`auth.api.getSession`
 * on every signed-in route) pass straight through.
 */
import { APIError, createAuthMiddleware, isAPIError } from 'better-auth/api';
import { eq } from 'drizzle-orm';
import { changePasswordProblem, signInProblem, signUpProblem } from '#shared/credentials.ts';
import { MESSAGES } from '#shared/messages.ts';
import type { ErrorCode } from '#shared/error-text.ts';
import { validateEmail, validateName } from '#shared/validation.ts';
import type { Database } from '#server/db/client.ts';
import { user } from '#server/db/schema/auth.ts';
import { CLIENT_IP_HEADER } from '#server/auth.ts';
import { appleCodeOf, idTokenProblem } from '#server/features/auth/id-token-body.ts';
import type { CredentialsLimiter, CredentialsRequest, SignInAttempt } from '#server/features/auth/credentials-limiter.ts';
import { keepAppleRefreshToken, type AppleSignIn } from '#server/features/auth/apple-revocations.ts';
import { logSecurityEvent } from '#server/features/security/security-audit.service.ts';
import { ipBlockedUntil, monitorNow } from '#server/features/security/security-monitor.ts';

type Body = Record<string, unknown>;
type Log = Parameters<typeof keepAppleRefreshToken>[0]['log'];
type SignedIn = { id: string; email: string };

export type AuthHookDeps = {
  db: Database;
  credentials: CredentialsLimiter;
  /** The signed-in account a request's headers carry (better-auth's getSession, bearer tokens included), known once better-auth is made. */
  sessionOf: (headers: Headers) => Promise<{ user: SignedIn } | null>;
  /** Sign in with Apple's token exchange, when configured (known once better-auth is made). */
  apple: () => AppleSignIn | undefined;
  log: Log;
};

const M = MESSAGES.auth;
const str = (v: unknown) => (typeof v === 'string' ? v : '');

// better-auth's paths, as hooks see them (under its basePath).
const SIGN_IN = '/sign-in/email';
const SIGN_UP = '/sign-up/email';
const SOCIAL = '/sign-in/social';
const CHANGE_PASSWORD = '/change-password';
const RESET_MAIL = '/request-password-reset';
const VERIFICATION_MAIL = '/send-verification-email';

/** The endpoints the credentials limiter counts per IP, whatever their outcome. */
const COUNTED_REQUESTS: Partial<Record<string, CredentialsRequest>> = {
  [SIGN_IN]: 'sign-in',
  [SOCIAL]: 'sign-in',
  [SIGN_UP]: 'sign-up',
  [RESET_MAIL]: 'reset-mail',
  [VERIFICATION_MAIL]: 'verification-mail',
};

/** Server-side checks with the spec's messages before better-auth judges the request. */
function precheck(path: string, body: Body): string | undefined {
  if (path === SIGN_IN) return signInProblem({ email: str(body.email), password: str(body.password) })?.message;
  if (path === SIGN_UP) return signUpProblem({ name: str(body.name), email: str(body.email), password: str(body.password) })?.message;
  if (path === RESET_MAIL || path === VERIFICATION_MAIL) {
    const email = validateEmail(str(body.email));
    if (!email.valid) return email.error;
  }
  if (path === SOCIAL) return idTokenProblem(body);
  if (path === CHANGE_PASSWORD) return changePasswordProblem({ currentPassword: str(body.currentPassword), newPassword: str(body.newPassword) });
  if (path === '/update-user' && body.name !== undefined) {
    const name = validateName(str(body.name));
    if (!name.valid) return name.error;
  }
  return undefined;
}

/**
 * A refusal in the app's terms: better-auth answers it with this status, code and message (and
 * headers), and the route keeps our code as it is (auth.routes.ts).
 */
function refusal(code: ErrorCode, message: string, status: 'BAD_REQUEST' | 'CONFLICT' | 'TOO_MANY_REQUESTS', extra: { headers?: Record<string, string>; details?: Record<string, unknown> } = {}): APIError {
  return new APIError(status, { code, message, ...(extra.details ? { details: extra.details } : {}) }, extra.headers);
}

function tooMany(seconds: number, details?: Record<string, unknown>): APIError {
  return refusal('auth/too-many-requests', M.tooManyAttempts(seconds), 'TOO_MANY_REQUESTS', { headers: { 'retry-after': String(seconds) }, details });
}

/** What the before hook learnt about a request, for the after hook to settle. */
type Pending = { path: string; email: string; ip: string; attempt?: SignInAttempt; account?: SignedIn; provider: string; appleCode?: { identityToken: string; code: string } };

export function authHooks({ db, credentials, sessionOf, apple, log }: AuthHookDeps) {
  // Keyed by the request the route handed to better-auth: forgotten with it.
  const pending = new WeakMap<Request, Pending>();

  async function emailTaken(email: string): Promise<boolean> {
    const [row] = await db.select({ id: user.id }).from(user).where(eq(user.email, email)).limit(1);
    return Boolean(row);
  }

  /** The security monitor's block (ip-block-guard.ts), for the password checks it does not cover by path. */
  async function refuseBlockedIp(ip: string): Promise<void> {
    const until = await ipBlockedUntil({ db, ip });
    if (until) throw tooMany(Math.max(1, Math.ceil((until.getTime() - monitorNow(db)) / 1000)), { blocked: true });
  }

  const before = createAuthMiddleware(async (ctx) => {
    const request = ctx.request;
    if (!request) return;
    const path = ctx.path;
    const body: Body = typeof ctx.body === 'object' && ctx.body !== null ? (ctx.body as Body) : {};
    const ip = request.headers.get(CLIENT_IP_HEADER) ?? '';
    const email = str(body.email).trim().toLowerCase();
    const post = request.method === 'POST';

    const problem = post ? precheck(path, body) : undefined;
    if (problem) throw refusal('validation/invalid-input', problem, 'BAD_REQUEST');

    const counted = post ? COUNTED_REQUESTS[path] : undefined;
    if (counted) {
      // Before the account-exists answer below, so that answer cannot be used to test addresses at will.
      const verdict = await credentials.request(counted, ip);
      if (!verdict.allowed) {
        await logSecurityEvent({ db, eventType: 'rate_limit_exceeded', severity: 'high', userEmail: email, ipAddress: ip, details: { action: counted } });
        throw tooMany(verdict.retryAfterSeconds);
      }
    }
    // The spec tells people plainly that the account exists (better-auth would hide it).
    if (path === SIGN_UP && (await emailTaken(email))) throw refusal('auth/email-already-in-use', M.accountExists, 'CONFLICT');

    const state: Pending = { path, email, ip, provider: str(body.provider), appleCode: appleCodeOf(body) };
    if (path === SIGN_IN) {
      const attempt = await credentials.begin(email, ip);
      if (!attempt.allowed) {
        await logSecurityEvent({ db, eventType: 'rate_limit_exceeded', severity: 'high', userEmail: email, ipAddress: ip, details: { action: 'sign-in' } });
        throw tooMany(attempt.retryAfterSeconds);
      }
      state.attempt = attempt;
    }
    // Changing a password judges the current one: a guess like any sign-in, on the same counters,
    // refused from a blocked IP like sign-in (ip-block-guard.ts). Without a session better-auth answers 401.
    if (path === CHANGE_PASSWORD && post) {
      const session = await sessionOf(request.headers);
      if (session) {
        const account = { id: session.user.id, email: session.user.email };
        await refuseBlockedIp(ip);
        const attempt = await credentials.begin(account.email, ip);
        if (!attempt.allowed) {
          await logSecurityEvent({ db, eventType: 'rate_limit_exceeded', severity: 'high', userId: account.id, userEmail: account.email, ipAddress: ip, details: { action: 'change-password' } });
          throw tooMany(attempt.retryAfterSeconds);
        }
        state.attempt = attempt;
        state.account = account;
      }
    }
    pending.set(request, state);
  });

  const after = createAuthMiddleware(async (ctx) => {
    const request = ctx.request;
    const state = request ? pending.get(request) : undefined;
    if (!request || !state) return;
    pending.delete(request);
    const returned: unknown = ctx.context.returned;
    const failure = isAPIError(returned) ? { status: returned.statusCode, code: returned.body?.code } : undefined;
    const answer = failure ? undefined : (returned as { user?: { id?: string; email?: string } } | undefined);
    await settle(state, failure, answer?.user);
  });

  async function settle(state: Pending, failure: { status: number; code?: string } | undefined, answered: { id?: string; email?: string } | undefined): Promise<void> {
    const { path, email, ip, attempt, account, provider, appleCode } = state;
    if (path === CHANGE_PASSWORD && account && attempt?.allowed) {
      if (!failure) return attempt.succeeded();
      if (failure.code !== 'INVALID_PASSWORD') return attempt.notCounted();
      const failures = await attempt.failed();
      await logSecurityEvent({ db, eventType: 'failed_login', severity: failures > 5 ? 'high' : 'medium', userId: account.id, userEmail: account.email, ipAddress: ip, details: { action: 'change-password', attemptsInWindow: failures } });
      return;
    }
    if (path === SIGN_IN && attempt?.allowed) {
      if (!failure) {
        await attempt.succeeded();
        await logSecurityEvent({ db, eventType: 'user_login', severity: 'low', userId: answered?.id, userEmail: email, ipAddress: ip, details: { method: 'email' } });
      } else if (failure.status !== 401) {
        await attempt.notCounted();
      } else {
        const failures = await attempt.failed();
        await logSecurityEvent({ db, eventType: 'failed_login', severity: failures > 5 ? 'high' : 'medium', userEmail: email, ipAddress: ip, details: { attemptsInWindow: failures } });
      }
      return;
    }
    if (failure) return;
    if (path === SOCIAL && answered) {
      // An identity-token sign-in from the apps answers with the user (the redirect flow answers with a URL only).
      await logSecurityEvent({ db, eventType: 'user_login', severity: 'low', userId: answered.id, userEmail: answered.email, ipAddress: ip, details: { method: provider } });
      // The apps' Sign in with Apple: Apple's refresh token, kept sealed to be revoked at deletion (decision 0064).
      const appleSignIn = apple();
      if (answered.id && appleCode && appleSignIn) await keepAppleRefreshToken({ db, apple: appleSignIn, userId: answered.id, ...appleCode, log });
    } else if (path === SIGN_UP) {
      await logSecurityEvent({ db, eventType: 'user_signup', severity: 'low', userId: answered?.id, userEmail: email, ipAddress: ip });
    } else if (path === RESET_MAIL) {
      await logSecurityEvent({ db, eventType: 'password_reset_requested', severity: 'medium', userEmail: email, ipAddress: ip });
    }
  }

  /**
   * For the route, once better-auth has answered: an attempt whose endpoint failed outside its own
   * errors (the after hook never ran) judged nothing, and gives its places back.
   */
  async function release(request: Request): Promise<void> {
    const state = pending.get(request);
    pending.delete(request);
    if (state?.attempt?.allowed) await state.attempt.notCounted();
  }

  return { before, after, release };
}

export type AuthHooks = ReturnType<typeof authHooks>;
