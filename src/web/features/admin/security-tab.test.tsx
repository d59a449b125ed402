// @vitest-environment jsdom
/** The Security Log tab shows the server's numbers on its four cards, every event type in its filter, and the monitor's rule. */
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EVENT_TYPE_OPTIONS } from '#shared/admin.ts';
import { Toaster } from 'sonner';
import { SecurityTab } from '#web/features/admin/security-tab.tsx';
import { answerFetch, json, renderWithQueries } from '#tests/setup/render-web.tsx';

const alert = { id: 'a1', eventType: 'security_alert', severity: 'critical', userId: null, userEmail: null, ipAddress: '203.0.113.9', details: { alertType: 'high_threat_score', score: 10.4 }, createdAt: '2026-11-24T10:00:00Z' };
const block = { id: 'b1', eventType: 'ip_blocked', severity: 'high', userId: null, userEmail: null, ipAddress: '203.0.113.9', details: { reason: 'high_threat_score', minutes: 30 }, createdAt: '2026-11-24T10:00:01Z' };

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('Security Log tab', () => {
  it('shows Critical Alerts and Blocked IPs from the server, the rule behind each, and filters on every event type', async () => {
    const fetch = answerFetch((url) =>
      url.startsWith('/api/admin/security/stats')
        ? json({ totalAlerts24h: 7, criticalAlerts: 3, recentThreats1h: 2, blockedIps: 1, recent: [block, alert] })
        : json({ events: [block, alert] }),
    );
    renderWithQueries(<SecurityTab />);

    // Each card: its term (<dt>) and the server's figure (<dd>) beside it, and no fifth card.
    const cards = () => Object.fromEntries(screen.getAllByRole('term').map((term) => [term.textContent, within(term.parentElement!).getByRole('definition').textContent]));
    await waitFor(() => expect(cards()).toEqual({ 'Total Alerts 24h': '7', 'Critical Alerts': '3', 'Recent Threats 1h': '2', 'Blocked IPs': '1' }));
    expect(screen.getAllByRole('term')).toHaveLength(4);
    expect(screen.getAllByText(/high_threat_score/).length).toBeGreaterThan(0);

    const typeFilter = screen.getByRole<HTMLSelectElement>('combobox', { name: /event type/i });
    expect([...typeFilter.options].map((o) => o.value)).toEqual(['all', ...EVENT_TYPE_OPTIONS]);

    await userEvent.setup().selectOptions(typeFilter, 'ip_blocked');
    await waitFor(() => expect(fetch.mock.calls.map(([url]) => url)).toContain('/api/admin/security/events?eventType=ip_blocked'));
  });

  it('shows a burst of probes as one row with its count, its kind and its route, the payload sample never as markup', async () => {
    const escalation = { id: 'p1', eventType: 'admin_privilege_escalation', severity: 'high', userId: 'u-member', userEmail: 'member@example.com', ipAddress: '198.51.100.4', details: { count: 6, reason: 'role-check', route: '/api/admin/roles', role: 'user' }, createdAt: '2026-11-24T10:00:02Z' };
    const injection = { id: 'p2', eventType: 'injection_attempt', severity: 'high', userId: null, userEmail: null, ipAddress: null, details: { count: 41, sources: 'many', kind: 'script', sample: '\\u003cscript\\u003e', route: '/api/waitlist' }, createdAt: '2026-11-24T10:00:03Z' };
    answerFetch((url) =>
      url.startsWith('/api/admin/security/stats')
        ? json({ totalAlerts24h: 2, criticalAlerts: 1, recentThreats1h: 2, blockedIps: 0, recent: [] })
        : json({ events: [escalation, injection] }),
    );
    renderWithQueries(<SecurityTab />);
    const list = await screen.findByRole('list', { name: 'Security events' });
    const [first, second] = within(list).getAllByRole('listitem');
    expect(first.textContent).toContain('admin_privilege_escalation');
    expect(within(first).getByLabelText('6 times').textContent).toBe('×6');
    expect(first.textContent).toContain('/api/admin/roles');
    expect(first.textContent).toContain('member@example.com');
    expect(within(second).getByLabelText('41 times')).toBeTruthy();
    expect(second.textContent).toContain('script');
    expect(second.textContent).toContain('many sources');
    expect(list.querySelector('script')).toBeNull();
  });

  it("says 'Failed to fetch security audit logs' in a toast and in place when the log cannot be read", async () => {
    answerFetch((url) =>
      url.startsWith('/api/admin/security/stats')
        ? json({ totalAlerts24h: 0, criticalAlerts: 0, recentThreats1h: 0, blockedIps: 0, recent: [] })
        : json({ error: { code: 'default', message: 'Something went wrong. Please try again later.' } }, 500),
    );
    renderWithQueries(
      <>
        <SecurityTab />
        <Toaster />
      </>,
    );
    expect(await screen.findByRole('alert')).toHaveProperty('textContent', 'Failed to fetch security audit logs');
    await waitFor(() => expect(screen.getAllByText('Failed to fetch security audit logs')).toHaveLength(2));
  });
});
