/**
 * The practice card on Account › Profile: sessions, minutes, streaks and this week by day.
 * Streaks are optional and never scold: a missed day only ever gets an invitation.
 */
import Flame from 'lucide-react/icons/flame';
import Sprout from 'lucide-react/icons/sprout';
import Timer from 'lucide-react/icons/timer';
import { useId, type ReactNode } from 'react';
import { toast } from '#web/lib/toast.ts';
import { Switch } from '#web/components/ui/switch.tsx';
import type { PracticeResponse, RecentSession } from '#shared/contracts/practice.ts';
import { practiceMinutesText, sessionLabel } from '#shared/practice.ts';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { usePractice, usePracticePreference } from '#web/features/practice/use-practice.ts';

const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

function encouragement(practice: PracticeResponse): string {
  if (practice.totalSessions === 0) return 'Your practice starts whenever you are ready. Even one breath counts.';
  const thisWeek = practice.week.reduce((sum, day) => sum + day.sessions, 0);
  if (thisWeek === 0) return 'Welcome back. There is no catching up to do: just begin again, gently.';
  if (thisWeek === 1) return 'One session this week. That is a real moment of care for yourself.';
  return `${thisWeek} sessions this week. Notice how that feels.`;
}

export function PracticeSummary() {
  const practice = usePractice(true);
  const preference = usePracticePreference();
  const switchId = useId();

  if (practice.isPending) return <Spinner label="Loading your practice..." />;
  if (practice.isError)
    return (
      <p role="alert" className="text-stone-600 dark:text-stone-300">
        Your practice summary could not be loaded right now. It is safe: please try again in a moment.
      </p>
    );
  const data = practice.data;
  const maxMinutes = Math.max(1, ...data.week.map((d) => d.minutes));

  return (
    <section aria-labelledby="practice-heading" data-testid="practice-summary">
      <h2 id="practice-heading" className="font-serif text-2xl font-semibold text-stone-900 dark:text-stone-50">
        Your practice
      </h2>
      <p className="mt-1 text-stone-600 dark:text-stone-300">{encouragement(data)}</p>
      <dl className="mt-6 grid grid-cols-2 gap-3 sm:grid-cols-4">
        <Stat icon={<Sprout className="size-4" aria-hidden />} term="Sessions" detail={String(data.totalSessions)} testId="practice-sessions" />
        <Stat icon={<Timer className="size-4" aria-hidden />} term="Minutes" detail={practiceMinutesText(data.totalSeconds)} testId="practice-minutes" />
        {data.showStreaks ? (
          <>
            <Stat icon={<Flame className="size-4" aria-hidden />} term="Current streak" detail={dayCount(data.currentStreak ?? 0)} testId="practice-current-streak" />
            <Stat icon={<Flame className="size-4" aria-hidden />} term="Longest streak" detail={dayCount(data.longestStreak ?? 0)} />
          </>
        ) : null}
      </dl>

      <figure className="mt-8">
        <figcaption className="text-sm font-medium text-stone-700 dark:text-stone-200">This week</figcaption>
        <ol className="mt-3 grid h-32 grid-cols-7 items-end gap-2" aria-label="Minutes practised each day this week">
          {data.week.map((day, i) => (
            <li key={day.date} className="flex h-full flex-col items-center justify-end gap-1.5">
              <span
                className={`w-full max-w-10 rounded-t-lg ${day.sessions > 0 || day.minutes > 0 ? 'bg-teal-600 dark:bg-teal-400' : 'bg-stone-200 dark:bg-stone-800'}`}
                style={{ height: `${day.sessions > 0 || day.minutes > 0 ? Math.max(12, (day.minutes / maxMinutes) * 100) : 4}%` }}
                aria-hidden
              />
              <span className={`text-xs ${day.date === data.today ? 'font-semibold text-teal-800 dark:text-teal-200' : 'text-stone-500 dark:text-stone-400'}`}>{WEEKDAYS[i]}</span>
              <span className="sr-only">
                {day.date === data.today ? 'Today, ' : ''}
                {day.minutes} {day.minutes === 1 ? 'minute' : 'minutes'}, {day.sessions} {day.sessions === 1 ? 'session' : 'sessions'}
              </span>
            </li>
          ))}
        </ol>
      </figure>

      {data.recent.length > 0 ? <RecentSessions sessions={data.recent} /> : null}

      <div className="mt-6 flex items-start justify-between gap-4 rounded-2xl bg-stone-50 p-4 dark:bg-stone-800/60">
        <div>
          <label htmlFor={switchId} className="font-medium text-stone-900 dark:text-stone-50">
            Show streaks
          </label>
          <p className="text-sm text-stone-600 dark:text-stone-300">Some people find streaks motivating, others find them stressful. Your choice, on every device.</p>
        </div>
        <Switch
          id={switchId}
          checked={data.showStreaks}
          disabled={preference.isPending}
          onToggle={() =>
            preference.mutate({ showStreaks: !data.showStreaks }, {
              onError: () => toast.error('Could not save your choice', { description: 'Please try again.' }),
            })
          }
        />
      </div>
    </section>
  );
}

/** The latest sessions, partial ones said to be partial (issue 20, item 3): minutes count, the session does not. */
function RecentSessions({ sessions }: { sessions: readonly RecentSession[] }) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className="mt-8">
      <h3 id={headingId} className="text-sm font-medium text-stone-700 dark:text-stone-200">
        Recent sessions
      </h3>
      <ul className="mt-3 divide-y divide-stone-200 dark:divide-stone-800" data-testid="practice-history">
        {sessions.map((session) => {
          const label = sessionLabel(session);
          return (
            <li key={session.id} className="flex items-baseline justify-between gap-4 py-2" data-testid="practice-history-item">
              <span className="min-w-0">
                <span className="block truncate text-stone-900 dark:text-stone-50">{session.kind === 'timer' ? 'Meditation timer' : session.kind === 'breathing' ? 'Guided breathing' : (session.title ?? 'A meditation no longer in the library')}</span>
                <time dateTime={session.completedAt} className="text-xs text-stone-500 dark:text-stone-400">
                  {new Date(session.completedAt).toLocaleString(undefined, { weekday: 'short', day: 'numeric', month: 'short', hour: 'numeric', minute: '2-digit' })}
                </time>
              </span>
              <span className={`shrink-0 text-sm ${session.complete ? 'text-teal-800 dark:text-teal-200' : 'text-stone-600 dark:text-stone-300'}`} data-testid="practice-history-status">
                <span aria-hidden>{label.text}</span>
                <span className="sr-only">{label.spoken}</span>
              </span>
            </li>
          );
        })}
      </ul>
    </section>
  );
}

const dayCount = (n: number) => `${n} ${n === 1 ? 'day' : 'days'}`;

function Stat({ icon, term, detail, testId }: { icon: ReactNode; term: string; detail: string; testId?: string }) {
  return (
    <div className="rounded-2xl bg-teal-50/70 p-4 dark:bg-teal-950/40">
      <dt className="flex items-center gap-1.5 text-sm text-teal-900 dark:text-teal-200">
        {icon}
        {term}
      </dt>
      <dd className="mt-1 font-serif text-2xl font-semibold text-stone-900 dark:text-stone-50" data-testid={testId}>
        {detail}
      </dd>
    </div>
  );
}
