/**
 * Cross-site request forgery, refused once for the whole app. A state-changing request that
 * authenticates with the session cookie must come from our own pages: `Sec-Fetch-Site` says
 * same-origin (or none: typed by the user), or `Origin` is PUBLIC_URL's origin. SameSite=Lax alone
 * is not enough: a sibling subdomain or another port on the same host is "same-site" and gets the
 * cookie. A request with a bearer token (native apps) is exempt: it is authenticated by that token
 * alone, its cookie is never read (authHeaders in auth.ts), so a wrong token gets no session to ride
 * on; and a page cannot send an Authorization header cross-origin without our CORS consent. The
 * payment webhooks carry no session at all. better-auth checks Origin on /api/auth/* itself.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { hasBearerToken } from '#server/auth.ts';
import { AppError } from '#server/errors.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** Matches better-auth's session cookie, with or without the __Secure- prefix. */
const SESSION_COOKIE = /(?:^|;\s*)(?:__Secure-)?better-auth\.session_token=/;
// The one-click unsubscribe (RFC 8058) is authorised by the signed token in its address alone and never reads the cookie; a mail client posts it from wherever it runs.
const EXEMPT_PREFIXES = ['/api/auth/', '/api/billing/stripe/webhook', '/api/iap/notifications', '/api/reminders/email/one-click'];

function isCrossSiteForgery(request: FastifyRequest, publicOrigin: string): boolean {
  if (SAFE_METHODS.has(request.method)) return false;
  // Authenticated by the bearer token or not at all: the cookie of such a request is ignored.
  if (hasBearerToken(request.headers)) return false;
  if (!SESSION_COOKIE.test(request.headers.cookie ?? '')) return false;
  const path = request.canonicalPath || (request.url.split('?', 1)[0] ?? '');
  if (EXEMPT_PREFIXES.some((prefix) => path === prefix || path.startsWith(prefix))) return false;
  const fetchSite = request.headers['sec-fetch-site'];
  if (fetchSite === 'same-origin' || fetchSite === 'none') return false;
  return request.headers.origin !== publicOrigin;
}

export function registerCsrfGuard(app: FastifyInstance, { publicUrl, onRejected }: { publicUrl: string; onRejected?: (request: FastifyRequest) => Promise<void> }): void {
  const publicOrigin = new URL(publicUrl).origin;
  app.addHook('onRequest', async (request) => {
    if (!isCrossSiteForgery(request, publicOrigin)) return;
    await onRejected?.(request).catch((error: unknown) => request.log.warn({ err: error }, 'could not record a rejected cross-site request'));
    throw new AppError('security/cross-site-request');
  });
}
