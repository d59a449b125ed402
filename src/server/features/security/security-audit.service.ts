/** Writes and reads the server-side security audit log (spec: security_audit_log). */
import type { Database } from '#server/db/client.ts';
import { securityAuditLog } from '#server/db/schema/auth.ts';
import { CRITICAL_EVENT_TYPES, observeSecurityEvent, type MonitoredEvent } from '#server/features/security/security-monitor.ts';

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
export async function logSecurityEvent({
  db,
  eventType,
  severity,
  userId,
  userEmail,
  ipAddress,
  details = {},
}: MonitoredEvent & { db: Database }): Promise<void> {
  const event = {
    eventType,
    severity: CRITICAL_EVENT_TYPES.has(eventType) ? 'critical' : severity,
    userId: userId ?? null,
    userEmail: userEmail ?? null,
    ipAddress: ipAddress ?? null,
    details: redactDetails(details),
  } as const;
  await db.insert(securityAuditLog).values(event);
  await observeSecurityEvent({ db, event });
}
