/**
 * The journal's entries, newest first: read, export (JSON, Markdown), delete one or all, lock the journal (and choose when it locks itself).
 * Without `actions` it is the list of someone who has no entries to act on (a visitor, a journal not yet set up):
 * the spec's heading and empty state, and nothing else.
 */
import Download from 'lucide-react/icons/download';
import Ellipsis from 'lucide-react/icons/ellipsis';
import KeyRound from 'lucide-react/icons/key-round';
import RotateCcw from 'lucide-react/icons/rotate-ccw';
import Share2 from 'lucide-react/icons/share-2';
import Trash2 from 'lucide-react/icons/trash-2';
import { DropdownMenu } from 'radix-ui';
import { useState } from 'react';
import { toast } from '#web/lib/toast.ts';
import { entriesToMarkdown, JOURNAL_MESSAGES as M, labelOf, type JournalEntry } from '#shared/journal.ts';
import { JOURNAL_LOCK_MESSAGES as L, type BiometryKind } from '#shared/journal-keys.ts';
import { localDay } from '#shared/days.ts';
import { Button } from '#web/components/ui/button.tsx';
import { ConfirmDialogFor } from '#web/components/ui/confirm-dialog.tsx';
import { LockControls } from '#web/features/journal/journal-lock-controls.tsx';

const MENU_ITEM = 'flex cursor-pointer items-center gap-2 rounded-xl px-3 py-2 text-sm text-stone-800 outline-none data-[highlighted]:bg-stone-100 dark:text-stone-100 dark:data-[highlighted]:bg-stone-800';

type Actions = { /** Entry ids kept as "conflicted copy" (decision 0055). */ conflicted?: ReadonlySet<string>; onDelete: (id: string) => void; onDeleteAll: () => void; onLock: () => void; onChangePassphrase: () => void; /** Opens "New recovery key" (decision 0061). */ onNewRecoveryKey?: () => void; /** Opens "Start a new journal" (issue 36, item 3). */ onStartOver?: () => void; /** Opens 'Share with someone you trust' for one entry (decision 0050). */ onShare?: (entry: JournalEntry) => void; /** Face ID / fingerprint unlock on this device, with its way off (decision 0065). */ biometric?: { enrolled: BiometryKind | null; turnOff: () => Promise<void> } };

export function EntriesList({ entries, actions }: { entries: JournalEntry[]; actions?: Actions }) {
  return (
    <section aria-labelledby="entries-heading" className="mt-10">
      {actions ? (
        <ActedEntries entries={entries} actions={actions} />
      ) : (
        <>
          <EntriesHeading />
          <NoEntries />
        </>
      )}
    </section>
  );
}

function EntriesHeading() {
  return (
    <h2 id="entries-heading" className="font-serif text-2xl font-semibold text-stone-900 dark:text-stone-50">
      {M.entriesHeading}
    </h2>
  );
}

function NoEntries() {
  return <p className="mt-4 rounded-3xl bg-white p-8 text-center text-stone-600 ring-1 ring-stone-200 dark:bg-stone-900 dark:text-stone-300 dark:ring-stone-800">{M.empty}</p>;
}

/** An export saved (web: the download; apps: the share sheet, saying how it ended), its code loaded at the tap. */
const saveExport = (name: string, mime: string, text: string) => void import('#web/platform/save-file.ts').then(({ saveFileAndSay }) => saveFileAndSay(name, mime, text));

