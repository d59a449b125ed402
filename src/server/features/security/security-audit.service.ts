/** Writes and reads the server-side security audit log (spec: security_audit_log). */
import { createHash } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { SECURITY_MONITOR as S, type ProbeEventType } from '#shared/admin.ts';
import type { Database } from '#server/db/client.ts';
import { securityAuditLog } from '#server/db/schema/security.ts';
import { createDatabaseRateLimitStore } from '#server/features/security/rate-limit-store.ts';
import { CRITICAL_EVENT_TYPES, monitorNow, observeSecurityEvent, type MonitoredEvent } from '#server/features/security/security-monitor.ts';

const SENSITIVE = /password|token|key|secret|card|ssn/i;

/** Drops sensitive fields and caps strings, as the spec's browser log does, before anything is stored. */
export function redactDetails(details: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(details)) {
    if (SENSITIVE.test(name)) out[name] = '[REDACTED]';
    else if (typeof value === 'string' && value.length > 200) out[name] = `${value.slice(0, 200)}…[truncated]`;
    else out[name] = value;
  }
  return out;
}

/**
 * Records one security event and hands it to the security monitor (alerts, threat score, IP blocks).
 * Lockout bypass attempts and forged webhooks are always recorded as critical. The monitor never makes
 * this fail: its own errors are logged and swallowed.
 */
export async function logSecurityEvent({ db, ...given }: MonitoredEvent & { db: Database }): Promise<void> {
  const event = {
    eventType: given.eventType,
    severity: CRITICAL_EVENT_TYPES.has(given.eventType) ? 'critical' : given.severity,
    userId: given.userId ?? null,
    userEmail: given.userEmail ?? null,
    ipAddress: given.ipAddress ?? null,
    details: redactDetails(given.details ?? {}),
  } as const;
  await db.insert(securityAuditLog).values(event);
  await observeSecurityEvent({ db, event });
}

/**
 * Records one probe (a member on a staff route, a refused input that looks like an injection, a bulk
 * read past normal use) as part of its burst: one row per source (IP), type and window of
 * SECURITY_MONITOR.probeWindowMs, whose `details.count` grows with each probe, so a flood of requests
 * is one row, not thousands. Past `probeSourcesPerWindow` sources of one type in a window (a botnet,
 * or a tool giving each request its own forwarded address) the rest share one row without an IP.
 * Every probe still goes to the monitor (threat score, the spec's critical alert) one by one.
 *
 * The row's id is made from (type, source, window), so concurrent probes of one burst meet on the
 * primary key (an atomic upsert) in every process.
 */
export async function logProbeEvent({
  db,
  eventType,
  severity,
  userId,
  userEmail,
  ipAddress,
  details = {},
}: Omit<MonitoredEvent, 'eventType'> & { db: Database; eventType: ProbeEventType }): Promise<void> {
  const now = monitorNow(db);
  const windowStart = Math.floor(now / S.probeWindowMs) * S.probeWindowMs;
  const safe = redactDetails(details);
  const at = new Date(now).toISOString();
  const row = (source: string | null) => ({
    id: burstId(eventType, source ?? '*', windowStart),
    eventType,
    severity,
    userId: source === null ? null : (userId ?? null),
    userEmail: source === null ? null : (userEmail ?? null),
    ipAddress: source,
    details: { ...(source === null ? { sources: 'many' } : safe), count: 1, firstSeenAt: at, lastSeenAt: at, windowMinutes: S.probeWindowMs / 60_000 },
  });
  const upsert = (values: ReturnType<typeof row>) =>
    db
      .insert(securityAuditLog)
      .values(values)
      .onConflictDoUpdate({
        target: securityAuditLog.id,
        set: {
          details: sql`${securityAuditLog.details} || jsonb_build_object('count', coalesce((${securityAuditLog.details}->>'count')::int, 1) + 1, 'lastSeenAt', ${at}::text)`,
        },
      })
      .returning({ inserted: sql<boolean>`(xmax = 0)` });

  const source = ipAddress || null;
  const made = (await upsert(row(source))).at(0);
  if (source !== null && made?.inserted) {
    // A new source this window: within the cap it keeps its row, past it the row goes to the shared one.
    const { count } = await createDatabaseRateLimitStore(db, () => now).hit(`probe:sources:${eventType}:${windowStart}`, S.probeWindowMs);
    if (count > S.probeSourcesPerWindow) {
      await db.delete(securityAuditLog).where(eq(securityAuditLog.id, row(source).id));
      await upsert(row(null));
    }
  }
  await observeSecurityEvent({ db, event: { eventType, severity, userId: userId ?? null, userEmail: userEmail ?? null, ipAddress: ipAddress ?? null, details: safe } });
}

/** A UUID made from the burst's identity (the first 16 bytes of a SHA-256, shaped as a version-8 UUID). */
function burstId(eventType: string, source: string, windowStart: number): string {
  const hex = createHash('sha256').update(`${eventType}\n${source}\n${windowStart}`).digest('hex');
  const variant = ((parseInt(hex.charAt(16), 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
