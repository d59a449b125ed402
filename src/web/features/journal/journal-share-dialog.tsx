/**
 * "Share with someone you trust" (issue 36, item 5; decision 0050): the entry, and a summary if
 * chosen, sealed here under a fresh key; the server gets the ciphertext and the expiry; the link,
 * with its key after `#`, is shown once, to copy.
 */
import Copy from 'lucide-react/icons/copy';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState, type SubmitEvent } from 'react';
import { journalShareApi } from '#shared/contracts/journal-share.routes.ts';
import { localDay } from '#shared/days.ts';
import type { JournalEntry } from '#shared/journal.ts';
import { SHARE_EXPIRY_DAYS, SHARE_MESSAGES as M, summariseJournal, type ShareExpiryDays } from '#shared/journal-share.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Dialog } from '#web/components/ui/dialog.tsx';
import { FieldHint, FieldLabel, FormProblem } from '#web/components/ui/field.tsx';
import { SHARE_LINKS_QUERY_KEY } from '#web/features/journal/journal-shared-links.tsx';
import { shareLink, shareRequest } from '#web/features/journal/journal-share-crypto.ts';
import { ApiError } from '#web/lib/api.ts';
import { call } from '#web/lib/call.ts';
import { toast } from '#web/lib/toast.ts';
import { platform } from '#web/platform/platform.ts';

/** The link's address: this server's page for the id (inside the apps, the server they talk to), then the key. */
function linkFor(id: string, key: string): string {
  const page = new URL(platform().apiUrl(`/shared/${id}`), window.location.href);
  return shareLink(page.origin, id, key);
}

export function ShareEntryDialog({ entry, entries, onClose }: { entry: JournalEntry; entries: readonly JournalEntry[]; onClose: () => void }) {
  const [days, setDays] = useState<ShareExpiryDays>(7);
  const [withSummary, setWithSummary] = useState(false);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState('');
  const [link, setLink] = useState<string | null>(null);
  const queryClient = useQueryClient();
  const id = useId();

  const create = async (event: SubmitEvent) => {
    event.preventDefault();
    setBusy(true);
    setProblem('');
    try {
      const summary = withSummary ? summariseJournal(entries, localDay(new Date())) : null;
      const { body, key } = await shareRequest({ version: 1, entry, summary }, days);
      const created = await call(journalShareApi.create, { body });
      setLink(linkFor(created.id, key));
      void queryClient.invalidateQueries({ queryKey: SHARE_LINKS_QUERY_KEY });
    } catch (error) {
      setProblem(error instanceof ApiError ? error.message : M.createFailed);
    } finally {
      setBusy(false);
    }
  };

  const copy = async () => {
    if (!link) return;
    try {
      await navigator.clipboard.writeText(link);
      toast.success(M.copied);
    } catch {
      toast.error(M.copyFailed);
    }
  };

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title={M.dialogTitle} description={M.dialogBody}>
      {link ? (
        <div className="mt-6 grid gap-3">
          <div>
            <FieldLabel htmlFor={`${id}-link`}>{M.linkLabel}</FieldLabel>
            <div className="flex gap-2">
              <input
                id={`${id}-link`}
                readOnly
                value={link}
                aria-describedby={`${id}-link-hint`}
                onFocus={(event) => event.target.select()}
                className="h-12 min-w-0 flex-1 rounded-2xl border border-stone-300 bg-stone-50 px-4 font-mono text-sm text-stone-900 focus:border-teal-600 focus:outline-none focus:ring-2 focus:ring-teal-600/30 dark:border-stone-700 dark:bg-stone-950 dark:text-stone-50"
              />
              <Button type="button" variant="outline" onClick={() => void copy()}>
                <Copy className="size-4" aria-hidden /> {M.copy}
              </Button>
            </div>
            <FieldHint id={`${id}-link-hint`}>{M.linkHint}</FieldHint>
          </div>
          <div className="flex justify-end">
            <Button type="button" onClick={onClose}>
              Done
            </Button>
          </div>
        </div>
      ) : (
        <form className="mt-6 grid gap-5" onSubmit={(event) => void create(event)}>
          <fieldset>
            <legend className="mb-2 text-sm font-medium text-stone-700 dark:text-stone-200">{M.expiryLegend}</legend>
            <div className="flex flex-wrap gap-4">
              {SHARE_EXPIRY_DAYS.map((choice) => (
                <label key={choice} className="flex items-center gap-2 text-stone-800 dark:text-stone-100">
                  <input type="radio" name={`${id}-expiry`} className="size-4 accent-teal-700" checked={days === choice} onChange={() => setDays(choice)} />
                  {M.expiryLabel(choice)}
                </label>
              ))}
            </div>
          </fieldset>
          <div>
            <label className="flex items-start gap-3 text-sm text-stone-700 dark:text-stone-200">
              <input type="checkbox" className="mt-1 size-4 accent-teal-700" checked={withSummary} aria-describedby={`${id}-summary-hint`} onChange={(event) => setWithSummary(event.target.checked)} />
              {M.summaryLabel}
            </label>
            <FieldHint id={`${id}-summary-hint`} className="mt-1 pl-7">
              {M.summaryHint}
            </FieldHint>
          </div>
          <FormProblem>{problem}</FormProblem>
          <div className="flex justify-end gap-3">
            <Button type="button" variant="outline" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={busy} aria-busy={busy}>
              {busy ? M.creating : M.create}
            </Button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
