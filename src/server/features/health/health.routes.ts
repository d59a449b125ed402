/**
 * Liveness and readiness for load balancers and orchestrators.
 * - GET /api/health: liveness, and nothing else: the process is up and its event loop answers. It
 *   touches no database (a database outage must not make an orchestrator restart every healthy
 *   process at once). Never shed under load (load-shedding.ts): a busy process must not be killed
 *   for being busy. While draining, the shutdown refusal answers 503 before it.
 * - GET /api/ready: every dependency (readiness.service.ts); 503 `not-ready` takes the process out
 *   of rotation until it passes again. Shed like any request under load, which says the same.
 */
import type { FastifyInstance } from 'fastify';
import type { HealthResponse, ReadinessResponse } from '#shared/contracts/health.ts';
import { healthApi } from '#shared/contracts/health.routes.ts';
import { etagOf, sendPrepared, type PreparedResponse } from '#server/prepared-response.ts';
import type { LaneLookup } from '#server/prepared-lane.ts';
import { checkReadiness, type ReadinessDeps } from '#server/features/health/readiness.service.ts';
import { routeServer } from '#server/serve-route.ts';

const ALIVE_BYTES = Buffer.from(JSON.stringify({ status: 'ok' } satisfies HealthResponse));
/** Liveness never changes while the process answers: one prepared answer (too small to compress). */
const ALIVE: PreparedResponse = { contentType: 'application/json; charset=utf-8', etag: etagOf(ALIVE_BYTES), identity: ALIVE_BYTES };

/** /api/health for the prepared lane (prepared-lane.ts): liveness at a bare server's cost. */
export const healthLaneLookup: LaneLookup = (target) => (target === '/api/health' ? { route: '/api/health', prepared: ALIVE, cacheControl: 'no-store' } : undefined);

export function healthRoutes(app: FastifyInstance, { database, storage, redis }: Pick<ReadinessDeps, 'database' | 'storage' | 'redis'>): void {
  const serve = routeServer(app);

  serve(healthApi.health, async ({ request }, reply) => sendPrepared(request, reply, ALIVE, 'no-store'));

  // Probes arriving together share one run: a flood of /api/ready costs one set of checks at a time.
  let running: Promise<ReadinessResponse> | undefined;
  let lastFailing = '';
  // A 503 is also the draining or load-shedding refusal, in the app's error shape.
  serve(healthApi.ready, async ({ request }, reply) => {
    running ??= checkReadiness({ database, storage, redis }).finally(() => (running = undefined));
    const readiness = await running;
    // Logged when the set of failing checks changes, not at every probe.
    const failing = Object.entries(readiness.checks)
      .filter(([, check]) => check.status === 'fail')
      .map(([name, check]) => `${name}:${check.reason ?? ''}`)
      .join(',');
    if (failing !== lastFailing) {
      if (failing) request.log.warn({ checks: readiness.checks }, `not ready: ${failing}`);
      else request.log.info('ready again');
      lastFailing = failing;
    }
    return reply.status(readiness.status === 'ready' ? 200 : 503).send(readiness);
  });
}
