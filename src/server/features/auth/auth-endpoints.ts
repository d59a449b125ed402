/**
 * The better-auth endpoints this server forwards to, as exact path patterns. A request under
 * /api/auth/ is forwarded only when its canonical path matches one of them, so what our limiter and
 * checks compare (`/api/auth/sign-in/email`) is exactly what better-auth runs: a trailing slash, a
 * different case or an encoded letter is a 404 here, never a second way in.
 *
 * Only the endpoints the web app, the native apps and our e-mails use are forwarded (issue 33):
 * every other one better-auth offers is a way in that nobody watches. `verify-password` answered
 * unlimited password guesses with no security event; `delete-user`, `change-email`, `unlink-account`,
 * `revoke-session(s)`, `link-social`, `list-accounts`, `update-session`, … are not used either.
 * A password is checked only by sign-in (the sign-in limiter) and change-password (counted by the
 * same limiter in auth.routes.ts); account deletion is our own route, with its own limit.
 */
import type { Auth } from '#server/auth.ts';

export const AUTH_BASE_PATH = '/api/auth';

/** better-auth's paths (under AUTH_BASE_PATH) that are forwarded, each with who uses it. */
const FORWARDED_AUTH_PATHS: readonly string[] = [
  '/sign-up/email', // sign-up form
  '/sign-in/email', // sign-in form, web and apps
  '/sign-in/social', // Apple/Google: the web's redirect flow, the apps' identity tokens
  '/callback/:id', // the providers' OAuth callbacks
  '/error', // better-auth's page for a failed OAuth callback
  '/sign-out',
  '/get-session', // Account › Security
  '/list-sessions', // Account › Security
  '/revoke-other-sessions', // Account › Security
  '/update-user', // Account › name
  '/change-password', // Account › Security
  '/send-verification-email', // sign-in page: send the link again
  '/verify-email', // the link in the verification e-mail
  '/request-password-reset', // forgot-password page
  '/reset-password/:token', // the link in the reset e-mail
  '/reset-password', // reset-password page
];

export type AuthEndpointMatcher = (path: string) => string | undefined;

/** `(path) => '/api/auth/reset-password/:token'` for a forwarded endpoint, undefined otherwise. */
export function createAuthEndpointMatcher(auth: Auth): AuthEndpointMatcher {
  const offered = new Set(
    Object.values(auth.api as Record<string, { path?: unknown }>)
      .map((endpoint) => endpoint.path)
      .filter((path): path is string => typeof path === 'string'),
  );
  // A better-auth upgrade that renames an endpoint must fail loudly here, not turn a page into a 404.
  const missing = FORWARDED_AUTH_PATHS.filter((path) => !offered.has(path));
  if (missing.length > 0) throw new Error(`better-auth no longer offers ${missing.join(', ')}`);
  const patterns = FORWARDED_AUTH_PATHS.map((path) => `${AUTH_BASE_PATH}${path}`);
  const exact = new Set(patterns.filter((p) => !p.includes('/:')));
  const parameterised = patterns
    .filter((p) => p.includes('/:'))
    .map((pattern) => ({ pattern, regex: new RegExp(`^${pattern.split('/').map((s) => (s.startsWith(':') ? '[A-Za-z0-9._~-]+' : escape(s))).join('/')}$`) }));
  return (path) => (exact.has(path) ? path : parameterised.find(({ regex }) => regex.test(path))?.pattern);
}

function escape(segment: string): string {
  return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
