/**
 * "Today" on home for signed-in people (issue 17, item 3): where they stand (trial, today's
 * practice), where to pick up, and a suggestion from their answer to "What brings you here?"
 * (asked here until answered). A lazy chunk of its own: visitors never load it, and the page the
 * server prepares for everyone stays as it is above it (today's affirmation is in the hero).
 */
import BellRing from 'lucide-react/icons/bell-ring';
import Moon from 'lucide-react/icons/moon';
import Sunrise from 'lucide-react/icons/sunrise';
import { useState, useSyncExternalStore } from 'react';
import { Link, useNavigate } from 'react-router';
import type { MeditationCard as Card } from '#shared/contracts/catalogue.ts';
import { FOCUS_CHOICES, focusCategory } from '#shared/practice.ts';
import { TRIAL_REMINDER_PROMISE } from '#shared/trial-offer.ts';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { useViewer } from '#web/features/auth/use-viewer.ts';
import { formatDate, useSubscription } from '#web/features/billing/use-subscription.ts';
import { MeditationCard } from '#web/features/catalogue/meditation-card.tsx';
import { useMeditations } from '#web/features/catalogue/use-meditations.ts';
import { useToggleFavourite } from '#web/features/favourites/use-favourites.ts';
import { continuePick, focusPick, inProgressPick } from '#web/features/home/today-picks.ts';
import { getPositions, subscribePositions } from '#web/features/player/positions.ts';
import { usePlayer } from '#web/features/player/player-context.tsx';
import { FocusQuestion } from '#web/features/practice/focus-question.tsx';
import { CATALOGUE_MESSAGES } from '#shared/catalogue-messages.ts';
import { OFFLINE_MESSAGES } from '#shared/offline-messages.ts';
import { FRONT_DOOR_MESSAGES } from '#shared/front-door-messages.ts';
import { unavailableReason } from '#web/features/catalogue/listing-order.ts';
import { useDownloadedIds } from '#web/features/downloads/use-downloaded-ids.ts';
import { freeOnes } from '#web/features/home/free-pick.ts';
import { TryFreeButton } from '#web/features/home/try-free-button.tsx';
import { useOnline } from '#web/lib/use-online.ts';
import { usePlayed } from '#web/features/practice/use-played.ts';
import { usePractice } from '#web/features/practice/use-practice.ts';
import { can } from '#shared/policies.ts';

function greeting(now = new Date()): string {
  const hour = now.getHours();
  return hour < 5 ? 'Good evening' : hour < 12 ? 'Good morning' : hour < 18 ? 'Good afternoon' : 'Good evening';
}

const NO_POSITIONS = {};
const noPositions = () => NO_POSITIONS;

/** This morning's routine before noon, tonight's after (issue 38, item 2). */
function routineOfTheHour(hour: number): { to: string; label: string } {
  return hour < 12 ? { to: '/morning-routine', label: FRONT_DOOR_MESSAGES.morningRoutine } : { to: '/evening-routine', label: FRONT_DOOR_MESSAGES.tonightsRoutine };
}

const PILL =
  'inline-flex min-h-11 items-center gap-2 rounded-full bg-white px-3 text-sm font-medium text-stone-800 ring-1 ring-stone-200 hover:bg-stone-100 dark:bg-stone-900 dark:text-stone-100 dark:ring-stone-800 dark:hover:bg-stone-800';

const LINK = 'font-medium text-teal-700 underline-offset-4 hover:underline dark:text-teal-300';

