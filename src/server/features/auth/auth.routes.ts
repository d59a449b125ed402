/**
 * Mounts better-auth at /api/auth/* inside Fastify, adding what it does not do our way:
 * the spec's validation and messages, the failed-attempt sign-in limit, and security events.
 */
import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { MIN_PASSWORD_LENGTH } from '#shared/constants.ts';
import { MESSAGES } from '#shared/messages.ts';
import { validateEmail, validateName } from '#shared/validation.ts';
import { authHeaders, getViewer, type Auth } from '#server/auth.ts';
import type { Database } from '#server/db/client.ts';
import { account, user } from '#server/db/schema/auth.ts';
import { getEntitlement } from '#server/features/billing/subscriptions.service.ts';
import type { SignInLimiter } from '#server/features/auth/sign-in-limiter.ts';
import { logSecurityEvent } from '#server/features/security/security-audit.service.ts';

type Deps = { auth: Auth; db: Database; limiter: SignInLimiter; publicUrl: string };
type Body = Record<string, unknown>;

const M = MESSAGES.auth;
const str = (v: unknown) => (typeof v === 'string' ? v : '');

function sendError(reply: FastifyReply, status: number, code: string, message: string, headers: Record<string, string> = {}) {
  for (const [k, v] of Object.entries(headers)) reply.header(k, v);
  return reply.status(status).send({ error: { code, message } });
}

/** The spec's wording for better-auth's error codes. */
export function authErrorMessage(path: string, code: string | undefined, message: string | undefined): { code: string; message: string } {
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
    case 'INVALID_TOKEN':
      return { code: 'auth/invalid-token', message: 'This link has expired or was already used. Please request a new one.' };
    default: {
      const text = message || 'Please try again.';
      if (path.endsWith('/sign-in/email')) return { code: 'auth/failed', message: M.signInFailed(text) };
      if (path.endsWith('/sign-up/email')) return { code: 'auth/failed', message: M.signUpFailed(text) };
      return { code: code ? `auth/${code.toLowerCase()}` : 'auth/failed', message: text };
    }
  }
}

/** Server-side checks with the spec's messages before better-auth sees the request. */
function precheck(path: string, body: Body): string | undefined {
  if (path === '/api/auth/sign-in/email') {
    if (!str(body.email).trim() || !str(body.password)) return M.fillAllFields;
    const email = validateEmail(str(body.email));
    if (!email.valid) return email.error;
  }
  if (path === '/api/auth/sign-up/email') {
    if (!str(body.email).trim() || !str(body.password)) return M.fillAllFields;
    if (!str(body.name).trim()) return M.fullNameRequired;
    const name = validateName(str(body.name));
    if (!name.valid) return name.error;
    const email = validateEmail(str(body.email));
    if (!email.valid) return email.error;
    if (str(body.password).length < MIN_PASSWORD_LENGTH) return M.passwordTooShort;
  }
  if (path === '/api/auth/request-password-reset' || path === '/api/auth/send-verification-email') {
    const email = validateEmail(str(body.email));
    if (!email.valid) return email.error;
  }
  return undefined;
}

export async function authRoutes(app: FastifyInstance, { auth, db, limiter, publicUrl }: Deps): Promise<void> {
  await app.register(async (scope) => {
    // Apple posts its OAuth callback as a form; better-auth parses it itself from the raw text.
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => done(null, body));

    scope.route({
      method: ['GET', 'POST'],
      url: '/api/auth/*',
      handler: async (request: FastifyRequest, reply: FastifyReply) => {
        const path = request.url.split('?')[0]!;
        const isJson = typeof request.body === 'object' && request.body !== null;
        const body: Body = isJson ? (request.body as Body) : {};
        const ip = request.ip;
        const email = str(body.email).trim().toLowerCase();

        if (request.method === 'POST') {
          const problem = precheck(path, body);
          if (problem) return sendError(reply, 400, 'validation/invalid-input', problem);
        }
        if (path === '/api/auth/sign-up/email' && (await emailTaken(email))) {
          // The spec tells people plainly that the account exists (better-auth would hide it).
          return sendError(reply, 409, 'auth/email-already-in-use', M.accountExists);
        }
        if (path === '/api/auth/sign-in/email') {
          const state = await limiter.check(email, ip);
          if (state.blocked) {
            await logSecurityEvent({ db, eventType: 'rate_limit_exceeded', severity: 'high', userEmail: email, ipAddress: ip, details: { action: 'sign-in' } });
            return sendError(reply, 429, 'auth/too-many-requests', M.tooManyAttempts(state.retryAfterSeconds), {
              'retry-after': String(state.retryAfterSeconds),
            });
          }
        }

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
        const response = await auth.handler(new Request(new URL(request.url, publicUrl), init));
        const text = await response.text();

        await afterAuth({ path, status: response.status, text, email, ip });

        reply.status(response.status);
        response.headers.forEach((value, key) => {
          if (key !== 'set-cookie' && key !== 'content-length' && key !== 'content-encoding') reply.header(key, value);
        });
        const cookies = response.headers.getSetCookie();
        if (cookies.length) reply.header('set-cookie', cookies);
        reply.header('cache-control', 'no-store');

        if (response.status >= 400 && text.startsWith('{')) {
          const parsed = safeParse(text) as { code?: string; message?: string } | undefined;
          const mapped = authErrorMessage(path, parsed?.code, parsed?.message);
          return reply.type('application/json').send({ error: mapped });
        }
        return reply.send(text);
      },
    });
  });

  async function emailTaken(email: string): Promise<boolean> {
    const [row] = await db.select({ id: user.id }).from(user).where(eq(user.email, email)).limit(1);
    return Boolean(row);
  }

  async function afterAuth({ path, status, text, email, ip }: { path: string; status: number; text: string; email: string; ip: string }) {
    const ok = status < 400;
    if (path === '/api/auth/sign-in/email') {
      if (ok) {
        const userId = (safeParse(text) as { user?: { id?: string } } | undefined)?.user?.id;
        await limiter.recordSuccess(email, ip);
        await logSecurityEvent({ db, eventType: 'user_login', severity: 'low', userId, userEmail: email, ipAddress: ip, details: { method: 'email' } });
      } else if (status === 401) {
        const failures = await limiter.recordFailure(email, ip);
        await logSecurityEvent({
          db,
          eventType: 'failed_login',
          severity: failures > 5 ? 'high' : 'medium',
          userEmail: email,
          ipAddress: ip,
          details: { attemptsInWindow: failures },
        });
      }
    } else if (path === '/api/auth/sign-up/email' && ok) {
      const userId = (safeParse(text) as { user?: { id?: string } } | undefined)?.user?.id;
      await logSecurityEvent({ db, eventType: 'user_signup', severity: 'low', userId, userEmail: email, ipAddress: ip });
    } else if (path === '/api/auth/request-password-reset' && ok) {
      await logSecurityEvent({ db, eventType: 'password_reset_requested', severity: 'medium', userEmail: email, ipAddress: ip });
    }
  }

  /** Who is asking: user, role and whether they may listen (the server's one entitlement check). */
  app.get('/api/me', async (request, reply) => {
    reply.header('cache-control', 'no-store');
    const viewer = await getViewer(auth, db, request);
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

  /** Which sign-in providers are configured, so the UI can say 'not available' instead of failing. */
  app.get('/api/auth-providers', async () => ({
    google: Boolean(auth.options.socialProviders && 'google' in auth.options.socialProviders),
    apple: Boolean(auth.options.socialProviders && 'apple' in auth.options.socialProviders),
  }));
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
