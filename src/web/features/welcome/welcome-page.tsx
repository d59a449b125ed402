/**
 * /welcome: where a new subscriber lands after checkout, instead of the marketing home. It says
 * what they have (the trial and when it ends), asks one optional question (what brings them
 * here, kept with the practice preferences) and puts a first meditation one tap away. Everything here is skippable.
 */
import Crown from 'lucide-react/icons/crown';
import { useState } from 'react';
import { Link, Navigate } from 'react-router';
import { TRIAL_REMINDER_PROMISE } from '#shared/trial-offer.ts';
import { TRIAL_DAYS } from '#shared/constants.ts';
import { withNext } from '#shared/next-path.ts';
import { focusCategory, type FocusId } from '#shared/practice.ts';
import { buttonClasses } from '#web/components/ui/button.tsx';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { useViewer } from '#web/features/auth/use-viewer.ts';
import { formatDate, useSubscription } from '#web/features/billing/use-subscription.ts';
import { MeditationCard } from '#web/features/catalogue/meditation-card.tsx';
import { useMeditations } from '#web/features/catalogue/use-meditations.ts';
import { useToggleFavourite } from '#web/features/favourites/use-favourites.ts';
import { usePlayer } from '#web/features/player/player-context.tsx';
import { FocusQuestion } from '#web/features/practice/focus-question.tsx';
import { usePractice } from '#web/features/practice/use-practice.ts';
import { shortest } from '#web/features/home/today-picks.ts';
import { usePageTitle } from '#web/lib/use-page-title.ts';

export function WelcomePage() {
  usePageTitle('Welcome');
  const viewer = useViewer();
  const subscription = useSubscription(viewer.signedIn);
  const practice = usePractice(viewer.signedIn && !viewer.offline);
  const [focus, setFocus] = useState<FocusId | null>(null);

  if (viewer.status === 'signed-out') return <Navigate to={withNext('/sign-in', '/welcome')} replace />;
  if (viewer.status === 'loading') return <Spinner label="Loading..." />;

  const details = subscription.data?.subscription;
  const trialEnds = details?.status === 'trialing' ? (details.trialEnd ?? details.currentPeriodEnd) : null;
  const firstName = viewer.user?.name.split(' ')[0] ?? '';
  const saved = practice.data?.focus ?? null;
  const category = focusCategory(focus ?? saved);

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

      {/* Busy until the person's saved answer has come: the choices would first say "not selected", then change. */}
      <section aria-labelledby="focus-heading" aria-busy={practice.isLoading} className="mt-10">
        <h2 id="focus-heading" className="font-serif text-2xl font-semibold text-stone-900 dark:text-stone-50">
          What brings you here?
        </h2>
        <p className="mt-2 text-stone-600 dark:text-stone-300">Choose one and we'll suggest a first meditation, here and on your home page. You can explore everything later.</p>
        <div className="mt-5">
          <FocusQuestion headingId="focus-heading" saved={saved} onChoose={setFocus} />
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
  const pick = query.data ? shortest(query.data.meditations) : null;

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
