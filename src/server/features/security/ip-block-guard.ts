/**
 * Refuses the sensitive actions from a blocked IP (429 with the spec's rate-limit words): sign-in and
 * sign-up, the admin setup, and role changes. It runs on every request before routing, on a canonical
 * form of the path, so spellings such as `/api/auth/sign-in/./email`, `%2e` segments, doubled slashes
 * or an absolute-form request target are refused like the plain path. If the check itself fails the
 * request goes on (logged): the guard must never take sign-in down with it.
 */
import type { FastifyInstance } from 'fastify';
import { ADMIN_MESSAGES } from '#shared/admin.ts';
import { MESSAGES } from '#shared/messages.ts';
import type { Database } from '#server/db/client.ts';
import { AppError } from '#server/errors.ts';
import { configureSecurityMonitor, ipBlockedUntil, monitorNow } from '#server/features/security/security-monitor.ts';

type Guarded = 'auth' | 'setup' | 'roles';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The path as a router would see it: absolute-form stripped, dot segments resolved, decoded, lower case. */
export function sensitivePath(url: string): string {
  let path = url.split('?')[0] ?? '';
  for (let i = 0; i < 3; i++) {
    const before = path;
    try {
      path = new URL(path.replace(/\\/g, '/').replace(/^\/{2,}/, '/'), 'http://canonical.invalid').pathname;
    } catch {
      // Not parseable as a URL at all: keep what we have and judge that.
    }
    try {
      path = decodeURIComponent(path);
    } catch {
      // A malformed escape decodes no further; the router will refuse it anyway.
    }
    if (path === before) break;
  }
  return path.replace(/\/{2,}/g, '/').replace(/\/+$/, '').toLowerCase();
}

/** Which sensitive action a request is, if any. */
export function guardedAction(method: string, url: string): Guarded | undefined {
  if (SAFE_METHODS.has(method.toUpperCase())) return undefined;
  const path = sensitivePath(url);
  if (path.startsWith('/api/auth/') && /\/sign-(in|up)(\/|$)/.test(path)) return 'auth';
  if (path === '/api/admin/setup') return 'setup';
  if (path === '/api/admin/roles' || path.startsWith('/api/admin/roles/')) return 'roles';
  return undefined;
}

/**
 * Wires the security monitor into the app: the app's logger for monitor failures, and the blocked-IP
 * guard. Register it before the routes so every route inherits the hook.
 */
export function registerSecurityMonitor(app: FastifyInstance, { db }: { db: Database }): void {
  configureSecurityMonitor(db, { log: app.log });
  app.addHook('onRequest', async (request, reply) => {
    const action = guardedAction(request.method, request.url);
    if (!action) return;
    let until: Date | null;
    try {
      until = await ipBlockedUntil({ db, ip: request.ip });
    } catch (error) {
      request.log.warn({ err: { message: error instanceof Error ? error.message : String(error) } }, 'blocked-IP check failed; request allowed');
      return;
    }
    if (!until) return;
    const seconds = Math.max(1, Math.ceil((until.getTime() - monitorNow(db)) / 1000));
    reply.header('retry-after', String(seconds));
    if (action === 'roles') throw new AppError('rate-limit/exceeded', ADMIN_MESSAGES.rateLimitBody, 429, { blocked: true });
    throw new AppError('auth/too-many-requests', MESSAGES.auth.tooManyAttempts(seconds), 429, { blocked: true });
  });
}
