/**
 * The better-auth endpoints this server forwards to, as exact path patterns. A request under
 * /api/auth/ is forwarded only when its canonical path matches one of them, so what our limiter and
 * checks compare (`/api/auth/sign-in/email`) is exactly what better-auth runs: a trailing slash, a
 * different case or an encoded letter is a 404 here, never a second way in.
 */
import type { Auth } from '#server/auth.ts';

export const AUTH_BASE_PATH = '/api/auth';

export type AuthEndpointMatcher = (path: string) => string | undefined;

/** `(path) => '/api/auth/reset-password/:token'` for a known endpoint, undefined otherwise. */
export function createAuthEndpointMatcher(auth: Auth): AuthEndpointMatcher {
  const patterns = Object.values(auth.api as Record<string, { path?: unknown }>)
    .map((endpoint) => endpoint.path)
    .filter((path): path is string => typeof path === 'string')
    .map((path) => `${AUTH_BASE_PATH}${path}`);
  const exact = new Set(patterns.filter((p) => !p.includes('/:')));
  const parameterised = patterns
    .filter((p) => p.includes('/:'))
    .map((pattern) => ({ pattern, regex: new RegExp(`^${pattern.split('/').map((s) => (s.startsWith(':') ? '[A-Za-z0-9._~-]+' : escape(s))).join('/')}$`) }));
  return (path) => (exact.has(path) ? path : parameterised.find(({ regex }) => regex.test(path))?.pattern);
}

function escape(segment: string): string {
  return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
