/** The health routes: liveness and readiness, for load balancers and operators (contracts: health.ts). */
import type { healthSchemas } from '#shared/contracts/health.ts';
import { defineRoutes } from '#shared/contracts/route.ts';

export const healthApi = defineRoutes<typeof healthSchemas>()('health', {
  /** Liveness: one prepared answer, no-store (set with it by the handler). */
  health: { method: 'GET', path: '/api/health', policy: 'public', cache: 'route' },
  /** Readiness: 200 `ready`, or 503 `not-ready` with the failing checks. */
  ready: { method: 'GET', path: '/api/ready', policy: 'public', cache: 'no-store' },
});
