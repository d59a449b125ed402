/** Waitlist tab: the table, refreshed on load, every 30 s and on focus; export, clear and sandbox tools. */
import { useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';
import Download from 'lucide-react/icons/download';
import RefreshCw from 'lucide-react/icons/refresh-cw';
import Trash2 from 'lucide-react/icons/trash-2';
import { useEffect, useState } from 'react';
import { toast } from '#web/lib/toast.ts';
import { ADMIN_EVENTS, ADMIN_MESSAGES as A } from '#shared/admin.ts';
import { WAITLIST, WAITLIST_MESSAGES as W } from '#shared/waitlist.ts';
import { adminApi } from '#shared/contracts/admin.routes.ts';
import { queryKeyOf } from '#shared/contracts/route.ts';
import { waitlistApi } from '#shared/contracts/waitlist.routes.ts';
import { Button } from '#web/components/ui/button.tsx';
import { ConfirmDialog } from '#web/components/ui/confirm-dialog.tsx';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { dateTime, Panel } from '#web/features/admin/admin-ui.tsx';
import { recordLocalAudit } from '#web/features/admin/local-audit-log.ts';
import { ApiError } from '#web/lib/api.ts';
import { call } from '#web/lib/call.ts';
import { downloadBlob } from '#web/lib/download.ts';

const KEY = queryKeyOf(waitlistApi.list);
/** The sandbox tools and Clear Data: each takes no input. */
type Tool = typeof waitlistApi.testData | typeof waitlistApi.clear | typeof adminApi.createTestAccounts | typeof adminApi.resetTestPasswords;

export function WaitlistTab({ sandbox }: { sandbox: boolean }) {
  const client = useQueryClient();
  // A page at a time (the list can hold hundreds of thousands); a refresh re-reads the pages shown.
  const pages = useInfiniteQuery({
    queryKey: KEY,
    queryFn: ({ signal, pageParam }) => call(waitlistApi.list, { query: { after: pageParam || undefined } }, { signal }),
    initialPageParam: '',
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    refetchInterval: WAITLIST.refreshMs,
    refetchOnWindowFocus: true,
  });
  // Spec 'Waitlist list refresh': also on a 'waitlist-updated' or 'force-refresh' event (the sign-up
  // form in another part of the app, the Force Refresh button); on load, every 30 s and on focus above.
  const { refetch } = pages;
  useEffect(() => {
    const reload = () => void refetch();
    window.addEventListener(ADMIN_EVENTS.waitlistUpdated, reload);
    window.addEventListener(ADMIN_EVENTS.forceRefresh, reload);
    return () => {
      window.removeEventListener(ADMIN_EVENTS.waitlistUpdated, reload);
      window.removeEventListener(ADMIN_EVENTS.forceRefresh, reload);
    };
  }, [refetch]);
  const entries = pages.data?.pages.flatMap((page) => page.entries) ?? [];
  const first = pages.data?.pages[0];
  const total = first?.total ?? 0;
  const totalText = `${first?.totalIsEstimate ? 'about ' : ''}${total.toLocaleString('en-GB')}`;
  const [confirmClear, setConfirmClear] = useState(false);
  const refresh = () => client.invalidateQueries({ queryKey: KEY });
  // Each button is one mutation with the spec's success and failure toasts.
  const useTool = (route: Tool, success: string, failure: string) =>
    useMutation({
      mutationFn: () => call(route),
      onSuccess: (data) => {
        recordLocalAudit({ action: `${route.method.toLowerCase()} ${route.path}`, targetResource: 'waitlist_entries', severity: route.method === 'DELETE' ? 'high' : 'low' });
        // Only Create Test Accounts answers with the password.
        toast.success(success, { description: 'password' in data ? `Password for the test accounts: ${data.password}` : undefined });
        void refresh();
      },
      onError: (error) => toast.error('Error', { description: error instanceof ApiError ? `${failure}: ${error.message}` : failure }),
    });
  const addTest = useTool(waitlistApi.testData, A.testDataAdded, 'Failed to add test data');
  const createAccounts = useTool(adminApi.createTestAccounts, A.testAccountsCreated, 'Failed to create test accounts');
  const resetPasswords = useTool(adminApi.resetTestPasswords, A.passwordsReset, 'Failed to reset passwords');
  const clear = useTool(waitlistApi.clear, A.waitlistCleared, 'Error clearing data');

  const exportCsv = async () => {
    if (total === 0) { toast.info(A.noDataToExport); return; }
    try {
      const response = await fetch('/api/admin/waitlist/export', { credentials: 'same-origin' });
      if (!response.ok) throw new Error(String(response.status));
      const name = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? 'waitlist-entries.csv';
      downloadBlob(name, await response.blob());
      toast.success(A.exportSuccessful);
      recordLocalAudit({ action: 'waitlist.export', targetResource: 'waitlist_entries', metadata: { rows: total } });
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
          <Button size="sm" variant="outline" onClick={() => window.dispatchEvent(new Event(ADMIN_EVENTS.forceRefresh))}>
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
      {pages.isPending ? (
        <Spinner label="Loading the waitlist..." />
      ) : pages.isError ? (
        <p role="alert">The waitlist could not be loaded: {pages.error.message}</p>
      ) : entries.length === 0 ? (
        <p className="py-6 text-center text-stone-600 dark:text-stone-300">{W.empty}</p>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full min-w-[40rem] text-left text-sm" data-testid="waitlist-table">
            <caption className="sr-only">{totalText} waitlist entries, newest first</caption>
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
              {entries.map((e) => (
                <tr key={e.id} className="border-b border-stone-100 align-top dark:border-stone-800/60">
                  <td className="py-2 pr-4 font-medium text-stone-900 dark:text-stone-50">{e.name}</td>
                  <td className="py-2 pr-4">{e.email}</td>
                  <td className="max-w-xs py-2 pr-4 text-stone-600 dark:text-stone-300">{e.reason ?? '—'}</td>
                  <td className="whitespace-nowrap py-2 pr-4">{dateTime(e.createdAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <div className="flex flex-wrap items-center justify-between gap-3 pt-3 text-sm text-stone-600 dark:text-stone-300">
            <p aria-live="polite">
              Showing {entries.length.toLocaleString('en-GB')} of {totalText} {total === 1 ? 'entry' : 'entries'}
            </p>
            {pages.hasNextPage ? (
              <Button size="sm" variant="outline" onClick={() => void pages.fetchNextPage()} disabled={pages.isFetchingNextPage}>
                {pages.isFetchingNextPage ? 'Loading...' : 'Show more'}
              </Button>
            ) : null}
          </div>
        </div>
      )}
      <ConfirmDialog open={confirmClear} onOpenChange={setConfirmClear} title="Clear Data" description={W.clearConfirm} confirmLabel="Clear all entries" onConfirm={() => clear.mutate()} />
    </Panel>
  );
}
