/** Audit Log tab: the server-side record of admin actions (50 newest), filterable by severity. */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { SEVERITY_OPTIONS, type Severity } from '#shared/admin.ts';
import { adminApi } from '#shared/contracts/admin.routes.ts';
import { queryKeyOf } from '#shared/contracts/route.ts';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { dateTime, FilterSelect, Panel, SeverityBadge } from '#web/features/admin/admin-ui.tsx';
import { readLocalAudit } from '#web/features/admin/local-audit-log.ts';
import { call } from '#web/lib/call.ts';

export function AuditTab() {
  const [severity, setSeverity] = useState('all');
  const input = { query: { severity: severity === 'all' ? undefined : (severity as Severity) } };
  const events = useQuery({
    queryKey: queryKeyOf(adminApi.audit, input),
    queryFn: ({ signal }) => call(adminApi.audit, input, { signal }).then((r) => r.events),
  });
  return (
    <Panel
      title="Audit Log"
      actions={<FilterSelect label="Severity" allLabel="All severities" options={SEVERITY_OPTIONS} value={severity} onChange={setSeverity} />}
    >
      {events.isPending ? (
        <Spinner label="Loading the audit log..." />
      ) : events.isError ? (
        <p role="alert">The audit log could not be loaded.</p>
      ) : events.data.length === 0 ? (
        <p className="text-stone-600 dark:text-stone-300">No admin actions recorded{severity === 'all' ? '' : ` at ${severity} severity`}.</p>
      ) : (
        <ul className="divide-y divide-stone-200 text-sm dark:divide-stone-800" aria-label="Admin actions" data-testid="audit-list">
          {events.data.map((e) => (
            <li key={e.id} className="grid gap-1 py-3">
              <p className="flex flex-wrap items-center gap-2">
                <SeverityBadge severity={e.severity} />
                <span className="font-medium text-stone-900 dark:text-stone-50">{e.action}</span>
                <span className="text-stone-500 dark:text-stone-400">on {e.targetResource}</span>
              </p>
              <p className="text-stone-600 dark:text-stone-300">
                {e.adminEmail ?? 'unknown admin'} · {dateTime(e.createdAt)}
              </p>
              {Object.keys(e.changes).length ? <code className="break-all text-xs text-stone-500 dark:text-stone-400">{JSON.stringify(e.changes)}</code> : null}
            </li>
          ))}
        </ul>
      )}
      <LocalCopy />
    </Panel>
  );
}

/** The browser's diagnostic copy (spec: kept locally); the list above is the server's record. */
function LocalCopy() {
  const local = readLocalAudit().slice(0, 50);
  return (
    <details className="mt-6 rounded-2xl bg-stone-50 p-4 text-sm dark:bg-stone-800/60">
      <summary className="cursor-pointer font-medium">This browser's copy ({local.length})</summary>
      {local.length ? (
        <ul className="mt-2 grid gap-1">
          {local.map((e) => (
            <li key={e.id} className="flex flex-wrap items-center gap-2">
              <SeverityBadge severity={e.severity} /> {e.action} · {dateTime(e.timestamp)}
            </li>
          ))}
        </ul>
      ) : (
        <p className="mt-2 text-stone-500 dark:text-stone-400">No admin actions from this browser yet.</p>
      )}
    </details>
  );
}
