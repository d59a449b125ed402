/** Health API contracts: liveness (/api/health) and readiness (/api/ready), read by load balancers and operators. */
import { z } from 'zod';
import { errorBody } from '#shared/contracts/errors.ts';
import type { SchemaTable } from '#shared/contracts/route.ts';

/** GET /api/health: 200 `ok` while the process runs (liveness; the database is readiness's business). */
const healthResponse = z.object({ status: z.literal('ok') });
export type HealthResponse = z.infer<typeof healthResponse>;

/**
 * One dependency's state. `reason` is a short fixed word or an error code (ENOTDIR, NoSuchBucket,
 * timeout): never a URL, a host name, a credential or an error message.
 */
const readinessCheck = z.object({ status: z.enum(['ok', 'fail', 'skipped']), reason: z.string().optional(), ms: z.number().optional() });
export type ReadinessCheck = z.infer<typeof readinessCheck>;

/** Migrations: how many of this build's migrations the database has, and how many it lacks. */
const migrationsCheck = readinessCheck.extend({ applied: z.number().optional(), pending: z.number().optional() });
export type MigrationsCheck = z.infer<typeof migrationsCheck>;

const readinessChecks = z.object({ database: readinessCheck, migrations: migrationsCheck, storage: readinessCheck, redis: readinessCheck });
export type ReadinessChecks = z.infer<typeof readinessChecks>;

/** GET /api/ready: 200 `ready` when every check passes (skipped counts as passing), 503 `not-ready` otherwise. */
const readinessResponse = z.object({ status: z.enum(['ready', 'not-ready']), checks: readinessChecks });
export type ReadinessResponse = z.infer<typeof readinessResponse>;

/**
 * The health routes' contracts, by route name (their method, path and policy: health.routes.ts). Each
 * with its 503 too, for the documentation the load balancers' operators read: the draining refusal and
 * load shedding answer in the app's error shape, and /api/ready's `not-ready` in its own.
 */
export const healthSchemas = {
  health: { response: { 200: healthResponse, 503: errorBody } },
  ready: { response: { 200: readinessResponse, 503: z.union([readinessResponse, errorBody]) } },
} satisfies SchemaTable;
