/**
 * "Shared links" (issue 36, item 5; decision 0050): the person's live links with their views and
 * expiry, each with "Revoke", which deletes the sealed copy on the server at once. The server does not
 * know which entry a link holds (it cannot read it), so a link is named by when it was made.
 */
import Link2 from 'lucide-react/icons/link-2';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { ShareLink } from '#shared/contracts/journal-share.ts';
import { journalShareApi } from '#shared/contracts/journal-share.routes.ts';
import { queryKeyOf } from '#shared/contracts/route.ts';
import { SHARE_MESSAGES as M } from '#shared/journal-share.ts';
import { Button } from '#web/components/ui/button.tsx';
import { ConfirmDialogFor } from '#web/components/ui/confirm-dialog.tsx';
import { ApiError } from '#web/lib/api.ts';
import { call } from '#web/lib/call.ts';
import { toast } from '#web/lib/toast.ts';

/** The person's links: the share dialog refreshes them after making one. */
export const SHARE_LINKS_QUERY_KEY = queryKeyOf(journalShareApi.list);

const when = (iso: string) => new Date(iso).toLocaleString('en-GB', { day: 'numeric', month: 'long', hour: '2-digit', minute: '2-digit' });

export function SharedLinks() {
  const queryClient = useQueryClient();
  const links = useQuery({ queryKey: SHARE_LINKS_QUERY_KEY, queryFn: ({ signal }) => call(journalShareApi.list, {}, { signal }) });
  const [confirm, setConfirm] = useState<ShareLink | null>(null);
  const revoke = useMutation({
    mutationFn: (id: string) => call(journalShareApi.revoke, { params: { id } }),
    onSuccess: () => toast.success(M.revoked),
    // Already gone (expired, or revoked on another device) is what was asked for.
    onError: (error) => (error instanceof ApiError && error.status === 404 ? toast.success(M.revoked) : toast.error(error instanceof ApiError ? error.message : M.listFailed)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: SHARE_LINKS_QUERY_KEY }),
  });

  return (
    <section aria-labelledby="shared-links-heading" className="mt-10">
      <h2 id="shared-links-heading" className="font-serif text-2xl font-semibold text-stone-900 dark:text-stone-50">
        {M.listHeading}
      </h2>
      {links.isPending ? (
        <p className="mt-4 text-stone-600 dark:text-stone-300">Loading your shared links...</p>
      ) : links.isError ? (
        <div className="mt-4 flex flex-wrap items-center gap-3">
          <p role="alert" className="text-rose-800 dark:text-rose-200">
            {M.listFailed}
          </p>
          <Button size="sm" variant="outline" onClick={() => void links.refetch()}>
            Try again
          </Button>
        </div>
      ) : links.data.links.length === 0 ? (
        <p className="mt-4 rounded-3xl bg-white p-6 text-stone-600 ring-1 ring-stone-200 dark:bg-stone-900 dark:text-stone-300 dark:ring-stone-800">{M.listEmpty}</p>
      ) : (
        <ul className="mt-4 grid gap-3" aria-label={M.listHeading}>
          {links.data.links.map((link) => (
            <li key={link.id} data-testid="shared-link" className="flex flex-wrap items-center justify-between gap-3 rounded-3xl bg-white p-5 ring-1 ring-stone-200 dark:bg-stone-900 dark:ring-stone-800">
              <div className="flex items-start gap-3">
                <Link2 className="mt-1 size-4 shrink-0 text-teal-700 dark:text-teal-300" aria-hidden />
                <p className="text-stone-800 dark:text-stone-100">
                  Shared {when(link.createdAt)}
                  <span className="block text-sm text-stone-600 dark:text-stone-300">
                    {link.views === 1 ? '1 view' : `${link.views} views`} · expires {when(link.expiresAt)}
                  </span>
                </p>
              </div>
              <Button size="sm" variant="outline" disabled={revoke.isPending && revoke.variables === link.id} onClick={() => setConfirm(link)}>
                {M.revoke}
              </Button>
            </li>
          ))}
        </ul>
      )}
      <ConfirmDialogFor subject={confirm} onClose={() => setConfirm(null)} title={M.revokeTitle} description={M.revokeBody} confirmLabel={M.revoke} onConfirm={(link) => revoke.mutate(link.id)} />
    </section>
  );
}
