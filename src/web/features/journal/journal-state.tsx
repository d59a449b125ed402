/**
 * Where the journal stands on this device (issue 18): opening, to be set up, locked, unreachable,
 * or open with its sync state, and the one-time offer of entries written before journals belonged
 * to accounts. Each state says what to do next in one place.
 */
import CloudOff from 'lucide-react/icons/cloud-off';
import LockKeyhole from 'lucide-react/icons/lock-keyhole';
import CloudCheck from 'lucide-react/icons/cloud-check';
import KeyRound from 'lucide-react/icons/key-round';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { JOURNAL_LOCK_MESSAGES as L } from '#shared/journal-keys.ts';
import { withNext } from '#shared/next-path.ts';
import { Button, buttonClasses, type ButtonProps } from '#web/components/ui/button.tsx';
import { ConfirmDialog } from '#web/components/ui/confirm-dialog.tsx';
import type { SyncState } from '#web/features/journal/journal-sync.ts';
import type { Journal } from '#web/features/journal/use-journal.ts';

type Props = { journal: Journal; onSetUp: () => void; onUnlock: () => void };

export function JournalState({ journal, onSetUp, onUnlock }: Props) {
  switch (journal.status) {
    case 'loading':
      return (
        <Card>
          <p aria-busy="true" className="text-stone-600 dark:text-stone-300">
            Opening your journal...
          </p>
        </Card>
      );
    case 'signed-out':
      return (
        <Card icon={<LockKeyhole className="size-5" aria-hidden />}>
          <p>{L.signedOutCard}</p>
          <Link to={withNext('/sign-in', '/journal')} className={buttonClasses({ className: 'mt-4' })}>
            Sign In
          </Link>
        </Card>
      );
    case 'set-up':
      return <ActionCard icon={<KeyRound className="size-5" aria-hidden />} message={L.setUpCard} action={L.setUpButton} onAction={onSetUp} />;
    case 'locked':
      return <ActionCard icon={<LockKeyhole className="size-5" aria-hidden />} message={L.lockedCard} action={L.unlockTitle} onAction={onUnlock} />;
    case 'unreachable':
    case 'failed':
      return (
        <ActionCard
          icon={<CloudOff className="size-5" aria-hidden />}
          alert
          message={journal.status === 'unreachable' ? L.unreachable : 'Your journal could not be opened. Please try again.'}
          action="Try again"
          variant="outline"
          onAction={journal.retry}
        />
      );
    case 'open':
      return (
        <>
          {journal.legacy.count > 0 ? <LegacyOffer journal={journal} /> : null}
          <SyncLine journal={journal} />
        </>
      );
  }
}

function Card({ icon, children }: { icon?: ReactNode; children: ReactNode }) {
  return (
    <section aria-label="Your journal on this device" className="mt-8 flex gap-3 rounded-3xl bg-white p-6 text-stone-700 ring-1 ring-stone-200 dark:bg-stone-900 dark:text-stone-200 dark:ring-stone-800">
      {icon ? <span className="mt-0.5 text-teal-700 dark:text-teal-300">{icon}</span> : null}
      <div>{children}</div>
    </section>
  );
}

/** A state with one thing to do: what to know (an alert when something went wrong) and the button that does it. */
function ActionCard({ icon, message, alert = false, action, variant, onAction }: { icon: ReactNode; message: string; alert?: boolean; action: string; variant?: ButtonProps['variant']; onAction: () => void }) {
  return (
    <Card icon={icon}>
      <p role={alert ? 'alert' : undefined}>{message}</p>
      <Button className="mt-4" variant={variant} onClick={onAction}>
        {action}
      </Button>
    </Card>
  );
}

/** The sync line's words by state (offline's count what is waiting). A replaced key locks the journal at once (use-journal.ts). */
const SYNC_TEXT: Record<Exclude<SyncState, 'offline'>, string> = {
  'needs-subscription': L.needsSubscription,
  'records-full': L.recordsFull,
  'bytes-full': L.bytesFull,
  failed: L.syncFailed,
  'started-anew': L.resetElsewhere,
  syncing: L.syncing,
  synced: L.synced,
  'key-replaced': L.synced,
};

/** The states the sync line shows with a crossed-out cloud. */
const SYNC_TROUBLE: ReadonlySet<SyncState> = new Set(['offline', 'failed', 'records-full', 'bytes-full']);

function SyncLine({ journal }: { journal: Journal }) {
  const sync = journal.sync;
  if (!sync) return null;
  const text = sync.state === 'offline' ? L.offline(sync.pending) : SYNC_TEXT[sync.state];
  return (
    <div className="mt-8 grid gap-1 text-sm text-stone-600 dark:text-stone-300">
      <p role="status" data-testid="journal-sync" className="flex items-center gap-2">
        {SYNC_TROUBLE.has(sync.state) ? <CloudOff className="size-4" aria-hidden /> : <CloudCheck className="size-4 text-teal-700 dark:text-teal-300" aria-hidden />}
        {text}
      </p>
      {sync.unreadable > 0 ? <p>{L.unreadable(sync.unreadable)}</p> : null}
      {/* A server that served an older version, or undid a deletion (decision 0055): said, never applied. */}
      {sync.refused > 0 ? <p role="alert">{L.refused(sync.refused)}</p> : null}
    </div>
  );
}

function LegacyOffer({ journal }: { journal: Journal }) {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  return (
    <section aria-labelledby="legacy-heading" className="mt-8 rounded-3xl bg-teal-50 p-6 text-teal-950 ring-1 ring-teal-200 dark:bg-teal-950/40 dark:text-teal-50 dark:ring-teal-900">
      <h2 id="legacy-heading" className="font-semibold">
        {L.legacyTitle}
      </h2>
      <p className="mt-1">{L.legacyBody(journal.legacy.count)}</p>
      <div className="mt-4 flex flex-wrap gap-3">
        <Button
          disabled={busy}
          aria-busy={busy}
          onClick={() => {
            setBusy(true);
            void journal.legacy.importAll().finally(() => setBusy(false));
          }}
        >
          {L.legacyImport}
        </Button>
        <Button variant="ghost" onClick={() => setConfirming(true)}>
          {L.legacyDiscard(journal.legacy.count)}
        </Button>
      </div>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={journal.legacy.count === 1 ? 'Delete this entry?' : 'Delete these entries?'}
        description="They are deleted from this device and not added to any journal. This cannot be undone."
        confirmLabel="Delete"
        onConfirm={journal.legacy.discard}
      />
    </section>
  );
}
