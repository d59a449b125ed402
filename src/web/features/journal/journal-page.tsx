/**
 * /journal: mindfulness, CBT and DBT journalling, end-to-end encrypted and synced across the
 * account's devices (issue 18). Saving is part of the subscription (the spec's dialog otherwise); a
 * save before the journal is set up or unlocked on this device asks for that first, then saves.
 * Nothing typed is lost when a save is refused.
 */
import HeartHandshake from 'lucide-react/icons/heart-handshake';
import LifeBuoy from 'lucide-react/icons/life-buoy';
import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { journalAboutMood, journalAboutText } from '#web/features/journal/journal-about.ts';
import { Link } from 'react-router';
import { toast } from '#web/lib/toast.ts';
import { createEntry, CRISIS_LINES, JOURNAL_MESSAGES as M, type JournalEntry, type JournalType } from '#shared/journal.ts';
import { JOURNAL_LOCK_MESSAGES as L } from '#shared/journal-keys.ts';
import { localDay } from '#shared/days.ts';
import { Button, buttonClasses } from '#web/components/ui/button.tsx';
import { Dialog } from '#web/components/ui/dialog.tsx';
import { Tabs, TabsBar, TabsContent, type TabItem } from '#web/components/ui/tabs.tsx';
import { useViewer } from '#web/features/auth/use-viewer.ts';
import { EntriesList } from '#web/features/journal/journal-entries.tsx';
import { CbtForm, DbtForm, MindfulnessForm, type SaveHandler } from '#web/features/journal/journal-forms.tsx';
import { Insights, Tracker } from '#web/features/journal/journal-insights.tsx';
import { JournalKeyDialog } from '#web/features/journal/journal-key-dialog.tsx';
import { JournalResetDialog } from '#web/features/journal/journal-reset-dialog.tsx';
import { ShareEntryDialog } from '#web/features/journal/journal-share-dialog.tsx';
import { SharedLinks } from '#web/features/journal/journal-shared-links.tsx';
import { JournalState } from '#web/features/journal/journal-state.tsx';
import { useJournal } from '#web/features/journal/use-journal.ts';
import { usePageTitle } from '#web/lib/use-page-title.ts';
import { can } from '#shared/policies.ts';

const JOURNAL_TABS: readonly TabItem[] = [
  { value: 'mindfulness', label: 'Mindfulness' },
  { value: 'cbt', label: 'CBT' },
  { value: 'dbt', label: 'DBT' },
];

type Content = Parameters<SaveHandler>[1];
/** A save waiting for the journal to be set up or unlocked on this device. */
type WaitingSave = { type: JournalType; content: Content; resolve: (saved: boolean) => void };

