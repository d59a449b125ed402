/**
 * The operator sees probing (issue 33, "Also build" 1): the spec's browser monitor logged
 * admin_privilege_escalation, injection_attempt and data_exfiltration_attempt; here the server logs
 * them from what it refuses or serves, without any route's help:
 *
 * - admin_privilege_escalation: a signed-in non-admin refused on a staff route (the role check's 403
 *   on /api/admin/*, or the CSRF guard's before it), or asking for an admin route that does not exist;
 *   an admin giving their own account a role (a role change beyond anyone's rights).
 * - injection_attempt: a refused request (4xx other than 401/403/429) whose path, query, parameters or
 *   JSON body hold something that looks like SQL, script or path traversal (probe-patterns.ts); the
 *   log keeps the field, the kind and a short inert copy, never the payload as sent.
 * - data_exfiltration_attempt: one account (or IP) reading exports, CSV downloads or admin listing
 *   pages past what the dashboard ever needs in SECURITY_MONITOR.probeWindowMs.
 *
 * Each is one row per source, type and window with a count (logProbeEvent), and feeds the monitor.
 * Recording runs before the reply is sent (the refusal waits a few milliseconds for its row) so that
 * what the admin reads is complete when the prober's answer arrives; a failure to record is logged
 * and never changes the answer.
 */
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { ZodError } from 'zod';
import { ADMIN_MESSAGES, SECURITY_MONITOR as S, type ProbeEventType } from '#shared/admin.ts';
import { getViewer, type Viewer } from '#server/auth.ts';
import type { Database } from '#server/db/client.ts';
import { AppError } from '#server/errors.ts';
import { loggedRoute, redactPath } from '#server/request-log.ts';
import { createDatabaseRateLimitStore } from '#server/features/security/rate-limit-store.ts';
import { logProbeEvent } from '#server/features/security/security-audit.service.ts';
import { monitorNow } from '#server/features/security/security-monitor.ts';
import { decodeRepeatedly, findInjection, inertSample } from '#server/features/security/probe-patterns.ts';

/** Routes under /api/admin/ that every signed-in person may call (the dashboard's status, the one-time setup). */
const OPEN_ADMIN_ROUTES: ReadonlySet<string> = new Set(['/api/admin/status', '/api/admin/setup']);

/** Reads that hand out data in bulk, by route pattern: a burst of them is a data_exfiltration_attempt. */
const BULK_READS: ReadonlyMap<string, 'export' | 'listing'> = new Map([
  ['/api/account/export', 'export'],
  ['/api/admin/waitlist/export', 'export'],
  ['/api/admin/meditations/:id/download', 'export'],
  ['/api/admin/waitlist', 'listing'],
  ['/api/admin/roles', 'listing'],
  ['/api/admin/audit', 'listing'],
  ['/api/admin/security/events', 'listing'],
  ['/api/admin/meditations', 'listing'],
]);

const BULK_ABOVE = { export: S.exportsAbove, listing: S.listingPagesAbove } as const;

/** The status the error handler will give `error` (onError runs before it). */
function statusOf(error: FastifyError | AppError | ZodError | Error): number {
  if (error instanceof AppError) return error.status;
  if (error instanceof ZodError) return 400;
  const status = (error as FastifyError).statusCode;
  return typeof status === 'number' ? status : 500;
}

function who(request: FastifyRequest, viewer: Viewer | undefined) {
  return { userId: viewer?.user.id ?? null, userEmail: viewer?.user.email ?? null, ipAddress: request.ip };
}

/** The path as the client sent it (before normal form: `..` segments are what path traversal looks like). */
const rawPath = (request: FastifyRequest) => (request.raw.url ?? '').split('?', 1)[0] ?? '';

