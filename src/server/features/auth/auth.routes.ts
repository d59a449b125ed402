/**
 * Mounts better-auth at /api/auth/* inside Fastify: forwards exactly the endpoints the apps use
 * (auth-endpoints.ts), bodies that can be forwarded, and each session by the transport its client
 * uses; puts every answer in the app's error shape with the spec's words. The spec's checks, the
 * credentials limiter and the security events run in better-auth's own hooks (auth-hooks.ts).
 */
import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ACCOUNT_MESSAGES } from '#shared/account-messages.ts';
import { MESSAGES } from '#shared/messages.ts';
import { ERROR_TEXT, type ErrorCode } from '#shared/error-text.ts';
import { ID_TOKEN_REFUSED } from '#shared/native-sign-in.ts';
import { findControlCharacters, hasControlCharacters, nestedDeeperThan, VALIDATION_MESSAGES } from '#shared/validation.ts';
import { authHeaders, type Auth } from '#server/auth.ts';
import type { Database } from '#server/db/client.ts';
import { account } from '#server/db/schema/auth.ts';
import { getEntitlement } from '#server/features/billing/subscriptions.service.ts';
import { AUTH_BASE_PATH, createAuthEndpointMatcher } from '#server/features/auth/auth-endpoints.ts';
import type { AuthHooks } from '#server/features/auth/auth-hooks.ts';
import { sessionTransport, withoutTokens } from '#server/features/auth/session-transport.ts';
import { AppError, sendAppError } from '#server/errors.ts';
import { authApi } from '#shared/contracts/auth.routes.ts';
import { routeServer } from '#server/serve-route.ts';

type Deps = { auth: Auth; db: Database; hooks: Pick<AuthHooks, 'release'>; publicUrl: string; googleClientId?: string; googleIosClientId?: string };
const M = MESSAGES.auth;

const SIGN_IN = `${AUTH_BASE_PATH}/sign-in/email`;
const SOCIAL = `${AUTH_BASE_PATH}/sign-in/social`;
type Body = Record<string, unknown>;

/** One of the app's own error codes (what auth-hooks.ts refuses with), as opposed to better-auth's. */
const isErrorCode = (code: unknown): code is ErrorCode => typeof code === 'string' && Object.hasOwn(ERROR_TEXT, code);

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

export async function authRoutes(app: FastifyInstance, { auth, db, hooks, publicUrl, googleClientId, googleIosClientId }: Deps): Promise<void> {
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
          'Forwarded to better-auth when the path is exactly one of its endpoints (sign-in/email, sign-up/email, sign-out, get-session, request-password-reset, reset-password/:token, verify-email, send-verification-email, sign-in/social, callback/:id, update-user, …); its hooks run the spec\'s checks and limits (auth-hooks.ts). Errors use the app\'s error shape. Native apps send `x-session-transport: bearer` and get the session token in `set-auth-token` instead of a cookie. The apps’ identity-token sign-in (`sign-in/social` with `idToken: { token, nonce }`) may add Apple’s `authorizationCode`: the server exchanges it for the refresh token it revokes when the account is deleted.',
      },
      handler: async (request: FastifyRequest, reply: FastifyReply) => {
        // One path, computed once: what better-auth's hooks check and limit is what it runs.
        const path = request.canonicalPath;
        if (!endpointOf(path)) throw new AppError('not-found');
        const isJson = typeof request.body === 'object' && request.body !== null;
        if (request.method === 'POST') {
          const shape = bodyProblem(request.body);
          if (shape) throw new AppError('validation/invalid-input', shape, 400);
        }
        const redirect = redirectProblem([request.body, request.query], publicOrigin);
        if (redirect) throw new AppError('validation/invalid-input', redirect, 400);

        const transport = sessionTransport(request, path, [SIGN_IN, SOCIAL]);
        const headers = authHeaders(request);
        const init: RequestInit = { method: request.method, headers };
        if (request.method === 'POST') {
          if (isJson) {
            headers.set('content-type', 'application/json');
            init.body = JSON.stringify(request.body);
          } else if (typeof request.body === 'string') {
            init.body = request.body;
          }
        }
        const query = request.raw.url?.slice(path.length) ?? '';
        const forwarded = new Request(new URL(path + query, publicUrl), init);
        let response: Response;
        try {
          response = await auth.handler(forwarded);
        } finally {
          await hooks.release(forwarded);
        }
        const text = await response.text();

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
          const error = parsed as { code?: string; message?: string; details?: Record<string, unknown> } | undefined;
          // Our own refusals (auth-hooks.ts) keep their code, message and details as they are.
          if (isErrorCode(error?.code)) return sendAppError(reply, new AppError(error.code, error.message ?? ERROR_TEXT[error.code], response.status, error.details));
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