export function TodaySection() {
  const viewer = useViewer();
  const online = viewer.signedIn && !viewer.offline;
  const practice = usePractice(online);
  const subscription = useSubscription(online);
  const played = usePlayed(online);
  const listing = useMeditations('all');
  const player = usePlayer();
  const favourites = useToggleFavourite();
  const navigate = useNavigate();
  const [changingFocus, setChangingFocus] = useState(false);
  const onlineNow = useOnline();
  const downloaded = useDownloadedIds(viewer.user?.id ?? null);
  const routine = routineOfTheHour(new Date().getHours());

  const firstName = viewer.user?.name.split(' ')[0] ?? '';
  const data = practice.data;
  const todayPractice = data?.week.find((day) => day.date === data.today);
  const streak = data?.showStreaks && data.currentStreak ? data.currentStreak : null;
  const details = subscription.data?.subscription;
  const trialEnds = details?.status === 'trialing' ? (details.trialEnd ?? details.currentPeriodEnd) : null;

  // This device's positions, merged with the server's by the player (use-position-saving.ts).
  const positions = useSyncExternalStore(subscribePositions, getPositions, noPositions);

  const all = listing.data?.meditations ?? [];
  const resume = data ? inProgressPick(all, positions) : null;
  const upNext = data ? continuePick(all, data.lastMeditationId, played) : null;
  const next = upNext && upNext.meditation.id !== resume?.id ? upNext : null;
  const focus = data?.focus ?? null;
  const forYou = data && focus ? focusPick(all, focusCategory(focus), played, next?.meditation.id ?? resume?.id ?? null) : null;
  const askFocus = data && (focus === null || changingFocus);

  const play = (meditation: Card) => {
    if (viewer.canListen) player.choose(meditation, all.filter((m) => m.category === meditation.category));
    else if (can(viewer.who, 'listen', meditation)) player.choose(meditation, all.filter((m) => m.free));
    else void navigate('/subscribe');
  };
  const card = (meditation: Card) => (
    <MeditationCard
      meditation={meditation}
      locked={!can(viewer.who, 'listen', meditation)}
      mark={player.current?.id === meditation.id ? 'playing' : played.has(meditation.id) ? 'played' : undefined}
      onSelect={play}
      saved={favourites.isSaved(meditation.id)}
      onToggleFavourite={favourites.toggle}
      unavailable={unavailableReason({ online: onlineNow, downloaded: downloaded.has(meditation.id) }, OFFLINE_MESSAGES.needsConnection)}
    />
  );
  const free = viewer.canListen ? [] : freeOnes(all);

  return (
    <section aria-labelledby="today-heading" data-testid="today" className="mx-auto max-w-6xl px-4 pt-6 sm:px-6 sm:pt-10">
      <p className="text-sm font-medium text-teal-800 dark:text-teal-200">{firstName ? `${greeting()}, ${firstName}` : greeting()}</p>
      {/* The page's heading: a member's home opens here (issue 38, item 2). */}
      <h1 id="today-heading" className="mt-1 font-serif text-3xl font-semibold tracking-tight text-stone-900 dark:text-stone-50">
        Today
      </h1>
      <div className="mt-2 space-y-1 text-stone-600 dark:text-stone-300" data-testid="today-status">
        {trialEnds ? (
          <p>
            Your free trial ends on {formatDate(trialEnds)}. {TRIAL_REMINDER_PROMISE}
          </p>
        ) : null}
        {subscription.data && !viewer.canListen ? (
          <p>
            <Link to="/subscribe" className={LINK}>
              Subscribe
            </Link>{' '}
            to open every meditation. The free ones are yours to try meanwhile.
          </p>
        ) : null}
        {viewer.offline ? (
          <p>You're offline: your practice will show when you're back.</p>
        ) : data ? (
          <p>
            {todayPractice && todayPractice.sessions > 0
              ? `Today: ${todayPractice.minutes > 0 ? `${todayPractice.minutes} min` : 'under a minute'} of practice${streak ? ` · ${streak}-day streak` : ''}.`
              : `Nothing yet today: a few quiet minutes is enough.${streak ? ` Your streak: ${streak} days.` : ''}`}
          </p>
        ) : null}
      </div>

      <nav aria-label={FRONT_DOOR_MESSAGES.practiceForToday} className="mt-4 flex flex-wrap gap-2">
        <Link to={routine.to} className={PILL}>
          {routine.to === '/morning-routine' ? <Sunrise className="size-4" aria-hidden /> : <Moon className="size-4" aria-hidden />}
          {routine.label}
        </Link>
        <Link to="/timer" className={PILL}>
          <BellRing className="size-4" aria-hidden /> Meditation timer
        </Link>
      </nav>

      {free.length > 0 ? (
        <div className="mt-6" data-testid="today-free">
          <div className="flex flex-wrap items-center justify-between gap-3">
            <h2 className="text-sm font-semibold uppercase tracking-wider text-stone-600 dark:text-stone-300">{CATALOGUE_MESSAGES.freeSample}</h2>
            <TryFreeButton variant="secondary" />
          </div>
          <ul className="mt-3 grid gap-4 md:grid-cols-3">
            {free.map((meditation) => (
              <li key={meditation.id}>{card(meditation)}</li>
            ))}
          </ul>
        </div>
      ) : null}

      {practice.isPending && online ? (
        <div className="mt-6">
          <Spinner label="Loading your day..." />
        </div>
      ) : practice.isError ? (
        <p role="alert" className="mt-6 text-stone-700 dark:text-stone-200">
          We couldn't load your practice just now.{' '}
          <button type="button" className={LINK} onClick={() => void practice.refetch()}>
            Try again
          </button>
        </p>
      ) : data ? (
        <div className="mt-6 grid gap-6 md:grid-cols-2">
          {resume ? (
            <div data-testid="today-continue">
              <h2 className="text-sm font-semibold uppercase tracking-wider text-stone-600 dark:text-stone-300">Continue where you left off</h2>
              <div className="mt-3">{card(resume)}</div>
            </div>
          ) : null}
          {next ? (
            <div data-testid="today-up-next">
              <h2 className="text-sm font-semibold uppercase tracking-wider text-stone-600 dark:text-stone-300">{next.again ? 'Listen again' : 'Up next'}</h2>
              <div className="mt-3">{card(next.meditation)}</div>
            </div>
          ) : null}
          <div className={(resume ? 1 : 0) + (next ? 1 : 0) === 1 ? '' : 'md:col-span-2'} data-testid="today-pick">
            {askFocus ? (
              <>
                <h2 id="today-focus-heading" className="text-sm font-semibold uppercase tracking-wider text-stone-600 dark:text-stone-300">
                  What brings you here?
                </h2>
                <p className="mt-1 text-sm text-stone-600 dark:text-stone-300">Choose one and we'll suggest a meditation each day.</p>
                <div className="mt-3">
                  <FocusQuestion headingId="today-focus-heading" saved={focus} onChoose={() => setChangingFocus(false)} />
                </div>
              </>
            ) : forYou ? (
              <>
                <div className="flex items-baseline justify-between gap-3">
                  <h2 className="text-sm font-semibold uppercase tracking-wider text-stone-600 dark:text-stone-300">
                    Chosen for you: {FOCUS_CHOICES.find((c) => c.id === focus)?.label.toLowerCase()}
                  </h2>
                  <button type="button" className={`text-sm ${LINK}`} onClick={() => setChangingFocus(true)}>
                    Change
                  </button>
                </div>
                <div className="mt-3">{card(forYou)}</div>
              </>
            ) : null}
          </div>
        </div>
      ) : null}
    </section>
  );
}