function ActedEntries({ entries, actions: { conflicted, onDelete, onDeleteAll, onLock, onChangePassphrase, onNewRecoveryKey, onStartOver, onShare, biometric } }: { entries: JournalEntry[]; actions: Actions }) {
  const [confirm, setConfirm] = useState<'all' | JournalEntry | null>(null);
  const stamp = localDay(new Date());
  return (
    <>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <EntriesHeading />
        <div className="flex flex-wrap gap-2">
          {entries.length ? (
            <>
              <Button size="sm" variant="outline" onClick={() => saveExport(`harbour-mind-journal-${stamp}.json`, 'application/json', JSON.stringify(entries, null, 2))}>
                <Download className="size-4" aria-hidden /> Export JSON
              </Button>
              <Button size="sm" variant="outline" onClick={() => saveExport(`harbour-mind-journal-${stamp}.md`, 'text/markdown', entriesToMarkdown(entries))}>
                <Download className="size-4" aria-hidden /> Export Markdown
              </Button>
            </>
          ) : null}
          {/* Locking is an everyday action, in sight (issue 38: it hid in the menu), with the idle time beside it (issue 36). */}
          <LockControls onLock={onLock} biometric={biometric} />
          {/* The destructive action is one step away from the everyday ones, and then asks again (issue 17, item 7).
              Not modal: a modal menu hid the page from screen readers while its links stayed focusable (axe: aria-hidden-focus, issue 38). */}
          <DropdownMenu.Root modal={false}>
            <DropdownMenu.Trigger asChild>
              <Button size="sm" variant="ghost" aria-label="More journal actions">
                <Ellipsis className="size-4" aria-hidden />
              </Button>
            </DropdownMenu.Trigger>
            {/* In the page, not a portal: within the main landmark, where axe and screen readers expect it. */}
            <DropdownMenu.Content align="end" sideOffset={6} className="z-50 min-w-48 rounded-2xl bg-white p-1.5 shadow-xl ring-1 ring-stone-200 dark:bg-stone-900 dark:ring-stone-700">
              <DropdownMenu.Item
                onSelect={onChangePassphrase}
                className={MENU_ITEM}
              >
                <KeyRound className="size-4" aria-hidden /> {L.changeButton}
              </DropdownMenu.Item>
              {onNewRecoveryKey ? (
                <DropdownMenu.Item onSelect={onNewRecoveryKey} className={MENU_ITEM}>
                  <KeyRound className="size-4" aria-hidden /> {L.newRecoveryButton}
                </DropdownMenu.Item>
              ) : null}
              {onStartOver ? (
                <DropdownMenu.Item onSelect={onStartOver} className={MENU_ITEM}>
                  <RotateCcw className="size-4" aria-hidden /> {L.resetButton}…
                </DropdownMenu.Item>
              ) : null}
              {entries.length ? (
                <DropdownMenu.Item
                  onSelect={() => setConfirm('all')}
                  className="flex cursor-pointer items-center gap-2 rounded-xl px-3 py-2 text-sm text-rose-800 outline-none data-[highlighted]:bg-rose-50 dark:text-rose-200 dark:data-[highlighted]:bg-rose-950/60"
                >
                  <Trash2 className="size-4" aria-hidden /> Delete all entries…
                </DropdownMenu.Item>
              ) : null}
            </DropdownMenu.Content>
          </DropdownMenu.Root>
        </div>
      </div>
      {entries.length === 0 ? (
        <NoEntries />
      ) : (
        <ul className="mt-4 grid gap-4" aria-label="Journal entries">
          {entries.map((e) => (
            <li key={e.id} className="rounded-3xl bg-white p-6 ring-1 ring-stone-200 dark:bg-stone-900 dark:ring-stone-800" data-testid="journal-entry">
              <div className="flex flex-wrap items-start justify-between gap-2">
                <p id={`entry-${e.id}-label`} className="text-sm font-medium text-teal-800 dark:text-teal-200">
                  {entryLabel(e)}
                  {conflicted?.has(e.id) ? (
                    <span title={L.conflictedCopyHint} className="ml-2 rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900 dark:bg-amber-900/50 dark:text-amber-100">
                      {L.conflictedCopy}
                    </span>
                  ) : null}
                </p>
                {conflicted?.has(e.id) ? <p className="sr-only">{L.conflictedCopyHint}</p> : null}
                <div className="flex items-center gap-1">
                  {onShare ? (
                    <button type="button" onClick={() => onShare(e)} aria-describedby={`entry-${e.id}-label`} className="inline-flex items-center gap-1.5 rounded-full px-3 py-2 text-sm font-medium text-stone-600 hover:bg-stone-100 dark:text-stone-300 dark:hover:bg-stone-800">
                      <Share2 className="size-4" aria-hidden /> Share
                    </button>
                  ) : null}
                  <button type="button" onClick={() => setConfirm(e)} className="rounded-full p-2 text-stone-500 dark:text-stone-400 hover:bg-stone-100 dark:hover:bg-stone-800" aria-label={`Delete the ${e.type} entry from ${e.date}`}>
                    <Trash2 className="size-4" aria-hidden />
                  </button>
                </div>
              </div>
              <EntryBody entry={e} />
            </li>
          ))}
        </ul>
      )}
      <ConfirmDialogFor
        subject={confirm}
        onClose={() => setConfirm(null)}
        title={confirm === 'all' ? 'Delete all entries?' : 'Delete this entry?'}
        description={confirm === 'all' ? 'Every journal entry will be deleted, on all your devices. Export them first if you want to keep a copy. This cannot be undone.' : 'This entry will be deleted, on all your devices. This cannot be undone.'}
        confirmLabel="Delete"
        onConfirm={(chosen) => {
          if (chosen === 'all') {
            onDeleteAll();
            toast.success(M.deletedAllTitle);
          } else {
            onDelete(chosen.id);
            toast.success(M.deletedTitle);
          }
        }}
      />
    </>
  );
}

/** 'CBT · Friday 27 November · morning': an entry's type, day and time of day. */
export function entryLabel(e: JournalEntry): string {
  return `${e.type === 'mindfulness' ? 'Mindfulness' : e.type.toUpperCase()} · ${new Date(`${e.date}T12:00:00`).toLocaleDateString('en-GB', { weekday: 'long', day: 'numeric', month: 'long' })} · ${e.timeOfDay}`;
}

function Line({ label, text }: { label: string; text: string }) {
  if (!text.trim()) return null;
  return (
    <div className="mt-3">
      <dt className="text-sm font-medium text-stone-500 dark:text-stone-400">{label}</dt>
      <dd className="whitespace-pre-line text-stone-800 dark:text-stone-100">{text}</dd>
    </div>
  );
}

/** One entry's fields, as the list shows them (and a shared entry's page). */
export function EntryBody({ entry: e }: { entry: JournalEntry }) {
  if (e.type === 'mindfulness')
    return (
      <dl>
        <Line label="Mood" text={`${e.content.mood} / 10`} />
        <Line label="Gratitude" text={e.content.gratitude} />
        <Line label="Intention" text={e.content.intention} />
        <Line label="Mindful moments" text={e.content.mindfulMoments} />
        <Line label="Challenges" text={e.content.challenges} />
        <Line label="Reflection" text={e.content.reflection} />
      </dl>
    );
  if (e.type === 'cbt')
    return (
      <dl>
        <Line label="Thought" text={e.content.thoughtPatterns} />
        <Line label="Thinking traps" text={e.content.cognitiveDistortions.map(labelOf).join(', ')} />
        <Line label="Balanced thought" text={e.content.reframe} />
      </dl>
    );
  return (
    <dl>
      <Line label="Situation" text={e.content.situation} />
      <Line label="Emotions" text={`${e.content.emotions} (intensity ${e.content.intensity} / 10)`} />
      <Line label="Thoughts" text={e.content.thoughts} />
      <Line label="Skills" text={e.content.dbtSkills.map(labelOf).join(', ')} />
      <Line label="Coping" text={e.content.copingSkills} />
      <Line label="Reflection" text={e.content.reflection} />
    </dl>
  );
}
