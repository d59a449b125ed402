/**
 * The browser's own copy of admin actions (spec: key admin_audit_logs, at most 200 entries,
 * critical ones kept when trimming, sensitive fields redacted, metadata strings cut to 200).
 * The server's admin_audit_log is the record that counts; this copy is for diagnostics on the
 * device an admin used, and survives nothing an attacker cannot erase.
 */
import type { Severity } from '#shared/admin.ts';

export type LocalAuditEvent = {
  id: string;
  timestamp: string;
  adminUserId: string | null;
  action: string;
  targetResource: string;
  targetId: string | null;
  changes: Record<string, unknown>;
  metadata: Record<string, unknown>;
  userAgent: string;
  severity: Severity;
};

export const LOCAL_AUDIT = { key: 'admin_audit_logs', max: 200, stringMax: 200 } as const;
const SENSITIVE = /password|token|key|secret/i;

function redact(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(record).map(([name, value]) => [name, SENSITIVE.test(name) ? '[REDACTED]' : typeof value === 'string' && value.length > LOCAL_AUDIT.stringMax ? value.slice(0, LOCAL_AUDIT.stringMax) : value]),
  );
}

export function readLocalAudit(storage: Storage = localStorage): LocalAuditEvent[] {
  try {
    const parsed: unknown = JSON.parse(storage.getItem(LOCAL_AUDIT.key) ?? '[]');
    return Array.isArray(parsed) ? (parsed as LocalAuditEvent[]) : [];
  } catch {
    return [];
  }
}

/** Keeps the newest entries within the cap, never dropping a critical one while others remain. */
export function trim(events: LocalAuditEvent[], max: number = LOCAL_AUDIT.max): LocalAuditEvent[] {
  if (events.length <= max) return events;
  const out = [...events];
  for (let i = out.length - 1; i >= 0 && out.length > max; i--) if (out[i].severity !== 'critical') out.splice(i, 1);
  return out.length > max ? out.slice(0, max) : out;
}

export function recordLocalAudit(
  event: Pick<LocalAuditEvent, 'action' | 'targetResource'> & Partial<Pick<LocalAuditEvent, 'targetId' | 'changes' | 'metadata' | 'severity' | 'adminUserId'>>,
  storage: Storage = localStorage,
  now: Date = new Date(),
): void {
  const entry: LocalAuditEvent = {
    id: `${now.getTime()}-${Math.random().toString(36).slice(2, 8)}`,
    timestamp: now.toISOString(),
    adminUserId: event.adminUserId ?? null,
    action: event.action,
    targetResource: event.targetResource,
    targetId: event.targetId ?? null,
    changes: redact(event.changes ?? {}),
    metadata: redact(event.metadata ?? {}),
    userAgent: typeof navigator === 'undefined' ? '' : navigator.userAgent,
    severity: event.severity ?? 'medium',
  };
  try {
    storage.setItem(LOCAL_AUDIT.key, JSON.stringify(trim([entry, ...readLocalAudit(storage)])));
  } catch {
    /* a full or blocked store only loses this diagnostic copy */
  }
}
