/**
 * What the request log may say about a request: its method, the route pattern it matched, the
 * client address. Never the raw URL: a password-reset token travels in the path
 * (`/api/auth/reset-password/<token>`), checkout ids and media signatures in paths and queries, and
 * anyone who can read logs could use them.
 */
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify';

/** Segments that look like an identifier or secret (long runs of id characters) are replaced. */
const SECRET_LIKE_SEGMENT = /^[A-Za-z0-9._~-]{16,}$/;

/** A path with every secret-like segment replaced by `:redacted` (for wildcard and unmatched routes). */
export function redactPath(path: string): string {
  return path
    .split('/')
    .map((segment) => (SECRET_LIKE_SEGMENT.test(segment) ? ':redacted' : segment.length > 64 ? ':long' : segment))
    .join('/');
}

/** The route pattern the request matched, or a redacted path for wildcard and unmatched routes. */
export function loggedRoute(request: Pick<FastifyRequest, 'url' | 'routeOptions'> & { canonicalPath?: string }): string {
  const pattern = request.routeOptions.url;
  if (pattern && !pattern.includes('*')) return pattern;
  return redactPath(request.canonicalPath || (request.url.split('?', 1)[0] ?? ''));
}

export const requestLogSerializers = {
  req: (request: FastifyRequest) => ({ method: request.method, route: loggedRoute(request), ip: request.ip }),
};

/**
 * One line per request, when it ends: method, route, client, status and time together. (Fastify's
 * own pair, "incoming request" then "request completed", doubled the log and its cost on every read.)
 */
export class OneLineRequestLog extends LogController {
  override incomingRequest(): void {
    // Said once, at completion.
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (this.isLogDisabled(request)) return;
    const line = { req: request, res: reply, responseTime: reply.elapsedTime };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}