export function registerProbeLog(app: FastifyInstance, { db }: { db: Database }): void {
  // One counter store for the app's life (in the database: shared by every process of a cluster).
  const bulkReads = createDatabaseRateLimitStore(db, () => monitorNow(db));
  const record = async (request: FastifyRequest, eventType: ProbeEventType, viewer: Viewer | undefined, details: Record<string, unknown>) => {
    try {
      await logProbeEvent({ db, eventType, severity: 'high', ...who(request, viewer), details: { method: request.method, route: loggedRoute(request), ...details } });
    } catch (error) {
      request.log.warn({ err: { message: error instanceof Error ? error.message : String(error) }, eventType }, 'could not record a probe');
    }
  };

  /** A signed-in non-admin on a staff route, or an admin assigning a role to themselves. */
  const escalation = async (request: FastifyRequest, error: Error): Promise<boolean> => {
    if (!(error instanceof AppError)) return false;
    const route = request.routeOptions.url;
    const path = request.canonicalPath || rawPath(request);
    if (error.code === 'auth/forbidden' && route?.startsWith('/api/admin/') && !OPEN_ADMIN_ROUTES.has(route)) {
      const viewer = request.viewer;
      if (!viewer) return false;
      if (viewer.role !== 'admin') {
        await record(request, 'admin_privilege_escalation', viewer, { reason: 'role-check', role: viewer.role });
        return true;
      }
      if (error.message === ADMIN_MESSAGES.ownAccount) {
        await record(request, 'admin_privilege_escalation', viewer, { reason: 'own-account', role: viewer.role });
        return true;
      }
      return false;
    }
    // Refused before the role check ran: an admin route that does not exist (only someone guessing asks
    // for one), or a write without our Origin (the CSRF guard runs first; csrf_rejected is logged too).
    const before = error.code === 'not-found' && !route ? 'unknown-admin-route' : error.code === 'security/cross-site-request' ? 'cross-site' : undefined;
    const staffPath = (route ?? path.toLowerCase()).startsWith('/api/admin/') && !OPEN_ADMIN_ROUTES.has(route ?? path.toLowerCase());
    if (before && staffPath) {
      const viewer = request.viewer ?? (await getViewer(request.server.auth, db, request).catch(() => undefined));
      if (!viewer || viewer.role === 'admin') return false;
      await record(request, 'admin_privilege_escalation', viewer, { reason: before, role: viewer.role });
      return true;
    }
    return false;
  };

  /** A refused request whose inputs look like SQL, script or path traversal. */
  const injection = async (request: FastifyRequest, status: number): Promise<void> => {
    if (status < 400 || status >= 500 || status === 401 || status === 403 || status === 429) return;
    const query = (request.raw.url ?? '').split('?').slice(1).join('?');
    const found = findInjection({
      // Secret-like segments (a reset token in the path) and secret-named query fields never reach the sample.
      path: redactPath(decodeRepeatedly(rawPath(request))),
      ...(query ? { query: Object.fromEntries(new URLSearchParams(query)) } : {}),
      ...(request.params && typeof request.params === 'object'
        ? { params: Object.fromEntries(Object.entries(request.params).map(([name, value]) => [name, typeof value === 'string' ? redactPath(value) : value])) }
        : {}),
      ...(request.body !== undefined ? { body: request.body } : {}),
    });
    if (!found) return;
    await record(request, 'injection_attempt', request.viewer, { kind: found.kind, field: found.field, sample: inertSample(found.value), status });
  };

  app.addHook('onError', async (request, _reply, error) => {
    if (await escalation(request, error)) return;
    await injection(request, statusOf(error));
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const route = request.routeOptions.url;
    const kind = route ? BULK_READS.get(route) : undefined;
    const viewer = request.viewer;
    if (!kind || !viewer || reply.statusCode === 401 || reply.statusCode === 403 || reply.statusCode >= 500) return payload;
    const subject = viewer.user.id;
    try {
      const { count } = await bulkReads.hit(`probe:bulk:${kind}:${subject}`, S.probeWindowMs, request.ip);
      const above = BULK_ABOVE[kind];
      if (count > above) {
        await record(request, 'data_exfiltration_attempt', viewer, { kind, reads: count, threshold: `more than ${above} ${kind === 'export' ? 'exports' : 'listing pages'} by one account in ${S.probeWindowMs / 60_000} minutes` });
      }
    } catch (error) {
      request.log.warn({ err: { message: error instanceof Error ? error.message : String(error) } }, 'could not count a bulk read');
    }
    return payload;
  });
}
