/** Waitlist tab: the table, refreshed on load, every 30 s and on focus; export, clear and sandbox tools. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Download, RefreshCw, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { ADMIN_MESSAGES as A } from '#shared/admin.ts';
import { WAITLIST, WAITLIST_MESSAGES as W } from '#shared/waitlist.ts';
import type { TestToolResponse } from '#shared/contracts/admin.ts';
import type { WaitlistEntriesResponse } from '#shared/contracts/waitlist.ts';
import { Button } from '#web/components/ui/button.tsx';
import { ConfirmDialog } from '#web/components/ui/confirm-dialog.tsx';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { dateTime, Panel } from '#web/features/admin/admin-ui.tsx';
import { recordLocalAudit } from '#web/features/admin/local-audit-log.ts';
import { api, ApiError } from '#web/lib/api.ts';
import { downloadBlob } from '#web/lib/download.ts';

const KEY = ['admin', 'waitlist'] as const;

export function WaitlistTab({ sandbox }: { sandbox: boolean }) {
  const client = useQueryClient();
  const entries = useQuery({
    queryKey: KEY,
    queryFn: ({ signal }) => api<WaitlistEntriesResponse>('/api/admin/waitlist', { signal }).then((r) => r.entries),
    refetchInterval: WAITLIST.refreshMs,
    refetchOnWindowFocus: true,
  });
  const [confirmClear, setConfirmClear] = useState(false);
  const refresh = () => client.invalidateQueries({ queryKey: KEY });
  // Each button is one mutation with the spec's success and failure toasts.
  const useTool = (path: string, success: string, failure: string, method: 'POST' | 'DELETE' = 'POST') =>
    useMutation({
      mutationFn: () => api<TestToolResponse>(path, { method }),
      onSuccess: (data) => {
        recordLocalAudit({ action: `${method.toLowerCase()} ${path}`, targetResource: 'waitlist_entries', severity: method === 'DELETE' ? 'high' : 'low' });
        toast.success(success, { description: data.password ? `Password for the test accounts: ${data.password}` : undefined });
        void refresh();
      },
      onError: (error) => toast.error('Error', { description: error instanceof ApiError ? `${failure}: ${error.message}` : failure }),
    });
  const addTest = useTool('/api/admin/waitlist/test-data', A.testDataAdded, 'Failed to add test data');
  const createAccounts = useTool('/api/admin/test-accounts', A.testAccountsCreated, 'Failed to create test accounts');
  const resetPasswords = useTool('/api/admin/test-accounts/reset-passwords', A.passwordsReset, 'Failed to reset passwords');
  const clear = useTool('/api/admin/waitlist', A.waitlistCleared, 'Error clearing data', 'DELETE');

  const exportCsv = async () => {
    if (!entries.data?.length) return void toast.info(A.noDataToExport);
    try {
      const response = await fetch('/api/admin/waitlist/export', { credentials: 'same-origin' });
      if (!response.ok) throw new Error(String(response.status));
      const name = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? 'waitlist-entries.csv';
      downloadBlob(name, await response.blob());
      toast.success(A.exportSuccessful);
      recordLocalAudit({ action: 'waitlist.export', targetResource: 'waitlist_entries', metadata: { rows: entries.data.length } });
    } catch {
      toast.error('Error', { description: 'Export failed' });
    }
  };

  return (
    <Panel
      title="Waitlist"
      actions={
        <>
          {sandbox ? (
            <>
              <Button size="sm" variant="outline" onClick={() => addTest.mutate()} disabled={addTest.isPending}>
                Add Test Data
              </Button>
              <Button size="sm" variant="outline" onClick={() => createAccounts.mutate()} disabled={createAccounts.isPending}>
                Create Test Accounts
              </Button>
              <Button size="sm" variant="outline" onClick={() => resetPasswords.mutate()} disabled={resetPasswords.isPending}>
                Reset Passwords
              </Button>
            </>
          ) : null}
          <Button size="sm" variant="outline" onClick={() => void client.refetchQueries({ queryKey: KEY })}>
            Force Refresh
          </Button>
          <Button size="sm" variant="outline" onClick={() => void refresh()}>
            <RefreshCw className="size-4" aria-hidden /> Refresh
          </Button>
          <Button size="sm" variant="secondary" onClick={() => void exportCsv()}>
            <Download className="size-4" aria-hidden /> Export CSV
          </Button>
          <Button size="sm" variant="ghost" onClick={() => setConfirmClear(true)}>
            <Trash2 className="size-4" aria-hidden /> Clear Data
          </Button>
        </>
      }
    >
      {entries.isPending ? (
        <Spinner label="Loading the waitlist..." />
      ) : entries.isError ? (
        <p role="alert">The waitlist could not be loaded: {entries.error.message}</p>
      ) : entries.data.length === 0 ? (
        <p className="py-6 text-center text-stone-600 dark:text-stone-300">{W.empty}</p>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full min-w-[40rem] text-left text-sm" data-testid="waitlist-table">
            <caption className="sr-only">{entries.data.length} waitlist entries, newest first</caption>
            <thead className="text-stone-500 dark:text-stone-400">
              <tr>
                {['Name', 'Email', 'Reason', 'Date'].map((h) => (
                  <th key={h} scope="col" className="border-b border-stone-200 py-2 pr-4 font-medium dark:border-stone-800">
                    {h}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {entries.data.map((e) => (
                <tr key={e.id} className="border-b border-stone-100 align-top dark:border-stone-800/60">
                  <td className="py-2 pr-4 font-medium text-stone-900 dark:text-stone-50">{e.name}</td>
                  <td className="py-2 pr-4">{e.email}</td>
                  <td className="max-w-xs py-2 pr-4 text-stone-600 dark:text-stone-300">{e.reason ?? '—'}</td>
                  <td className="whitespace-nowrap py-2 pr-4">{dateTime(e.createdAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <ConfirmDialog open={confirmClear} onOpenChange={setConfirmClear} title="Clear Data" description={W.clearConfirm} confirmLabel="Clear all entries" onConfirm={() => clear.mutate()} />
    </Panel>
  );
}
