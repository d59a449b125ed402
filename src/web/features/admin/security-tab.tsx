/**
 * Security Log tab: statistics (refreshing every 30 s), recent events and the filterable full list.
 * Critical Alerts and Blocked IPs come from the server's security monitor; an alert or a block also
 * says which rule raised it.
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { ADMIN, ADMIN_MESSAGES, EVENT_TYPE_OPTIONS, PROBE_EVENT_TYPES, SEVERITY_OPTIONS, type SecurityEventType, type Severity } from '#shared/admin.ts';
import { toast } from '#web/lib/toast.ts';
import type { SecurityEvent } from '#shared/contracts/admin.ts';
import { adminApi } from '#shared/contracts/admin.routes.ts';
import { queryKeyOf } from '#shared/contracts/route.ts';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { dateTime, FilterSelect, Panel, SeverityBadge } from '#web/features/admin/admin-ui.tsx';
import { call } from '#web/lib/call.ts';

export function SecurityTab() {
  const stats = useQuery({ queryKey: queryKeyOf(adminApi.securityStats), queryFn: ({ signal }) => call(adminApi.securityStats, {}, { signal }), refetchInterval: ADMIN.statsRefreshMs });
  const [severity, setSeverity] = useState('all');
  const [eventType, setEventType] = useState('all');
  const input = { query: { severity: severity === 'all' ? undefined : (severity as Severity), eventType: eventType === 'all' ? undefined : (eventType as SecurityEventType) } };
  const events = useQuery({
    queryKey: queryKeyOf(adminApi.securityEvents, input),
    queryFn: ({ signal }) => call(adminApi.securityEvents, input, { signal }).then((r) => r.events),
    refetchInterval: ADMIN.statsRefreshMs,
  });
  // Spec 'Toasts': 'Error' with 'Failed to fetch security audit logs', once per failure (not on every refetch).
  const failedAt = events.isError ? events.errorUpdatedAt : 0;
  useEffect(() => {
    if (failedAt) toast.error('Error', { description: ADMIN_MESSAGES.securityLogsFailed });
  }, [failedAt]);
  const cards: [string, number | undefined][] = [
    ['Total Alerts 24h', stats.data?.totalAlerts24h],
    ['Critical Alerts', stats.data?.criticalAlerts],
    ['Recent Threats 1h', stats.data?.recentThreats1h],
    ['Blocked IPs', stats.data?.blockedIps],
  ];
  return (
    <div className="grid gap-6">
      <dl className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        {cards.map(([label, value]) => (
          <div key={label} className="rounded-2xl bg-white p-4 ring-1 ring-stone-200 dark:bg-stone-900 dark:ring-stone-800">
            <dt className="text-sm text-stone-500 dark:text-stone-400">{label}</dt>
            <dd className="mt-1 font-serif text-3xl font-semibold text-stone-900 dark:text-stone-50">{value ?? '–'}</dd>
          </div>
        ))}
      </dl>
      <Panel title="Recent events">
        {stats.isPending ? <Spinner label="Loading..." /> : <EventList events={stats.data?.recent ?? []} label="Recent security events" />}
      </Panel>
      <Panel
        title="All security events"
        actions={
          <>
            <FilterSelect label="Severity" allLabel="All severities" options={SEVERITY_OPTIONS} value={severity} onChange={setSeverity} />
            <FilterSelect label="Event type" allLabel="All event types" options={EVENT_TYPE_OPTIONS} value={eventType} onChange={setEventType} />
          </>
        }
      >
        {events.isPending ? <Spinner label="Loading..." /> : events.isError ? <p role="alert">{ADMIN_MESSAGES.securityLogsFailed}</p> : <EventList events={events.data} label="Security events" />}
      </Panel>
    </div>
  );
}

const isProbe = (eventType: string) => (PROBE_EVENT_TYPES as readonly string[]).includes(eventType);

/** The monitor's rule behind an alert (alertType) or a block (reason); what a probe was (its kind or reason). */
function cause(e: SecurityEvent): string | undefined {
  const value = e.details.alertType ?? (e.eventType === 'ip_blocked' ? e.details.reason : isProbe(e.eventType) ? (e.details.kind ?? e.details.reason) : undefined);
  return typeof value === 'string' ? value : undefined;
}

/** How many probes one row stands for (a burst is one row with a count), or undefined for a single event. */
function countOf(e: SecurityEvent): number | undefined {
  const count = e.details.count;
  return typeof count === 'number' && isProbe(e.eventType) ? count : undefined;
}

function EventList({ events, label }: { events: SecurityEvent[]; label: string }) {
  if (events.length === 0) return <p className="text-stone-600 dark:text-stone-300">No events.</p>;
  return (
    <ul className="divide-y divide-stone-200 text-sm dark:divide-stone-800" aria-label={label}>
      {events.map((e) => (
        <li key={e.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 py-2">
          <SeverityBadge severity={e.severity} />
          <span className="font-medium text-stone-900 dark:text-stone-50">{e.eventType}</span>
          {countOf(e) !== undefined ? (
            <span className="rounded bg-stone-900 px-1.5 text-xs font-semibold text-white dark:bg-stone-100 dark:text-stone-900" aria-label={`${countOf(e)} times`}>
              ×{countOf(e)}
            </span>
          ) : null}
          {cause(e) ? <span className="rounded bg-stone-100 px-1.5 font-mono text-xs text-stone-700 dark:bg-stone-800 dark:text-stone-200">{cause(e)}</span> : null}
          {typeof e.details.route === 'string' && isProbe(e.eventType) ? <span className="font-mono text-xs text-stone-600 dark:text-stone-300">{e.details.route}</span> : null}
          <span className="text-stone-500 dark:text-stone-400">{e.userEmail ?? 'anonymous'}</span>
          <span className="text-stone-500 dark:text-stone-400">{e.ipAddress ?? (e.details.sources === 'many' ? 'many sources' : '')}</span>
          <span className="ml-auto text-stone-500 dark:text-stone-400">{dateTime(e.createdAt)}</span>
        </li>
      ))}
    </ul>
  );
}
