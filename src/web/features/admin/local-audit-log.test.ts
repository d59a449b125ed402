// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import { LOCAL_AUDIT, readLocalAudit, recordLocalAudit, trim, type LocalAuditEvent } from '#web/features/admin/local-audit-log.ts';

const event = (i: number, severity: LocalAuditEvent['severity'] = 'medium'): LocalAuditEvent => ({
  id: String(i),
  timestamp: new Date(i).toISOString(),
  adminUserId: null,
  action: 'x',
  targetResource: 'y',
  targetId: null,
  changes: {},
  metadata: {},
  userAgent: '',
  severity,
});

describe('local admin audit log', () => {
  beforeEach(() => localStorage.clear());

  it('records newest first with sensitive fields redacted and long strings cut', () => {
    recordLocalAudit({ action: 'role.assign', targetResource: 'user_roles', changes: { email: 'a@b.co', csrfToken: 'abc' }, metadata: { note: 'n'.repeat(500), apiKey: 'k' } });
    recordLocalAudit({ action: 'waitlist.clear', targetResource: 'waitlist_entries', severity: 'high' });
    const [latest, first] = readLocalAudit();
    expect(latest.action).toBe('waitlist.clear');
    expect(first.changes).toEqual({ email: 'a@b.co', csrfToken: '[REDACTED]' });
    expect(first.metadata.apiKey).toBe('[REDACTED]');
    expect((first.metadata.note as string).length).toBe(LOCAL_AUDIT.stringMax);
  });

  it('keeps at most 200 entries and never trims a critical one while others remain', () => {
    const events = [event(1000, 'critical'), ...Array.from({ length: 250 }, (_, i) => event(i)), event(-1, 'critical')];
    const kept = trim(events);
    expect(kept).toHaveLength(200);
    expect(kept.filter((e) => e.severity === 'critical')).toHaveLength(2);
    expect(kept[0].id).toBe('1000');
  });

  it('survives a damaged store', () => {
    localStorage.setItem(LOCAL_AUDIT.key, '{oops');
    expect(readLocalAudit()).toEqual([]);
    recordLocalAudit({ action: 'a', targetResource: 'b' });
    expect(readLocalAudit()).toHaveLength(1);
  });
});
