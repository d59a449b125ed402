/** Health API contracts: liveness (/api/health) and readiness (/api/ready), read by load balancers and operators. */

/** GET /api/health: 200 `ok` when the database answers, 503 `unavailable` otherwise. */
export type HealthResponse = { status: 'ok' | 'unavailable' };

/**
 * One dependency's state. `reason` is a short fixed word or an error code (ENOTDIR, NoSuchBucket,
 * timeout): never a URL, a host name, a credential or an error message.
 */
export type ReadinessCheck = { status: 'ok' | 'fail' | 'skipped'; reason?: string; ms?: number };

/** Migrations: how many of this build's migrations the database has, and how many it lacks. */
export type MigrationsCheck = ReadinessCheck & { applied?: number; pending?: number };

export type ReadinessChecks = { database: ReadinessCheck; migrations: MigrationsCheck; storage: ReadinessCheck; redis: ReadinessCheck };

/** GET /api/ready: 200 `ready` when every check passes (skipped counts as passing), 503 `not-ready` otherwise. */
export type ReadinessResponse = { status: 'ready' | 'not-ready'; checks: ReadinessChecks };
