// @vitest-environment jsdom
/** The Security Log tab shows the server's numbers on its four cards, every event type in its filter, and the monitor's rule. */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EVENT_TYPE_OPTIONS } from '#shared/admin.ts';
import { SecurityTab } from '#web/features/admin/security-tab.tsx';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
const alert = { id: 'a1', eventType: 'security_alert', severity: 'critical', userEmail: null, ipAddress: '203.0.113.9', details: { alertType: 'high_threat_score', score: 10.4 }, createdAt: '2026-11-24T10:00:00Z' };
const block = { id: 'b1', eventType: 'ip_blocked', severity: 'high', userEmail: null, ipAddress: '203.0.113.9', details: { reason: 'high_threat_score', minutes: 30 }, createdAt: '2026-11-24T10:00:01Z' };

/** An async act: besides the work, it flushes the effects and promises the work sets off. */
const settle = (work: () => void) =>
  act(() => {
    work();
    return Promise.resolve();
  });

afterEach(() => {
  vi.unstubAllGlobals();
  document.body.innerHTML = '';
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
    const container = document.createElement('div');
    document.body.append(container);
    await settle(() => {
      createRoot(container).render(
        <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
          <SecurityTab />
        </QueryClientProvider>,
      );
    });
    await act(async () => new Promise((resolve) => setTimeout(resolve, 0)));

    const cards = Object.fromEntries([...container.querySelectorAll('dl > div')].map((d) => [d.querySelector('dt')!.textContent, d.querySelector('dd')!.textContent]));
    expect(cards).toEqual({ 'Total Alerts 24h': '7', 'Critical Alerts': '3', 'Recent Threats 1h': '2', 'Blocked IPs': '1' });
    expect(container.textContent).toContain('high_threat_score');

    const typeFilter = [...container.querySelectorAll('select')].find((s) => s.textContent.includes('All event types'))!;
    expect([...typeFilter.options].map((o) => o.value)).toEqual(['all', ...EVENT_TYPE_OPTIONS]);

    await settle(() => {
      typeFilter.value = 'ip_blocked';
      typeFilter.dispatchEvent(new Event('change', { bubbles: true }));
    });
    expect(fetch.mock.calls.map(([url]) => url)).toContain('/api/admin/security/events?eventType=ip_blocked');
  });
});
