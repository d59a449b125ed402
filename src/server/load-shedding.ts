/**
 * Load shedding (issue 13, item 6): when the event loop lags, every request would wait its turn
 * behind the backlog and most would time out anyway. @fastify/under-pressure samples the loop's
 * delay once a second; above MAX_EVENT_LOOP_DELAY_MS new requests get an immediate 503 with
 * Retry-After, in the app's error shape, so clients and load balancers back off while the process
 * catches up (docs/decisions/0011-load-shedding-and-global-limit.md).
 */
import underPressure from '@fastify/under-pressure';
import type { FastifyInstance } from 'fastify';
import { AppError } from '#server/errors.ts';

/** Seconds a shed client is asked to wait: long enough for a backlog to drain, short for a person. */
export const SHED_RETRY_AFTER_SECONDS = 10;

/**
 * Never shed: liveness (a load balancer or orchestrator must not kill or drain a process that is only
 * busy; /api/ready is shed, which is the "send traffic elsewhere" signal) and the metrics that show
 * the overload.
 */
const NEVER_SHED = new Set(['/api/health', '/metrics']);

/** Logs at most one line per interval: under overload, a line per refused request would add to it. */
const LOG_EVERY_MS = 5000;

export async function registerLoadShedding(
  app: FastifyInstance,
  { maxEventLoopDelayMs, sampleIntervalMs = 1000 }: { maxEventLoopDelayMs: number; sampleIntervalMs?: number },
): Promise<void> {
  if (maxEventLoopDelayMs <= 0) return;
  let shed = 0;
  let lastLog = 0;
  await app.register(underPressure, {
    maxEventLoopDelay: maxEventLoopDelayMs,
    sampleInterval: sampleIntervalMs,
    // Returning nothing lets the request through; a rejected promise goes to the central error handler.
    pressureHandler: (request, reply, type, value) => {
      if (request.routeOptions.url && NEVER_SHED.has(request.routeOptions.url)) return undefined;
      shed += 1;
      const now = Date.now();
      if (now - lastLog >= LOG_EVERY_MS) {
        request.log.warn({ type, value, shed }, 'under pressure: shedding requests with 503');
        lastLog = now;
        shed = 0;
      }
      reply.header('retry-after', String(SHED_RETRY_AFTER_SECONDS));
      return Promise.reject(new AppError('server/unavailable'));
    },
  });
}
