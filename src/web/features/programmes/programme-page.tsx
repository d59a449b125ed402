/**
 * /programmes/{slug} (issue 37, item 2; decision 0051): one course, its days in order (each "Day N",
 * its meditation, its reflection prompt), and the person's place in it. "Start programme" plays day 1
 * at once (inside the tap, so the browser lets the audio start) and enrols on the server; the page then
 * shows "Day N of M" with "Continue", "Don't wait" when the next day waits for tomorrow, and "Leave"
 * and "Restart" behind a confirmation. Progress comes from the server, so it is the same on every device.
 */
import Check from 'lucide-react/icons/check';
import Lock from 'lucide-react/icons/lock';
import NotebookPen from 'lucide-react/icons/notebook-pen';
import Play from 'lucide-react/icons/play';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import type { ProgrammeDay, ProgrammeDetail, ProgrammeProgressView } from '#shared/contracts/programmes.ts';
import { withNext } from '#shared/next-path.ts';
import { daysLabel, PROGRAMME_MESSAGES as M, PROGRAMMES_PATH, programmeDayLine, programmePath } from '#shared/programmes.ts';
import { Button, buttonClasses } from '#web/components/ui/button.tsx';
import { ConfirmDialogFor } from '#web/components/ui/confirm-dialog.tsx';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { useViewer } from '#web/features/auth/use-viewer.ts';
import { useMeditations } from '#web/features/catalogue/use-meditations.ts';
import { journalPromptPath } from '#web/features/journal/journal-links.ts';
import { usePlayer } from '#web/features/player/player-context.tsx';
import { cardOf, useProgramme, useProgrammeChange, useProgrammeProgress } from '#web/features/programmes/use-programmes.ts';
import { ApiError } from '#web/lib/api.ts';
import { usePageTitle } from '#web/lib/use-page-title.ts';
import { can } from '#shared/policies.ts';

const LINK = 'font-medium text-teal-700 underline-offset-4 hover:underline dark:text-teal-300';

/** What the page asks before leaving a programme or starting it again. */
const CONFIRMATIONS = {
  leave: { title: M.leaveConfirmTitle, description: M.leaveConfirmBody, confirmLabel: M.leave },
  restart: { title: M.restartConfirmTitle, description: M.restartConfirmBody, confirmLabel: M.restart },
};

export function ProgrammePage() {
  const { slug = '' } = useParams();
  const programme = useProgramme(slug);
  usePageTitle(programme.data?.title ?? M.heading);

  if (programme.isPending) {
    return (
      <Shell>
        <Spinner label="Loading programme..." />
      </Shell>
    );
  }
  if (programme.isError) {
    const missing = programme.error instanceof ApiError && programme.error.status === 404;
    return (
      <Shell>
        <h1 className="font-serif text-3xl font-semibold text-stone-900 dark:text-stone-50">{missing ? 'Programme not found' : M.heading}</h1>
        <div role="alert" className="mt-4 text-stone-700 dark:text-stone-200">
          <p>{missing ? M.notFound : M.loadFailed}</p>
          <p className="mt-4 flex gap-4">
            {missing ? null : (
              <button type="button" className={LINK} onClick={() => void programme.refetch()}>
                Try again
              </button>
            )}
            <Link to={PROGRAMMES_PATH} className={LINK}>
              All programmes
            </Link>
          </p>
        </div>
      </Shell>
    );
  }
  return <ProgrammeView programme={programme.data} />;
}

function Shell({ children }: { children: React.ReactNode }) {
  return <div className="mx-auto max-w-3xl px-4 py-12 sm:px-6">{children}</div>;
}

