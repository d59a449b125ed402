/**
 * /welcome: where a new subscriber lands after checkout, instead of the marketing home. It says
 * what they have (the trial and when it ends), asks one optional question (what brings them
 * here) and puts a first meditation one tap away. Everything here is skippable.
 */
import Crown from 'lucide-react/icons/crown';
import { useState } from 'react';
import { Link, Navigate } from 'react-router';
import type { MeditationCard as Card } from '#shared/contracts/catalogue.ts';
import { TRIAL_REMINDER_PROMISE } from '#shared/trial-offer.ts';
import { TRIAL_DAYS } from '#shared/constants.ts';
import { withNext } from '#shared/next-path.ts';
import { buttonClasses } from '#web/components/ui/button.tsx';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { useViewer } from '#web/features/auth/use-viewer.ts';
import { formatDate, useSubscription } from '#web/features/billing/use-subscription.ts';
import { MeditationCard } from '#web/features/catalogue/meditation-card.tsx';
import { useMeditations } from '#web/features/catalogue/use-meditations.ts';
import { useToggleFavourite } from '#web/features/favourites/use-favourites.ts';
import { usePlayer } from '#web/features/player/player-context.tsx';
import { usePageTitle } from '#web/lib/use-page-title.ts';

const FOCUS_CHOICES = [
  { id: 'sleep', label: 'Sleeping better', category: 'sleeping' },
  { id: 'stress', label: 'Feeling less stressed', category: 'emotional-wellbeing' },
  { id: 'mornings', label: 'Starting the day well', category: 'morning' },
  { id: 'condition', label: 'Living with a health condition', category: 'chronic-health-care' },
] as const;
type FocusId = (typeof FOCUS_CHOICES)[number]['id'];
/** Before any answer: a short, general practice. */
const DEFAULT_CATEGORY = 'mindfulness';

/** The gentlest way in: the shortest meditation of the list (unknown lengths last). */
export function firstMeditation(list: readonly Card[]): Card | null {
  let best: Card | null = null;
  for (const meditation of list) {
    if (!best || (meditation.durationSeconds ?? Infinity) < (best.durationSeconds ?? Infinity)) best = meditation;
  }
  return best;
}

export function WelcomePage() {
  usePageTitle('Welcome');
  const viewer = useViewer();
  const subscription = useSubscription(viewer.signedIn);
  const [focus, setFocus] = useState<FocusId | null>(null);

  if (viewer.status === 'signed-out') return <Navigate to={withNext('/sign-in', '/welcome')} replace />;
  if (viewer.status === 'loading') return <Spinner label="Loading..." />;

  const details = subscription.data?.subscription;
  const trialEnds = details?.status === 'trialing' ? (details.trialEnd ?? details.currentPeriodEnd) : null;
  const firstName = viewer.user?.name.split(' ')[0] ?? '';
  const category = FOCUS_CHOICES.find((choice) => choice.id === focus)?.category ?? DEFAULT_CATEGORY;

  return (
    <div className="mx-auto max-w-3xl px-4 py-12 sm:px-6 sm:py-16">
      <p className="inline-flex items-center gap-2 rounded-full bg-amber-50 px-3 py-1 text-sm font-medium text-amber-900 ring-1 ring-amber-200 dark:bg-amber-950/60 dark:text-amber-100 dark:ring-amber-900">
        <Crown className="size-4" aria-hidden /> Premium
      </p>
      <h1 className="mt-4 font-serif text-4xl font-semibold tracking-tight text-stone-900 sm:text-5xl dark:text-stone-50">
        {firstName ? `Welcome, ${firstName}` : 'Welcome to Harbour Mind'}
      </h1>
      <p className="mt-4 min-h-14 text-lg leading-relaxed text-stone-600 dark:text-stone-300" data-testid="welcome-plan">
        {trialEnds
          ? `Your ${TRIAL_DAYS}-day free trial has started. It ends on ${formatDate(trialEnds)}; cancel before then in Account › Settings and you won't be charged. ${TRIAL_REMINDER_PROMISE}`
          : viewer.canListen
            ? 'Your subscription is active: every meditation is open to you.'
            : 'Every meditation opens once your subscription is confirmed.'}
      </p>

      <section aria-labelledby="focus-heading" className="mt-10">
        <h2 id="focus-heading" className="font-serif text-2xl font-semibold text-stone-900 dark:text-stone-50">
          What brings you here?
        </h2>
        <p className="mt-2 text-stone-600 dark:text-stone-300">Choose one and we'll suggest a first meditation. You can explore everything later.</p>
        <div role="radiogroup" aria-labelledby="focus-heading" className="mt-5 grid gap-3 sm:grid-cols-2">
          {FOCUS_CHOICES.map((choice) => (
            <button
              key={choice.id}
              type="button"
              role="radio"
              aria-checked={focus === choice.id}
              onClick={() => setFocus(choice.id)}
              className={`min-h-12 rounded-2xl px-4 py-3 text-left font-medium ring-1 transition ${
                focus === choice.id
                  ? 'bg-teal-700 text-white ring-teal-700 dark:bg-teal-400 dark:text-stone-950 dark:ring-teal-400'
                  : 'bg-white text-stone-800 ring-stone-200 hover:bg-stone-100 dark:bg-stone-900 dark:text-stone-100 dark:ring-stone-800 dark:hover:bg-stone-800'
              }`}
            >
              {choice.label}
            </button>
          ))}
        </div>
      </section>

      <FirstMeditation category={category} canListen={viewer.canListen} />

      <div className="mt-10 flex flex-wrap gap-3">
        <Link to="/meditations/all" className={buttonClasses({ variant: 'outline' })}>
          Explore all meditations
        </Link>
        <Link to="/" className={buttonClasses({ variant: 'ghost' })}>
          Go to home
        </Link>
      </div>
    </div>
  );
}

function FirstMeditation({ category, canListen }: { category: string; canListen: boolean }) {
  const query = useMeditations(category);
  const player = usePlayer();
  const favourites = useToggleFavourite();
  const pick = query.data ? firstMeditation(query.data.meditations) : null;

  return (
    <section aria-labelledby="first-heading" aria-busy={query.isPending} className="mt-10">
      <h2 id="first-heading" className="font-serif text-2xl font-semibold text-stone-900 dark:text-stone-50">
        Your first meditation
      </h2>
      <div className="mt-5 min-h-40">
        {query.isPending ? (
          <Spinner label="Finding a meditation..." />
        ) : pick ? (
          <MeditationCard
            meditation={pick}
            locked={!canListen}
            onSelect={(meditation) => player.choose(meditation, query.data?.meditations ?? [meditation])}
            saved={favourites.isSaved(pick.id)}
            onToggleFavourite={favourites.toggle}
          />
        ) : (
          <p className="text-stone-600 dark:text-stone-300">
            <Link to="/meditations/all" className="font-medium text-teal-700 underline-offset-4 hover:underline dark:text-teal-300">
              Browse all meditations
            </Link>{' '}
            to choose your first.
          </p>
        )}
      </div>
    </section>
  );
}
