/**
 * Typed errors and the one handler that maps them to HTTP (documenso app-error.ts).
 * Services throw AppError; routes never build error replies by hand.
 */
import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { ZodError } from 'zod';
import { ERROR_TEXT, type ErrorCode } from '#shared/error-text.ts';

/**
 * The one status for each code that names a single HTTP outcome. An AppError may pass a status only
 * when it equals this default (errors.test.ts scans the source for that); codes left out
 * ('subscription/required', 'auth/failed', 'default' …) have no single status and their throwers choose.
 */
export const STATUS_BY_CODE: Partial<Record<ErrorCode, number>> = {
  'validation/invalid-input': 400,
  'auth/invalid-email': 400,
  'auth/weak-password': 400,
  'auth/user-not-found': 401,
  'auth/wrong-password': 401,
  'auth/email-already-in-use': 409,
  'database/duplicate-email': 409,
  'database/constraint-violation': 409,
  'auth/too-many-requests': 429,
  'rate-limit/exceeded': 429,
  'not-found': 404,
  'auth/unauthenticated': 401,
  'auth/forbidden': 403,
  'security/cross-site-request': 403,
  'auth/email-not-verified': 403,
  'auth/invalid-name': 400,
  'database/connection-error': 503,
  'server/unavailable': 503,
  'network/timeout': 504,
  'billing/checkout-failed': 502,
  'billing/unavailable': 503,
  'billing/already-subscribed': 409,
  'billing/managed-elsewhere': 409,
  'media/expired': 403,
  'media/forbidden': 403,
  'upload/too-large': 413,
  'upload/unsupported-type': 415,
  'upload/unreadable-audio': 422,
  'admin/setup-done': 409,
  'admin/check-failed': 503,
  'security/check-failed': 503,
  'account/reauth-required': 403,
  'account/last-admin': 409,
  'journal/full': 403,
  'journal/key-replaced': 409,
};

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string = ERROR_TEXT[code],
    readonly status: number = STATUS_BY_CODE[code] ?? 500,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export type ErrorBody = { error: { code: ErrorCode; message: string; details?: Record<string, unknown> } };

/**
 * Sends an AppError in the one error shape. For the few replies Fastify makes outside the handler chain
 * (frameworkErrors, before routing); everything else throws and lets the handler below call this.
 */
export function sendAppError(reply: FastifyReply, error: AppError): FastifyReply {
  const body: ErrorBody = { error: { code: error.code, message: error.message, details: error.details } };
  return reply.status(error.status).send(body);
}

/** Installs the error handler and the JSON 404 for unknown API routes. */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError | ZodError, request, reply) => {
    if (error instanceof AppError) return sendAppError(reply, error);
    if (error instanceof ZodError) {
      const first = error.issues.at(0);
      const body: ErrorBody = {
        error: {
          code: 'validation/invalid-input',
          message: first?.message ?? ERROR_TEXT['validation/invalid-input'],
          details: { fields: error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })) },
        },
      };
      return reply.status(400).send(body);
    }
    const status = typeof error.statusCode === 'number' && error.statusCode >= 400 ? error.statusCode : 500;
    if (status >= 500) request.log.error({ err: error }, 'unhandled error');
    const code: ErrorCode = status === 429 ? 'rate-limit/exceeded' : status < 500 ? 'validation/invalid-input' : 'default';
    // Client errors from Fastify itself (bad JSON, body too large) keep their own wording; server errors never leak.
    const message = status < 500 ? error.message : ERROR_TEXT.default;
    return reply.status(status).send({ error: { code, message } } satisfies ErrorBody);
  });
}
