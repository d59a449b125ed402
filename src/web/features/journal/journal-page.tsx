/**
 * /journal: mindfulness, CBT and DBT journalling, private to this device. Saving is part of the
 * subscription (the spec's dialog otherwise); nothing typed is lost when a save is refused.
 */
import { ArrowDown, ArrowUp, Download, HeartHandshake, LifeBuoy, Minus, Trash2 } from 'lucide-react';
import { Tabs } from 'radix-ui';
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import {
  createEntry,
  CRISIS_LINES,
  entriesToMarkdown,
  insights,
  JOURNAL_MESSAGES as M,
  journalStreak,
  labelOf,
  localDay,
  timeOfDaySplit,
  type JournalEntry,
} from '#shared/journal.ts';
import { Button, buttonClasses } from '#web/components/ui/button.tsx';
import { ConfirmDialog } from '#web/components/ui/confirm-dialog.tsx';
import { Dialog } from '#web/components/ui/dialog.tsx';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { useViewer } from '#web/features/auth/use-viewer.ts';
import { CbtForm, DbtForm, MindfulnessForm, type SaveHandler } from '#web/features/journal/journal-forms.tsx';
import { useJournal } from '#web/features/journal/use-journal.ts';

const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

export function JournalPage() {
  useEffect(() => {
    document.title = 'Journal · Harbour Mind';
  }, []);
  const viewer = useViewer();
  const journal = useJournal();
  const [blocked, setBlocked] = useState(false);
  const today = localDay(new Date());

  const save: SaveHandler = (type, content) => {
    if (!viewer.canListen) {
      setBlocked(true);
      return false; // the draft stays as it is
    }
    if (!journal.add(createEntry(type, content, new Date()))) return false;
    toast.success(M.savedTitle, { description: M.savedBody });
    return true;
  };

  return (
    <div className="mx-auto max-w-5xl px-4 py-12 sm:px-6">
      <h1 className="font-serif text-4xl font-semibold tracking-tight text-stone-900 sm:text-5xl dark:text-stone-50">{M.title}</h1>
      <p className="mt-3 max-w-2xl text-lg text-stone-600 dark:text-stone-300">A private space to notice, name and untangle what you are carrying. Your entries stay on this device.</p>
      <Disclaimer />

      {journal.loaded ? (
        <div className="mt-8 grid gap-6 lg:grid-cols-2">
          <Insights entries={journal.entries} today={today} />
          <Tracker entries={journal.entries} today={today} />
        </div>
      ) : (
        <Spinner label="Opening your journal..." />
      )}

      <section aria-labelledby="new-entry" className="mt-8 rounded-3xl bg-white p-6 ring-1 ring-stone-200 sm:p-8 dark:bg-stone-900 dark:ring-stone-800">
        <h2 id="new-entry" className="font-serif text-2xl font-semibold text-stone-900 dark:text-stone-50">
          New entry
        </h2>
        <Tabs.Root defaultValue="mindfulness" className="mt-4">
          <Tabs.List aria-label="Journal type" className="flex gap-1 rounded-full bg-stone-100 p-1 dark:bg-stone-800">
            {[
              ['mindfulness', 'Mindfulness'],
              ['cbt', 'CBT'],
              ['dbt', 'DBT'],
            ].map(([value, label]) => (
              <Tabs.Trigger
                key={value}
                value={value!}
                className="h-10 flex-1 rounded-full text-sm font-medium text-stone-600 data-[state=active]:bg-white data-[state=active]:text-stone-900 data-[state=active]:shadow-sm dark:text-stone-300 dark:data-[state=active]:bg-stone-950 dark:data-[state=active]:text-stone-50"
              >
                {label}
              </Tabs.Trigger>
            ))}
          </Tabs.List>
          {/* forceMount keeps a half-written draft when switching tabs. */}
          <Tabs.Content value="mindfulness" forceMount className="mt-6 data-[state=inactive]:hidden">
            <MindfulnessForm onSave={save} />
          </Tabs.Content>
          <Tabs.Content value="cbt" forceMount className="mt-6 data-[state=inactive]:hidden">
            <p className="mb-4 text-sm text-stone-600 dark:text-stone-300">Cognitive behavioural therapy helps you catch a thought, notice the thinking trap in it, and find a more balanced one.</p>
            <CbtForm onSave={save} />
          </Tabs.Content>
          <Tabs.Content value="dbt" forceMount className="mt-6 data-[state=inactive]:hidden">
            <p className="mb-4 text-sm text-stone-600 dark:text-stone-300">Dialectical behaviour therapy skills help with strong emotions: name them, ride them out safely, and choose what to do next.</p>
            <DbtForm onSave={save} />
          </Tabs.Content>
        </Tabs.Root>
      </section>

      <EntriesList entries={journal.entries} onDelete={journal.remove} onDeleteAll={journal.removeAll} />
      <Disclaimer />

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

function Card({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section aria-label={title} className="rounded-3xl bg-white p-6 ring-1 ring-stone-200 dark:bg-stone-900 dark:ring-stone-800">
      <h2 className="font-serif text-xl font-semibold text-stone-900 dark:text-stone-50">{title}</h2>
      <div className="mt-4">{children}</div>
    </section>
  );
}

function Trend({ now, before }: { now: number | null; before: number | null }) {
  if (now === null) return <span className="text-stone-400">–</span>;
  const Icon = before === null || now === before ? Minus : now > before ? ArrowUp : ArrowDown;
  return (
    <span className="inline-flex items-center gap-1">
      {now}
      <Icon className="size-4 text-stone-400" aria-label={before === null ? 'no earlier week to compare' : `last week ${before}`} />
    </span>
  );
}

function Insights({ entries, today }: { entries: JournalEntry[]; today: string }) {
  const data = useMemo(() => insights(entries, today), [entries, today]);
  const max = Math.max(1, ...data.week.map((d) => d.count));
  return (
    <Card title="Summary and insights">
      <dl className="grid grid-cols-3 gap-3 text-sm">
        <div>
          <dt className="text-stone-500">This week</dt>
          <dd className="font-serif text-2xl" data-testid="entries-this-week">
            {data.entriesThisWeek}
          </dd>
        </div>
        <div>
          <dt className="text-stone-500">Average mood</dt>
          <dd className="font-serif text-2xl">
            <Trend now={data.averageMood} before={data.previousAverageMood} />
          </dd>
        </div>
        <div>
          <dt className="text-stone-500">Average intensity</dt>
          <dd className="font-serif text-2xl">
            <Trend now={data.averageIntensity} before={data.previousAverageIntensity} />
          </dd>
        </div>
      </dl>
      <ol className="mt-5 grid h-20 grid-cols-7 items-end gap-2" aria-label="Entries each day this week">
        {data.week.map((d, i) => (
          <li key={d.date} className="flex h-full flex-col items-center justify-end gap-1">
            <span className={`w-full max-w-8 rounded-t ${d.count ? 'bg-teal-600 dark:bg-teal-400' : 'bg-stone-200 dark:bg-stone-800'}`} style={{ height: `${d.count ? Math.max(15, (d.count / max) * 100) : 5}%` }} aria-hidden />
            <span className="text-xs text-stone-500">{WEEKDAYS[i]}</span>
            <span className="sr-only">{d.count} entries</span>
          </li>
        ))}
      </ol>
      {data.topDistortions.length || data.topSkills.length ? (
        <div className="mt-5 grid gap-2 text-sm text-stone-600 dark:text-stone-300">
          {data.topDistortions.length ? <p>Thinking traps you notice most: {data.topDistortions.map(([id, n]) => `${labelOf(id)} (${n})`).join(', ')}</p> : null}
          {data.topSkills.length ? <p>Skills you reach for most: {data.topSkills.map(([id, n]) => `${labelOf(id)} (${n})`).join(', ')}</p> : null}
        </div>
      ) : (
        <p className="mt-5 text-sm text-stone-500">Patterns appear here as you write.</p>
      )}
    </Card>
  );
}

function Tracker({ entries, today }: { entries: JournalEntry[]; today: string }) {
  const week = useMemo(() => insights(entries, today).week, [entries, today]);
  const split = timeOfDaySplit(entries);
  const streak = journalStreak(entries, today);
  return (
    <Card title="Journal tracker">
      <dl className="grid grid-cols-2 gap-3 text-sm">
        <div>
          <dt className="text-stone-500">Total entries</dt>
          <dd className="font-serif text-2xl" data-testid="journal-total">
            {entries.length}
          </dd>
        </div>
        <div>
          <dt className="text-stone-500">Streak</dt>
          <dd className="font-serif text-2xl" data-testid="journal-streak">
            {streak} {streak === 1 ? 'day' : 'days'}
          </dd>
        </div>
      </dl>
      <ol className="mt-4 flex justify-between" aria-label="This week, Monday first">
        {week.map((d, i) => (
          <li key={d.date} className="flex flex-col items-center gap-1 text-xs text-stone-500">
            <span className={`size-7 rounded-full ${d.count ? 'bg-teal-600 dark:bg-teal-400' : 'bg-stone-200 dark:bg-stone-800'} ${d.date === today ? 'ring-2 ring-teal-800 ring-offset-2 dark:ring-teal-200 dark:ring-offset-stone-900' : ''}`} aria-hidden />
            {WEEKDAYS[i]}
            <span className="sr-only">{d.count ? 'written' : 'no entry'}</span>
          </li>
        ))}
      </ol>
      <p className="mt-4 text-sm text-stone-600 dark:text-stone-300" data-testid="journal-split">
        Morning {split.morning} · Afternoon {split.afternoon} · Evening {split.evening}
      </p>
    </Card>
  );
}

function download(name: string, type: string, text: string) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = Object.assign(document.createElement('a'), { href: url, download: name });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

function EntriesList({ entries, onDelete, onDeleteAll }: { entries: JournalEntry[]; onDelete: (id: string) => void; onDeleteAll: () => void }) {
  const [confirm, setConfirm] = useState<'all' | JournalEntry | null>(null);
  const stamp = localDay(new Date());
  return (
    <section aria-labelledby="entries-heading" className="mt-10">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="entries-heading" className="font-serif text-2xl font-semibold text-stone-900 dark:text-stone-50">
          {M.entriesHeading}
        </h2>
        {entries.length ? (
          <div className="flex flex-wrap gap-2">
            <Button size="sm" variant="outline" onClick={() => download(`harbour-mind-journal-${stamp}.json`, 'application/json', JSON.stringify(entries, null, 2))}>
              <Download className="size-4" aria-hidden /> Export JSON
            </Button>
            <Button size="sm" variant="outline" onClick={() => download(`harbour-mind-journal-${stamp}.md`, 'text/markdown', entriesToMarkdown(entries))}>
              <Download className="size-4" aria-hidden /> Export Markdown
            </Button>
            <Button size="sm" variant="ghost" onClick={() => setConfirm('all')}>
              <Trash2 className="size-4" aria-hidden /> Delete all
            </Button>
          </div>
        ) : null}
      </div>
      {entries.length === 0 ? (
        <p className="mt-4 rounded-3xl bg-white p-8 text-center text-stone-600 ring-1 ring-stone-200 dark:bg-stone-900 dark:text-stone-300 dark:ring-stone-800">{M.empty}</p>
      ) : (
        <ul className="mt-4 grid gap-4" aria-label="Journal entries">
          {entries.map((e) => (
            <li key={e.id} className="rounded-3xl bg-white p-6 ring-1 ring-stone-200 dark:bg-stone-900 dark:ring-stone-800" data-testid="journal-entry">
              <div className="flex flex-wrap items-start justify-between gap-2">
                <p className="text-sm font-medium text-teal-800 dark:text-teal-200">
                  {e.type === 'mindfulness' ? 'Mindfulness' : e.type.toUpperCase()} · {new Date(`${e.date}T12:00:00`).toLocaleDateString('en-GB', { weekday: 'long', day: 'numeric', month: 'long' })} · {e.timeOfDay}
                </p>
                <button type="button" onClick={() => setConfirm(e)} className="rounded-full p-2 text-stone-500 hover:bg-stone-100 dark:hover:bg-stone-800" aria-label={`Delete the ${e.type} entry from ${e.date}`}>
                  <Trash2 className="size-4" aria-hidden />
                </button>
              </div>
              <EntryBody entry={e} />
            </li>
          ))}
        </ul>
      )}
      <ConfirmDialog
        open={confirm !== null}
        onOpenChange={(open) => !open && setConfirm(null)}
        title={confirm === 'all' ? 'Delete all entries?' : 'Delete this entry?'}
        description={confirm === 'all' ? 'Every journal entry on this device will be deleted. Export them first if you want to keep a copy. This cannot be undone.' : 'This entry will be deleted from this device. This cannot be undone.'}
        confirmLabel="Delete"
        onConfirm={() => {
          if (confirm === 'all') {
            onDeleteAll();
            toast.success(M.deletedAllTitle);
          } else if (confirm) {
            onDelete(confirm.id);
            toast.success(M.deletedTitle);
          }
        }}
      />
    </section>
  );
}

function Line({ label, text }: { label: string; text: string }) {
  if (!text.trim()) return null;
  return (
    <div className="mt-3">
      <dt className="text-sm font-medium text-stone-500">{label}</dt>
      <dd className="whitespace-pre-line text-stone-800 dark:text-stone-100">{text}</dd>
    </div>
  );
}

function EntryBody({ entry: e }: { entry: JournalEntry }) {
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
