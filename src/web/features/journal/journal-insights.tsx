/** The journal's two summary cards: insights (this week, moods, patterns) and the tracker (totals, streak). */
import ArrowDown from 'lucide-react/icons/arrow-down';
import ArrowUp from 'lucide-react/icons/arrow-up';
import Minus from 'lucide-react/icons/minus';
import { useMemo, type ReactNode } from 'react';
import { entriesCount, insights, journalStreak, labelOf, timeOfDaySplit, type JournalEntry } from '#shared/journal.ts';

const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

function Card({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section aria-label={title} className="rounded-3xl bg-white p-6 ring-1 ring-stone-200 dark:bg-stone-900 dark:ring-stone-800">
      <h2 className="font-serif text-xl font-semibold text-stone-900 dark:text-stone-50">{title}</h2>
      <div className="mt-4">{children}</div>
    </section>
  );
}

function Trend({ now, before }: { now: number | null; before: number | null }) {
  if (now === null) return <span className="text-stone-500 dark:text-stone-400">–</span>;
  const Icon = before === null || now === before ? Minus : now > before ? ArrowUp : ArrowDown;
  return (
    <span className="inline-flex items-center gap-1">
      {now}
      <Icon className="size-4 text-stone-400" aria-label={before === null ? 'no earlier week to compare' : `last week ${before}`} />
    </span>
  );
}

/** One figure in a summary's description list. */
function Stat({ label, testId, children }: { label: string; testId?: string; children: ReactNode }) {
  return (
    <div>
      <dt className="text-stone-500 dark:text-stone-400">{label}</dt>
      <dd className="font-serif text-2xl font-semibold" data-testid={testId}>
        {children}
      </dd>
    </div>
  );
}

export function Insights({ entries, today }: { entries: JournalEntry[]; today: string }) {
  const data = useMemo(() => insights(entries, today), [entries, today]);
  const max = Math.max(1, ...data.week.map((d) => d.count));
  return (
    <Card title="Summary and insights">
      <dl className="grid grid-cols-3 gap-3 text-sm">
        <Stat label="This week" testId="entries-this-week">
          {data.entriesThisWeek}
        </Stat>
        <Stat label="Average mood">
          <Trend now={data.averageMood} before={data.previousAverageMood} />
        </Stat>
        <Stat label="Average intensity">
          <Trend now={data.averageIntensity} before={data.previousAverageIntensity} />
        </Stat>
      </dl>
      <ol className="mt-5 grid h-20 grid-cols-7 items-end gap-2" aria-label="Entries each day this week">
        {data.week.map((d, i) => (
          <li key={d.date} className="flex h-full flex-col items-center justify-end gap-1">
            <span className={`w-full max-w-8 rounded-t ${d.count ? 'bg-teal-600 dark:bg-teal-400' : 'bg-stone-200 dark:bg-stone-800'}`} style={{ height: `${d.count ? Math.max(15, (d.count / max) * 100) : 5}%` }} aria-hidden />
            <span className="text-xs text-stone-500 dark:text-stone-400">{WEEKDAYS[i]}</span>
            <span className="sr-only">, {entriesCount(d.count)}</span>
          </li>
        ))}
      </ol>
      {data.topDistortions.length || data.topSkills.length ? (
        <div className="mt-5 grid gap-2 text-sm text-stone-600 dark:text-stone-300">
          {data.topDistortions.length ? <p>Thinking traps you notice most: {data.topDistortions.map(([id, n]) => `${labelOf(id)} (${n})`).join(', ')}</p> : null}
          {data.topSkills.length ? <p>Skills you reach for most: {data.topSkills.map(([id, n]) => `${labelOf(id)} (${n})`).join(', ')}</p> : null}
        </div>
      ) : (
        <p className="mt-5 text-sm text-stone-500 dark:text-stone-400">Patterns appear here as you write.</p>
      )}
    </Card>
  );
}

export function Tracker({ entries, today }: { entries: JournalEntry[]; today: string }) {
  const week = useMemo(() => insights(entries, today).week, [entries, today]);
  const split = timeOfDaySplit(entries, today);
  const streak = journalStreak(entries, today);
  return (
    <Card title="Journal tracker">
      <dl className="grid grid-cols-2 gap-3 text-sm">
        <Stat label="Total entries" testId="journal-total">
          {entries.length}
        </Stat>
        <Stat label="Streak" testId="journal-streak">
          {streak} {streak === 1 ? 'day' : 'days'}
        </Stat>
      </dl>
      <ol className="mt-4 flex justify-between" aria-label="This week, Monday first">
        {week.map((d, i) => (
          <li key={d.date} className="flex flex-col items-center gap-1 text-xs text-stone-500 dark:text-stone-400">
            <span className={`size-7 rounded-full ${d.count ? 'bg-teal-600 dark:bg-teal-400' : 'bg-stone-200 dark:bg-stone-800'} ${d.date === today ? 'ring-2 ring-teal-800 ring-offset-2 dark:ring-teal-200 dark:ring-offset-stone-900' : ''}`} aria-hidden />
            {WEEKDAYS[i]}
            <span className="sr-only">{d.count ? 'written' : 'no entry'}</span>
          </li>
        ))}
      </ol>
      <p className="mt-4 text-sm text-stone-600 dark:text-stone-300" data-testid="journal-split">
        This week: Morning {split.morning} · Afternoon {split.afternoon} · Evening {split.evening}
      </p>
    </Card>
  );
}

