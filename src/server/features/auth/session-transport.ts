/**
 * Who may see a session token. A browser keeps its session in an HttpOnly cookie and no response
 * hands the token to page scripts (so an injected script cannot carry the session away). A native
 * shell authenticates with `Authorization: Bearer` and gets its token only in `set-auth-token`.
 *
 * The transport follows how the request authenticates, never a header alone (issue 33): a page
 * script can add SESSION_TRANSPORT_HEADER to its own cookie request, so the header counts only on a
 * sign-in that carries no cookie at all (the apps' WebViews never send ours).
 */
import type { FastifyRequest } from 'fastify';
import { SESSION_TRANSPORT_HEADER } from '#shared/constants.ts';
import { hasBearerToken } from '#server/auth.ts';

export type SessionTransport = 'cookie' | 'bearer';

/** `path` is the canonical auth path; `signInPaths` the endpoints that start a session. */
export function sessionTransport(request: FastifyRequest, path: string, signInPaths: readonly string[]): SessionTransport {
  // authHeaders() drops the cookie of such a request: only the bearer token can authenticate it.
  if (hasBearerToken(request.headers)) return 'bearer';
  if (request.headers.cookie !== undefined) return 'cookie';
  return signInPaths.includes(path) && request.headers[SESSION_TRANSPORT_HEADER] === 'bearer' ? 'bearer' : 'cookie';
}

/**
 * Removes every `token` field (sign-in's `token`, get-session's `session.token`, list-sessions'
 * tokens) from every answer, whatever the transport: a bearer client has its own token already (from
 * `set-auth-token`), and no client needs another session's.
 */
export function withoutTokens(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutTokens);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).filter(([key]) => key !== 'token').map(([key, v]) => [key, withoutTokens(v)]));
  }
  return value;
}