function ProgrammeView({ programme }: { programme: ProgrammeDetail }) {
  const viewer = useViewer();
  const progressQuery = useProgrammeProgress(programme.slug);
  const progress = progressQuery.data?.progress ?? null;
  const change = useProgrammeChange(programme.slug);
  const player = usePlayer();
  const listing = useMeditations('all');
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState<'leave' | 'restart' | null>(null);

  const playDay = (day: ProgrammeDay | undefined) => {
    if (!day) return;
    const card = cardOf(listing.data?.meditations, day.meditation.id);
    if (!can(viewer.who, 'listen', day.meditation)) {
      void navigate('/subscribe');
      return;
    }
    if (card) player.choose(card, [card]);
  };
  const start = () => {
    // Played inside the tap (browsers allow audio started by a gesture), enrolled alongside.
    playDay(programme.days[0]);
    change.mutate({ kind: 'start' });
  };
  const currentDay = progress?.current ? programme.days[progress.current - 1] : undefined;
  const waiting = progress?.opensOn !== null && progress?.opensOn !== undefined;

  return (
    <Shell>
      <div aria-hidden data-art={programme.cover} className="card-art h-32 rounded-3xl dark:opacity-85" />
      <p className="mt-6 text-sm font-medium uppercase tracking-wider text-teal-800 dark:text-teal-200">
        <Link to={PROGRAMMES_PATH} className="hover:underline">
          {M.heading}
        </Link>{' '}
        · {daysLabel(programme.dayCount)}
      </p>
      <h1 className="mt-2 font-serif text-4xl font-semibold tracking-tight text-stone-900 sm:text-5xl dark:text-stone-50">{programme.title}</h1>
      <p className="mt-3 text-lg text-stone-600 dark:text-stone-300">{programme.description}</p>

      <section aria-label="Your progress" className="mt-8 rounded-3xl bg-white p-6 ring-1 ring-stone-200 dark:bg-stone-900 dark:ring-stone-800" data-testid="programme-progress">
        {!viewer.signedIn ? (
          viewer.status === 'loading' ? (
            <Spinner label="Loading..." />
          ) : (
            <Link to={withNext('/sign-in', programmePath(programme.slug))} className={buttonClasses({ size: 'lg' })}>
              {M.signInToStart}
            </Link>
          )
        ) : progressQuery.isPending && !viewer.offline ? (
          <Spinner label="Loading your progress..." />
        ) : progressQuery.isError ? (
          <p role="alert" className="text-stone-700 dark:text-stone-200">
            Your progress could not be loaded.{' '}
            <button type="button" className={LINK} onClick={() => void progressQuery.refetch()}>
              Try again
            </button>
          </p>
        ) : progress === null ? (
          <Button size="lg" onClick={start} disabled={change.isPending || programme.days.length === 0 || !listing.data}>
            <Play className="size-5" aria-hidden /> {M.start}
          </Button>
        ) : (
          <div className="space-y-4">
            <p className="text-lg font-semibold text-stone-900 dark:text-stone-50" data-testid="programme-day-line">
              {progress.finished ? M.finished : programmeDayLine(progress.current ?? progress.dayCount, progress.dayCount)}
            </p>
            <div className="flex flex-wrap items-center gap-3">
              {progress.finished ? null : waiting ? (
                <>
                  <span className="text-stone-600 dark:text-stone-300">{M.opensTomorrow}</span>
                  <Button variant="secondary" onClick={() => change.mutate({ kind: 'open-next' })} disabled={change.isPending} aria-describedby="dont-wait-hint">
                    {M.dontWait}
                  </Button>
                  <span id="dont-wait-hint" className="sr-only">
                    {M.dontWaitHint}
                  </span>
                </>
              ) : (
                <Button onClick={() => playDay(currentDay)} disabled={!listing.data}>
                  <Play className="size-4" aria-hidden /> {M.continue}
                </Button>
              )}
              <Button variant="outline" onClick={() => setConfirming('restart')} disabled={change.isPending}>
                {M.restart}
              </Button>
              <Button variant="ghost" onClick={() => setConfirming('leave')} disabled={change.isPending}>
                {M.leave}
              </Button>
            </div>
          </div>
        )}
        {change.isError ? (
          <p role="alert" className="mt-4 text-rose-800 dark:text-rose-300">
            {change.error.message}
          </p>
        ) : null}
      </section>

      <ol className="mt-8 space-y-3" aria-label="Days">
        {programme.days.map((day) => (
          <DayItem key={day.number} day={day} state={progress?.days[day.number - 1]?.state} locked={!can(viewer.who, 'listen', day.meditation)} />
        ))}
      </ol>

      <ConfirmDialogFor subject={confirming} onClose={() => setConfirming(null)} {...CONFIRMATIONS[confirming ?? 'leave']} onConfirm={(kind) => change.mutate({ kind })} />
    </Shell>
  );
}

function DayItem({ day, state, locked }: { day: ProgrammeDay; state: ProgrammeProgressView['days'][number]['state'] | undefined; locked: boolean }) {
  const done = state === 'done';
  const current = state === 'open' || state === 'waiting';
  return (
    <li
      aria-current={current ? 'step' : undefined}
      className={`rounded-2xl bg-white p-5 ring-1 dark:bg-stone-900 ${current ? 'ring-2 ring-teal-600 dark:ring-teal-400' : 'ring-stone-200 dark:ring-stone-800'}`}
    >
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 className="font-semibold text-stone-900 dark:text-stone-50">{`Day ${day.number}`}</h2>
        <span className="inline-flex items-center gap-1 text-sm text-stone-600 dark:text-stone-300">
          {done ? (
            <>
              <Check className="size-4 text-teal-700 dark:text-teal-300" aria-hidden /> {M.dayDone}
            </>
          ) : locked ? (
            <>
              <Lock className="size-4" aria-hidden /> {M.dayLocked}
            </>
          ) : day.meditation.free ? (
            'Free to try'
          ) : null}
        </span>
      </div>
      <p className="mt-1 text-stone-700 dark:text-stone-200">
        {day.meditation.title} <span className="text-stone-500 dark:text-stone-400">· {day.meditation.duration}</span>
      </p>
      {day.reflection ? (
        <div className="mt-3 text-sm text-stone-600 dark:text-stone-300">
          <p>{day.reflection}</p>
          {/* The name says which day, for a list of links read out of context (no second visible "Day N"). */}
          <Link to={journalPromptPath(day.reflection)} aria-label={`${M.reflect}: day ${day.number}`} className={`mt-1 inline-flex items-center gap-1.5 ${LINK}`}>
            <NotebookPen className="size-4" aria-hidden /> {M.reflect}
          </Link>
        </div>
      ) : null}
    </li>
  );
}
