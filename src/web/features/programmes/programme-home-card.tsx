/**
 * Home's card for the programme in progress (issue 37, item 2; decision 0051): "{title} · Day N of M"
 * and one tap to continue, which plays the day's meditation (or, when the day waits for tomorrow, says
 * so and offers "Don't wait"). The most recently started unfinished one is
 * shown; without one, a quiet link to /programmes. Its own lazy chunk.
 */
import CalendarDays from 'lucide-react/icons/calendar-days';
import Play from 'lucide-react/icons/play';
import { Link, useNavigate } from 'react-router';
import type { ProgrammeProgressView } from '#shared/contracts/programmes.ts';
import { PROGRAMME_MESSAGES as M, PROGRAMMES_PATH, programmeDayLine, programmePath } from '#shared/programmes.ts';
import { Button } from '#web/components/ui/button.tsx';
import { useViewer } from '#web/features/auth/use-viewer.ts';
import { useMeditations } from '#web/features/catalogue/use-meditations.ts';
import { usePlayer } from '#web/features/player/player-context.tsx';
import { cardOf, useMyProgrammes, useProgramme, useProgrammeChange } from '#web/features/programmes/use-programmes.ts';
import { can } from '#shared/policies.ts';

export function ProgrammeHomeCard() {
  const mine = useMyProgrammes();
  const current = mine.data?.enrolments.find((e) => !e.finished && e.current !== null);
  if (current) return <InProgress progress={current} />;
  if (!mine.isSuccess) return null;
  return (
    <p className="mx-auto max-w-6xl px-4 pt-8 text-stone-600 sm:px-6 dark:text-stone-300">
      <Link to={PROGRAMMES_PATH} className="font-medium text-teal-700 underline-offset-4 hover:underline dark:text-teal-300">
        {M.heading}
      </Link>
      : {M.intro}
    </p>
  );
}

function InProgress({ progress }: { progress: ProgrammeProgressView }) {
  const viewer = useViewer();
  const programme = useProgramme(progress.slug);
  const listing = useMeditations('all');
  const player = usePlayer();
  const navigate = useNavigate();
  const change = useProgrammeChange(progress.slug);
  const day = programme.data?.days.find((d) => d.number === progress.current);
  const card = day ? cardOf(listing.data?.meditations, day.meditation.id) : undefined;
  const n = progress.current ?? progress.dayCount;

  const play = () => {
    if (!day || !card) return;
    if (!can(viewer.who, 'listen', day.meditation)) void navigate('/subscribe');
    else player.choose(card, [card]);
  };

  return (
    <section aria-labelledby="programme-home-heading" data-testid="programme-home" className="mx-auto max-w-6xl px-4 pt-8 sm:px-6">
      <div className="flex flex-wrap items-center justify-between gap-4 rounded-3xl bg-white p-5 ring-1 ring-stone-200 sm:p-6 dark:bg-stone-900 dark:ring-stone-800">
        <div className="flex min-w-0 items-center gap-4">
          <span className="grid size-12 shrink-0 place-items-center rounded-2xl bg-teal-50 text-teal-800 dark:bg-teal-950 dark:text-teal-200">
            <CalendarDays className="size-6" aria-hidden />
          </span>
          <div className="min-w-0">
            <h2 id="programme-home-heading" className="text-sm font-semibold uppercase tracking-wider text-stone-600 dark:text-stone-300">
              {M.homeHeading}
            </h2>
            <p className="mt-1 text-lg font-semibold text-stone-900 dark:text-stone-50">
              <Link to={programmePath(progress.slug)} className="underline-offset-4 hover:underline">
                {progress.title}
              </Link>{' '}
              · <span>{programmeDayLine(n, progress.dayCount)}</span>
            </p>
            {progress.opensOn ? <p className="text-sm text-stone-600 dark:text-stone-300">{M.opensTomorrow}</p> : null}
          </div>
        </div>
        {progress.opensOn ? (
          <Button variant="secondary" onClick={() => change.mutate({ kind: 'open-next' })} disabled={change.isPending} aria-label={`${M.dontWait}: ${M.dontWaitHint}`}>
            {M.dontWait}
          </Button>
        ) : (
          <Button onClick={play} disabled={!card} aria-label={`${M.continue}: ${progress.title}, ${programmeDayLine(n, progress.dayCount)}`}>
            <Play className="size-4" aria-hidden /> {M.continue}
          </Button>
        )}
      </div>
    </section>
  );
}
