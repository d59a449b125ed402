// @vitest-environment jsdom
/** The Security Log tab shows the server's numbers on its four cards, every event type in its filter, and the monitor's rule. */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EVENT_TYPE_OPTIONS } from '#shared/admin.ts';
import { SecurityTab } from '#web/features/admin/security-tab.tsx';

const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
const alert = { id: 'a1', eventType: 'security_alert', severity: 'critical', userEmail: null, ipAddress: '203.0.113.9', details: { alertType: 'high_threat_score', score: 10.4 }, createdAt: '2026-11-24T10:00:00Z' };
const block = { id: 'b1', eventType: 'ip_blocked', severity: 'high', userEmail: null, ipAddress: '203.0.113.9', details: { reason: 'high_threat_score', minutes: 30 }, createdAt: '2026-11-24T10:00:01Z' };

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('Security Log tab', () => {
  it('shows Critical Alerts and Blocked IPs from the server, the rule behind each, and filters on every event type', async () => {
    const fetch = vi.fn((input: string) =>
      Promise.resolve(
        input.startsWith('/api/admin/security/stats')
          ? json({ totalAlerts24h: 7, criticalAlerts: 3, recentThreats1h: 2, blockedIps: 1, recent: [block, alert] })
          : json({ events: [block, alert] }),
      ),
    );
    vi.stubGlobal('fetch', fetch);
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <SecurityTab />
      </QueryClientProvider>,
    );

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
});
