/**
 * One canonical request path. Routing, limits, validation and logging all read the raw request
 * target, while Node's URL parser (and better-auth behind it) removes dot segments and decodes
 * `%2e`. A path that two readers would see differently is how a lockout gets bypassed
 * (`/api/auth/sign-in/./email`), so any target that is not already in normal form is refused here,
 * before routing: nothing downstream ever sees one.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '#server/errors.ts';

/** Dot segments (`/./`, `/../`), empty segments (`//`), backslashes, and encoded dots, slashes, backslashes or NUL. */
const NON_CANONICAL = /(?:^|\/)\.{1,2}(?:\/|$)|\/\/|\\|%2e|%2f|%5c|%00/i;

/** The path part of an origin-form request target, or undefined when the target is not in normal form. */
function canonicalPath(rawTarget: string): string | undefined {
  // Absolute-form (`POST http://host/path`) is for proxies; '*' is for OPTIONS on the server. Neither is ours.
  if (!rawTarget.startsWith('/')) return undefined;
  const path = rawTarget.split('?', 1)[0];
  if (NON_CANONICAL.test(path)) return undefined;
  return path;
}

/** What the WHATWG URL parser would make of the target: the path another reader would act on. */
function normalisedPath(rawTarget: string): string {
  try {
    return new URL(rawTarget, 'http://x').pathname.replace(/%2e/gi, '.');
  } catch {
    return rawTarget;
  }
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The request path (no query), already in normal form. */
    canonicalPath: string;
  }
}

/**
 * Refuses non-canonical request targets with 400 before any route runs. `onRefused` lets the
 * security log record attempts on sensitive paths.
 */
export function registerCanonicalRequestTarget(
  app: FastifyInstance,
  { onRefused }: { onRefused?: (request: FastifyRequest, normalised: string) => Promise<void> } = {},
): void {
  app.decorateRequest('canonicalPath', '');
  app.addHook('onRequest', async (request) => {
    const raw = request.raw.url ?? '';
    const path = canonicalPath(raw);
    if (path !== undefined) {
      request.canonicalPath = path;
      return;
    }
    await onRefused?.(request, normalisedPath(raw)).catch((error: unknown) => request.log.warn({ err: error }, 'could not record a refused request target'));
    throw new AppError('validation/invalid-input', 'The request path is not valid.', 400);
  });
}
