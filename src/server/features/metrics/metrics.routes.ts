/**
 * Prometheus metrics at /metrics (prom-client): process defaults plus request counts and
 * durations by route pattern (never the raw URL, so ids and tokens never become labels).
 * Readable from the machine itself, or with `Authorization: Bearer $METRICS_TOKEN`; a request that
 * came through a proxy (any forwarding header) needs the token even from loopback.
 */
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { collectDefaultMetrics, Histogram, Registry } from 'prom-client';
import { AppError } from '#server/errors.ts';

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/**
 * Headers a proxy adds for the client it forwards. A reverse proxy on this machine connects from
 * loopback, so any of them means the request is someone else's: nginx's `X-Real-IP` without
 * X-Forwarded-For was let through (issue 33, row 12). `x-forwarded-*` covers -for, -host, -proto,
 * -port, -server and -prefix.
 */
const PROXY_HEADERS = ['forwarded', 'via', 'x-real-ip', 'x-client-ip', 'x-original-forwarded-for', 'true-client-ip', 'cf-connecting-ip', 'fastly-client-ip', 'x-cluster-client-ip'];

/** True when the request names a client other than the connection's (it came through a proxy). */
function carriesProxyHeaders(headers: Readonly<Record<string, unknown>>): boolean {
  return Object.keys(headers).some((name) => name.startsWith('x-forwarded-') || PROXY_HEADERS.includes(name));
}

function allowed(request: FastifyRequest, token: string | undefined): boolean {
  if (token) {
    const given = Buffer.from(request.headers.authorization ?? '');
    const expected = Buffer.from(`Bearer ${token}`);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }
  // A reverse proxy on this machine also connects from loopback: forwarded requests are outsiders.
  return LOOPBACK.has(request.ip) && !carriesProxyHeaders(request.headers);
}

/** Records a request answered outside Fastify's hooks (the prepared lane), as the onResponse hook does. */
export type ObserveRequest = (method: string, route: string, status: number, seconds: number) => void;

export function metricsRoutes(app: FastifyInstance, { token }: { token: string | undefined }): ObserveRequest {
  // One registry per app, so tests that build several apps do not share counters.
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by method, route pattern and status',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });

  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    if (route === '/metrics') return;
    duration.observe({ method: request.method, route, status: String(reply.statusCode) }, reply.elapsedTime / 1000);
  });

  app.get('/metrics', { schema: { tags: ['metrics'], description: 'Prometheus text exposition format.' } }, async (request, reply) => {
    if (!allowed(request, token)) throw new AppError('auth/forbidden', 'Forbidden', 403);
    reply.header('content-type', registry.contentType).header('cache-control', 'no-store');
    return registry.metrics();
  });
  return (method, route, status, seconds) => duration.observe({ method, route, status: String(status) }, seconds);
}
