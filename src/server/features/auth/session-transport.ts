/**
 * Who may see a session token. A browser keeps its session in an HttpOnly cookie and no response
 * hands the token to page scripts (so an injected script cannot carry the session away). A native
 * shell authenticates with `Authorization: Bearer`, or asks for a bearer session at sign-in with
 * SESSION_TRANSPORT_HEADER; it gets tokens and no cookies.
 */
import type { FastifyRequest } from 'fastify';
import { SESSION_TRANSPORT_HEADER } from '#shared/constants.ts';

export type SessionTransport = 'cookie' | 'bearer';

export function sessionTransport(request: FastifyRequest): SessionTransport {
  if (/^bearer\s+\S/i.test(request.headers.authorization ?? '')) return 'bearer';
  return request.headers[SESSION_TRANSPORT_HEADER] === 'bearer' ? 'bearer' : 'cookie';
}

/** Removes every `token` field (sign-in's `token`, get-session's `session.token`, list-sessions' tokens). */
export function withoutTokens(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutTokens);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).filter(([key]) => key !== 'token').map(([key, v]) => [key, withoutTokens(v)]));
  }
  return value;
}