export function JournalPage() {
  usePageTitle('Journal');
  const viewer = useViewer();
  const journal = useJournal(viewer.user?.id ?? null, viewer.status === 'loading');
  const [blocked, setBlocked] = useState(false);
  const [keyDialog, setKeyDialog] = useState<'set-up' | 'unlock' | 'change' | 'new-recovery' | 'reset' | null>(null);
  const [sharing, setSharing] = useState<JournalEntry | null>(null);
  const waiting = useRef<WaitingSave | null>(null);
  const today = localDay(new Date());
  // 'Write about it' after a meditation opens here with its title (journal-about.ts).
  const [params] = useSearchParams();
  const about = journalAboutText(params);
  const aboutMood = journalAboutMood(params);

  // The page's latest answers (who is asking, the journal on this device), for a save pressed before
  // they came: it waits for them rather than guessing (a guess said the journal "cannot be opened").
  const latest = useRef({ viewer, journal });
  const waitingForAnswers = useRef<(() => void)[]>([]);
  useEffect(() => {
    latest.current = { viewer, journal };
    if (viewer.status === 'loading' || journal.status === 'loading') return;
    for (const wake of waitingForAnswers.current.splice(0)) wake();
  });
  const answers = async () => {
    const now = latest.current;
    if (now.viewer.status !== 'loading' && now.journal.status !== 'loading') return now;
    await new Promise<void>((wake) => waitingForAnswers.current.push(wake));
    return latest.current;
  };

  const saveNow = async (type: JournalType, content: Content): Promise<boolean> => {
    if (!(await latest.current.journal.add(createEntry(type, content, new Date())))) return false;
    toast.success(M.savedTitle, { description: M.savedBody });
    return true;
  };

  const save: SaveHandler = async (type, content) => {
    const { viewer, journal } = await answers();
    if (!can(viewer.who, 'keep-journal')) {
      setBlocked(true);
      return false; // the draft stays as it is
    }
    if (journal.status === 'open') return saveNow(type, content);
    if (journal.status === 'set-up' || journal.status === 'locked') {
      // The draft stays in the form until the journal opens and the entry is stored.
      waiting.current?.resolve(false);
      setKeyDialog(journal.status === 'set-up' ? 'set-up' : 'unlock');
      return new Promise<boolean>((resolve) => (waiting.current = { type, content, resolve }));
    }
    toast.error(L.unreachable);
    return false;
  };

  // The journal opened (set up or unlocked) with a save waiting: store it now.
  const { status, add } = journal;
  useEffect(() => {
    const pending = waiting.current;
    if (status !== 'open' || !pending) return;
    waiting.current = null;
    void saveNow(pending.type, pending.content).then(pending.resolve);
  }, [status, add]);

  const closeKeyDialog = (opened: boolean) => {
    setKeyDialog(null);
    if (!opened) {
      waiting.current?.resolve(false);
      waiting.current = null;
    }
  };

  return (
    <div className="mx-auto max-w-5xl px-4 py-12 sm:px-6">
      <h1 className="font-serif text-4xl font-semibold tracking-tight text-stone-900 sm:text-5xl dark:text-stone-50">{M.title}</h1>
      <p className="mt-3 max-w-2xl text-lg text-stone-600 dark:text-stone-300">A private space to notice, name and untangle what you are carrying. Your entries are encrypted on your device before they are stored: only you can read them.</p>
      <Disclaimer />

      <section aria-labelledby="new-entry" className="mt-8 rounded-3xl bg-white p-6 ring-1 ring-stone-200 sm:p-8 dark:bg-stone-900 dark:ring-stone-800">
        <h2 id="new-entry" className="font-serif text-2xl font-semibold text-stone-900 dark:text-stone-50">
          New entry
        </h2>
        <Tabs defaultValue="mindfulness" className="mt-4">
          <TabsBar label="Journal type" tabs={JOURNAL_TABS} />
          {/* forceMount keeps a half-written draft when switching tabs. */}
          <TabsContent value="mindfulness" forceMount className="mt-6 data-[state=inactive]:hidden">
            <MindfulnessForm key={`${about}|${aboutMood}`} onSave={save} opening={about} mood={aboutMood} />
          </TabsContent>
          <TabsContent value="cbt" forceMount className="mt-6 data-[state=inactive]:hidden">
            <p className="mb-4 text-sm text-stone-600 dark:text-stone-300">Cognitive behavioural therapy helps you catch a thought, notice the thinking trap in it, and find a more balanced one.</p>
            <CbtForm onSave={save} />
          </TabsContent>
          <TabsContent value="dbt" forceMount className="mt-6 data-[state=inactive]:hidden">
            <p className="mb-4 text-sm text-stone-600 dark:text-stone-300">Dialectical behaviour therapy skills help with strong emotions: name them, ride them out safely, and choose what to do next.</p>
            <DbtForm onSave={save} />
          </TabsContent>
        </Tabs>
      </section>

      <JournalState journal={journal} onSetUp={() => setKeyDialog('set-up')} onUnlock={() => setKeyDialog('unlock')} />
      {/* The page opens on writing; insights follow once there is something to reflect on. */}
      {journal.status === 'open' && journal.entries.length > 0 ? (
        <div className="mt-8 grid gap-6 lg:grid-cols-2">
          <Insights entries={journal.entries} today={today} />
          <Tracker entries={journal.entries} today={today} />
        </div>
      ) : null}

      {journal.status === 'open' ? (
        <>
          <EntriesList entries={journal.entries} actions={{ conflicted: journal.conflicted, onDelete: journal.remove, onDeleteAll: journal.removeAll, onLock: journal.lock, onChangePassphrase: () => setKeyDialog('change'), onNewRecoveryKey: () => setKeyDialog('new-recovery'), onStartOver: () => setKeyDialog('reset'), onShare: setSharing, biometric: journal.biometric }} />
          <SharedLinks />
        </>
      ) : null}
      {/* Revoking a link needs no key: a journal locked on this device still lists its links. */}
      {journal.status === 'locked' ? <SharedLinks /> : null}
      {/* The spec's list and its empty state for everyone who has no entries: visitors, and accounts whose journal is not set up. */}
      {journal.status === 'signed-out' || journal.status === 'set-up' ? <EntriesList entries={[]} /> : null}

      {sharing && journal.status === 'open' ? <ShareEntryDialog entry={sharing} entries={journal.entries} onClose={() => setSharing(null)} /> : null}
      {keyDialog === 'reset' ? <JournalResetDialog onReset={journal.startOver} onClose={() => closeKeyDialog(false)} /> : keyDialog ? <JournalKeyDialog mode={keyDialog} journal={journal} onClose={closeKeyDialog} onStartOver={() => setKeyDialog('reset')} /> : null}
      <Dialog open={blocked} onOpenChange={setBlocked} title={M.subscribeTitle} description={M.subscribeBody}>
        <div className="mt-6 flex flex-wrap justify-end gap-3">
          <Button variant="outline" onClick={() => setBlocked(false)}>
            Not now
          </Button>
          <Link to="/subscribe" className={buttonClasses()}>
            Subscribe
          </Link>
        </div>
        <p className="mt-4 text-sm text-stone-500 dark:text-stone-400">What you have written stays in the form.</p>
      </Dialog>
    </div>
  );
}

/**
 * Shown once, at the top, with the crisis lines (decision 0053: the spec's second copy below the
 * entries said the same twice on one page, issue 38).
 */
function Disclaimer() {
  return (
    <aside aria-label="About this journal" className="mt-6 rounded-3xl bg-amber-50 p-5 text-amber-950 ring-1 ring-amber-200 dark:bg-amber-950/30 dark:text-amber-100 dark:ring-amber-900">
      <p className="flex gap-3">
        <HeartHandshake className="mt-0.5 size-5 shrink-0" aria-hidden />
        <span>{M.disclaimer}</span>
      </p>
      <details className="mt-3 pl-8">
        <summary className="cursor-pointer font-semibold">
          <LifeBuoy className="mr-1 inline size-4" aria-hidden /> Need help now?
        </summary>
        <ul className="mt-2 grid gap-1">
          {CRISIS_LINES.map((line) => (
            <li key={line.name}>
              <a href={line.href} className="font-semibold underline underline-offset-4">
                {line.name}
              </a>{' '}
              · {line.detail}
            </li>
          ))}
        </ul>
      </details>
    </aside>
  );
}
