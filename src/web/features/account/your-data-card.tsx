/**
 * Account › Settings › Your data (issue 18): download everything the server holds about you (with
 * the journal opened, when it is unlocked on this device), or delete the account. Deleting asks for the
 * password (or a recent sign-in for Apple and Google accounts) and the typed word, says what happens
 * to a subscription first, and says every refusal in the dialog.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import Download from 'lucide-react/icons/download';
import Trash2 from 'lucide-react/icons/trash-2';
import { useId, useState, type SubmitEvent } from 'react';
import { Link, useNavigate } from 'react-router';
import { ACCOUNT_MESSAGES as A, APP_STORE_CANCEL_PATH, DELETE_CONFIRMATION_WORD, PLAY_STORE_CANCEL_PATH } from '#shared/account-messages.ts';
import { accountApi } from '#shared/contracts/account.routes.ts';
import { queryKeyOf } from '#shared/contracts/route.ts';
import { STORAGE_KEYS } from '#shared/constants.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Dialog } from '#web/components/ui/dialog.tsx';
import { Field } from '#web/components/ui/field.tsx';
import { ApiError } from '#web/lib/api.ts';
import { call } from '#web/lib/call.ts';
import { forgetPersonalData } from '#web/lib/forget-personal-data.ts';
import { removeStored } from '#web/lib/storage.ts';
import { toast } from '#web/lib/toast.ts';

const messageOf = (error: unknown, fallback: string) => (error instanceof ApiError && error.message ? error.message : fallback);

export function YourDataCard() {
  const [downloading, setDownloading] = useState(false);
  const [downloadError, setDownloadError] = useState<string | null>(null);
  const [journalLeftOut, setJournalLeftOut] = useState(false);
  const [deleting, setDeleting] = useState(false);

  const download = async () => {
    setDownloading(true);
    setDownloadError(null);
    try {
      const data = await call(accountApi.export);
      // The server holds the journal sealed; when it is unlocked on this device, the file carries it opened.
      const { unlockedJournal } = await import('#web/features/journal/journal-export.ts');
      const journal = await unlockedJournal(data.profile.id);
      // Loaded at the tap (web: the download; apps: the share sheet), not with the page.
      const { saveFileAndSay } = await import('#web/platform/save-file.ts');
      await saveFileAndSay(`harbour-mind-data-${data.exportedAt.slice(0, 10)}.json`, 'application/json', JSON.stringify({ ...data, journalEntries: journal }, null, 2));
      setJournalLeftOut(journal === null && data.journal.hasKeyring);
    } catch (error) {
      setDownloadError(messageOf(error, A.downloadFailed));
    } finally {
      setDownloading(false);
    }
  };

  return (
    <section aria-labelledby="your-data-heading">
      <h2 id="your-data-heading" className="font-serif text-2xl font-semibold text-stone-900 dark:text-stone-50">
        {A.dataHeading}
      </h2>
      <p className="mt-1 text-stone-600 dark:text-stone-300">
        One file with everything we hold about you: profile, sign-in methods, devices, subscription, favourites, practice and settings, plus your journal entries when the journal is unlocked on this device.
      </p>
      <div className="mt-4 flex flex-wrap gap-3">
        <Button variant="outline" onClick={() => void download()} disabled={downloading} aria-busy={downloading}>
          <Download className="size-4" aria-hidden /> {downloading ? A.downloadingData : A.downloadData}
        </Button>
        <Button variant="ghost" onClick={() => setDeleting(true)}>
          <Trash2 className="size-4" aria-hidden /> {A.deleteAccount}
        </Button>
      </div>
      {journalLeftOut ? (
        <p role="status" className="mt-3 text-sm text-stone-600 dark:text-stone-300">
          Your journal is not in this file: it is locked on this device. Unlock it on the <Link to="/journal" className="font-semibold underline underline-offset-4">Journal</Link> page, then download again to include it.
        </p>
      ) : null}
      {downloadError ? (
        <p role="alert" className="mt-3 text-sm text-rose-800 dark:text-rose-200">
          {downloadError}
        </p>
      ) : null}
      {deleting ? <DeleteAccountDialog onClose={() => setDeleting(false)} /> : null}
    </section>
  );
}

function DeleteAccountDialog({ onClose }: { onClose: () => void }) {
  const info = useQuery({ queryKey: queryKeyOf(accountApi.deletion), queryFn: ({ signal }) => call(accountApi.deletion, {}, { signal }), staleTime: 0 });
  const client = useQueryClient();
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const confirmId = useId();
  const ready = confirmation.trim() === DELETE_CONFIRMATION_WORD && (!info.data?.hasPassword || password.length > 0);

  const submit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!info.data || busy) return;
    if (confirmation.trim() !== DELETE_CONFIRMATION_WORD) {
      setProblem(A.deleteConfirmWrong);
      return;
    }
    if (info.data.hasPassword && !password) {
      setProblem(A.deletePasswordMissing);
      return;
    }
    setBusy(true);
    setProblem(null);
    try {
      const result = await call(accountApi.delete, { body: { password: info.data.hasPassword ? password : undefined, confirmation } });
      // Nothing of the account stays in this browser's memory, offline snapshot, journal or routines.
      client.clear();
      removeStored(STORAGE_KEYS.viewerSnapshot);
      await forgetPersonalData();
      toast.success(A.deleted, { description: result.appStoreSubscription ? `${A.deletedBody} Your App Store subscription still runs: cancel it in ${APP_STORE_CANCEL_PATH}.` : A.deletedBody, duration: 10_000 });
      void navigate('/', { replace: true });
    } catch (error) {
      setProblem(messageOf(error, A.deleteFailed));
      setBusy(false);
    }
  };

  return (
    <Dialog open onOpenChange={(open) => !open && !busy && onClose()} title={A.deleteHeading} description="This cannot be undone.">
      <form onSubmit={(event) => void submit(event)} className="mt-4 grid gap-4" aria-label={A.deleteHeading} noValidate>
        <ul className="list-disc space-y-1 pl-5 text-sm text-stone-700 dark:text-stone-300">
          <li>Your profile, sign-in, devices, favourites, practice and settings are deleted at once, and you can no longer sign in.</li>
          {info.data?.subscription === 'stripe' || info.data?.subscription === 'sandbox' ? <li>Your subscription is cancelled at once: nothing more is charged.</li> : null}
          {info.data?.subscription === 'app_store' ? (
            <li>
              <strong>Your App Store subscription is not cancelled by this.</strong> Only Apple can stop it: on your iPhone, go to {APP_STORE_CANCEL_PATH}.
            </li>
          ) : null}
          {info.data?.subscription === 'play_store' ? (
            <li>
              <strong>Your Google Play subscription is not cancelled by this.</strong> Only Google can stop it: on your phone, open {PLAY_STORE_CANCEL_PATH}.
            </li>
          ) : null}
          <li>Your encrypted journal is deleted too, from our servers and this browser. To keep a copy, unlock your journal on this device and download your data first.</li>
          <li>We e-mail you to confirm it is done.</li>
        </ul>
        {info.isPending ? <p className="text-sm text-stone-600 dark:text-stone-300">Loading...</p> : null}
        {info.isError ? (
          <p role="alert" className="text-sm text-rose-800 dark:text-rose-200">
            {messageOf(info.error, A.deleteFailed)}
          </p>
        ) : null}
        {info.data?.hasPassword ? (
          <Field label={A.deletePasswordLabel} type="password" autoComplete="current-password" maxLength={128} value={password} onChange={(event) => setPassword(event.target.value)} />
        ) : info.data ? (
          <p className="text-sm text-stone-600 dark:text-stone-300">For your safety, this works within 10 minutes of signing in with Apple or Google.</p>
        ) : null}
        <Field id={confirmId} label={A.deleteConfirmLabel} autoComplete="off" autoCapitalize="characters" spellCheck={false} maxLength={32} value={confirmation} onChange={(event) => setConfirmation(event.target.value)} />
        {problem ? (
          <p role="alert" data-testid="delete-problem" className="rounded-2xl bg-rose-50 px-4 py-3 text-sm text-rose-800 dark:bg-rose-950/50 dark:text-rose-200">
            {problem}
          </p>
        ) : null}
        <div className="flex flex-wrap justify-end gap-3">
          <Button variant="outline" onClick={onClose} disabled={busy}>
            Keep my account
          </Button>
          <Button type="submit" disabled={!ready || busy || !info.data} aria-busy={busy} variant="danger">
            {busy ? A.deleting : A.deleteAccount}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
