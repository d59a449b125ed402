import BookHeart from 'lucide-react/icons/book-heart';
import Flower2 from 'lucide-react/icons/flower-2';
import HeartHandshake from 'lucide-react/icons/heart-handshake';
import HeartPulse from 'lucide-react/icons/heart-pulse';
import LayoutGrid from 'lucide-react/icons/layout-grid';
import Milestone from 'lucide-react/icons/milestone';
import Moon from 'lucide-react/icons/moon';
import NotebookPen from 'lucide-react/icons/notebook-pen';
import Play from 'lucide-react/icons/play';
import Smile from 'lucide-react/icons/smile';
import Sparkles from 'lucide-react/icons/sparkles';
import Sunrise from 'lucide-react/icons/sunrise';
import BellRing from 'lucide-react/icons/bell-ring';
import Wind from 'lucide-react/icons/wind';
import { lazy, Suspense, useEffect, useState, type ComponentType } from 'react';
import { Link } from 'react-router';
import { HOME_TILES } from '#shared/catalogue.ts';
import { STORAGE_KEYS } from '#shared/constants.ts';
import { HOME_MESSAGES } from '#shared/home-messages.ts';
import { buttonClasses } from '#web/components/ui/button.tsx';
import { rememberedViewer, useViewer } from '#web/features/auth/use-viewer.ts';
import { useHydrated } from '#web/lib/hydration.tsx';
import { loadTodaySection } from '#web/lazy-chunks.ts';
import { TryFreeButton } from '#web/features/home/try-free-button.tsx';

/**
 * Today's heading on its own: while the section's code loads, and in its place if that code cannot
 * load (offline, never fetched). A member's home is the Today page either way, and keeps its one
 * level-one heading (axe found the page without one while the section loaded).
 */
function TodayPlaceholder() {
  return (
    <section aria-labelledby="today-heading" className="mx-auto min-h-dvh max-w-6xl px-4 pt-6 sm:px-6 sm:pt-10">
      <h1 id="today-heading" className="mt-6 font-serif text-3xl font-semibold tracking-tight text-stone-900 dark:text-stone-50">
        Today
      </h1>
    </section>
  );
}

/** "Today" for signed-in people; if its code cannot load, home keeps just its heading. */
const TodaySection = lazy<ComponentType>(() =>
  loadTodaySection().then(
    (m) => ({ default: m.TodaySection }),
    () => ({ default: TodayPlaceholder }),
  ),
);

/** The programme in progress (issue 37, item 2), its own chunk; home simply goes without it if it cannot load. */
const ProgrammeHomeCard = lazy<ComponentType>(() =>
  import('#web/features/programmes/programme-home-card.tsx').then(
    (m) => ({ default: m.ProgrammeHomeCard }),
    () => ({ default: () => null }),
  ),
);

const TILE_STYLE: Record<string, { icon: typeof Sunrise; tint: string }> = {
  all: { icon: LayoutGrid, tint: 'from-teal-100 to-cyan-50 text-teal-800 dark:from-teal-950 dark:to-stone-900 dark:text-teal-200' },
  morning: { icon: Sunrise, tint: 'from-amber-100 to-orange-50 text-amber-800 dark:from-amber-950 dark:to-stone-900 dark:text-amber-200' },
  happiness: { icon: Smile, tint: 'from-yellow-100 to-lime-50 text-yellow-800 dark:from-yellow-950 dark:to-stone-900 dark:text-yellow-200' },
  'emotional-wellbeing': { icon: HeartHandshake, tint: 'from-rose-100 to-pink-50 text-rose-800 dark:from-rose-950 dark:to-stone-900 dark:text-rose-200' },
  sleeping: { icon: Moon, tint: 'from-indigo-100 to-violet-50 text-indigo-800 dark:from-indigo-950 dark:to-stone-900 dark:text-indigo-200' },
  mindfulness: { icon: Flower2, tint: 'from-emerald-100 to-teal-50 text-emerald-800 dark:from-emerald-950 dark:to-stone-900 dark:text-emerald-200' },
  journal: { icon: NotebookPen, tint: 'from-sky-100 to-blue-50 text-sky-800 dark:from-sky-950 dark:to-stone-900 dark:text-sky-200' },
  'chronic-health-care': { icon: HeartPulse, tint: 'from-fuchsia-100 to-purple-50 text-fuchsia-800 dark:from-fuchsia-950 dark:to-stone-900 dark:text-fuchsia-200' },
  'significant-chapters': { icon: Milestone, tint: 'from-orange-100 to-stone-50 text-orange-800 dark:from-orange-950 dark:to-stone-900 dark:text-orange-200' },
};

/**
 * Today's affirmation is drawn on the device (its own date and stored draw), so the page the server
 * prepared shows the card without it and the browser fills it in once the page is live; the pool of
 * affirmations loads then too (it is not needed for the first paint). The quote keeps the room of
 * its longest text so nothing below it moves. Blocked storage still gets today's draw.
 */
function useDailyAffirmation(): string | null {
  const [text, setText] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    import('#web/features/home/daily-affirmation.ts')
      .then(({ loadDailyAffirmation }) => {
        if (live) setText(loadDailyAffirmation(STORAGE_KEYS.dailyAffirmation));
      })
      .catch((error: unknown) => console.warn('affirmation unavailable', error));
    return () => {
      live = false;
    };
  }, []);
  return text;
}

export function HomePage() {
  const affirmation = useDailyAffirmation();
  const viewer = useViewer();
  const hydrated = useHydrated();
  return (
    <>
      {/*
        A member's home opens on Today (issue 38, item 2); the hero is for visitors. Until /api/me
        answers, whom the device remembers decides (a returning member's home flashed the hero); the
        prepared page is the visitors', and on a device that remembers someone styles.css hides its
        hero and shows Today's heading instead until the app takes over.
      */}
      {viewer.signedIn || (hydrated && viewer.status === 'loading' && rememberedViewer()) ? (
        <>
          <Suspense fallback={<TodayPlaceholder />}>
            <TodaySection />
          </Suspense>
          {/* Its own boundary: the programme card's chunk loading must not blank Today. */}
          <Suspense fallback={null}>
            <ProgrammeHomeCard />
          </Suspense>
          <div className="mx-auto max-w-6xl px-4 pt-8 sm:px-6">
            <AffirmationCard text={affirmation} />
          </div>
        </>
      ) : (
        // The hero stays the same element when the app takes over (only its `prepared` mark goes): made
        // afresh, its button was replaced under a visitor's thumb, and the page restyled and laid out again.
        <>
          {hydrated ? null : (
            <div data-remembered-only>
              <TodayPlaceholder />
            </div>
          )}
          <Hero affirmation={affirmation} prepared={!hydrated} />
        </>
      )}

      <section aria-labelledby="paths-heading" className="mx-auto max-w-6xl px-4 pt-8 sm:px-6">
        <h2 id="paths-heading" className="font-serif text-3xl font-semibold tracking-tight text-stone-900 dark:text-stone-50">
          {HOME_MESSAGES.tilesHeading}
        </h2>
        <p className="mt-2 max-w-2xl text-stone-600 dark:text-stone-300">Choose where you would like to begin. Every path is gentle, and you can change direction at any time.</p>
        <ul className="mt-8 grid grid-cols-2 gap-3 sm:gap-4 lg:grid-cols-3">
          {HOME_TILES.map((tile) => {
            const style = TILE_STYLE[tile.slug] ?? TILE_STYLE.all;
            const Icon = style.icon;
            return (
              <li key={tile.slug}>
                <Link
                  to={`/meditations/${tile.slug}`}
                  className={`group flex h-full min-h-32 flex-col justify-between gap-4 rounded-3xl bg-gradient-to-br p-4 ring-1 sm:gap-6 sm:p-6 ring-stone-900/5 transition hover:-translate-y-0.5 hover:shadow-lg dark:ring-white/5 ${style.tint}`}
                >
                  <Icon className="size-7" aria-hidden />
                  <span className="text-base font-semibold leading-snug text-stone-900 sm:text-lg dark:text-stone-50">{tile.label}</span>
                </Link>
              </li>
            );
          })}
        </ul>
      </section>

      <section aria-label="Timer and breathing" className="mx-auto grid max-w-6xl gap-3 px-4 pt-6 sm:grid-cols-2 sm:gap-4 sm:px-6">
        <PracticeLink to="/timer" icon={BellRing} tint="bg-teal-50 text-teal-800 dark:bg-teal-950 dark:text-teal-200" title="Meditation timer" text="Sit in silence with bells to begin and to close. Free for everyone." />
        <PracticeLink to="/breathe" icon={Wind} tint="bg-sky-50 text-sky-800 dark:bg-sky-950 dark:text-sky-200" title="Guided breathing" text="Box breathing, 4-7-8 and more, to follow with your eyes closed. Free for everyone." />
      </section>
    </>
  );
}

/** The marketing hero, for visitors (issue 38, item 2: members open on Today). */
/** A free practice offered from home: its icon on a tint, its name and a line about it. */
function PracticeLink({ to, icon: Icon, tint, title, text }: { to: string; icon: typeof Wind; tint: string; title: string; text: string }) {
  return (
    <Link to={to} className="flex items-center gap-4 rounded-3xl bg-white p-5 ring-1 ring-stone-200 transition hover:-translate-y-0.5 hover:shadow-lg sm:p-6 dark:bg-stone-900 dark:ring-stone-800">
      <span className={`grid size-12 shrink-0 place-items-center rounded-2xl ${tint}`}>
        <Icon className="size-6" aria-hidden />
      </span>
      <span className="min-w-0">
        <span className="block text-lg font-semibold text-stone-900 dark:text-stone-50">{title}</span>
        <span className="block text-sm text-stone-600 dark:text-stone-300">{text}</span>
      </span>
    </Link>
  );
}

function Hero({ affirmation, prepared }: { affirmation: string | null; prepared?: boolean }) {
  return (
    <section aria-labelledby="hero-heading" className="relative overflow-hidden" data-visitors-only={prepared || undefined}>
      <div className="absolute inset-0 -z-10 bg-gradient-to-b from-teal-50 via-stone-50 to-stone-50 dark:from-teal-950/60 dark:via-stone-950 dark:to-stone-950" aria-hidden />
      <Waves />
      <div className="mx-auto grid max-w-6xl items-center gap-12 px-4 pb-16 pt-16 sm:px-6 md:grid-cols-[1.2fr_1fr] md:pt-24">
        <div>
          <p className="inline-flex items-center gap-2 rounded-full bg-white/70 px-3 py-1 text-sm font-medium text-teal-800 ring-1 ring-teal-700/10 dark:bg-stone-900/70 dark:text-teal-200 dark:ring-teal-300/10">
            <Sparkles className="size-4" aria-hidden /> Guided meditation for real life
          </p>
          <h1 id="hero-heading" className="mt-5 font-serif text-4xl font-semibold leading-tight tracking-tight text-stone-900 sm:text-5xl md:text-6xl dark:text-stone-50">
            A calm harbour for a busy mind.
          </h1>
          <p className="mt-5 max-w-xl text-lg leading-relaxed text-stone-600 dark:text-stone-300">
            Sleep more easily, begin the day gently, and find steadiness through hard chapters and long-term illness, a few quiet minutes at a time.
          </p>
          <div className="mt-8 flex flex-wrap gap-3">
            <TryFreeButton />
            <Link to="/meditations" className={buttonClasses({ size: 'lg', variant: 'secondary' })}>
              <Play className="size-5" aria-hidden /> {HOME_MESSAGES.heroStart}
            </Link>
            <Link to="/journal" className={buttonClasses({ size: 'lg', variant: 'outline' })}>
              <BookHeart className="size-5" aria-hidden /> {HOME_MESSAGES.heroJournal}
            </Link>
          </div>
        </div>
        <AffirmationCard text={affirmation} />
      </div>
    </section>
  );
}

function AffirmationCard({ text }: { text: string | null }) {
  return (
    <aside aria-labelledby="affirmation-heading" className="rounded-3xl bg-white/80 p-8 shadow-xl shadow-teal-900/5 ring-1 ring-stone-200 backdrop-blur dark:bg-stone-900/80 dark:ring-stone-800">
      <h2 id="affirmation-heading" className="flex items-center gap-2 text-sm font-semibold uppercase tracking-wider text-amber-700 dark:text-amber-300">
        <Sunrise className="size-4" aria-hidden /> {HOME_MESSAGES.affirmationHeading}
      </h2>
      <blockquote className="mt-4 min-h-[4lh] font-serif text-2xl font-semibold leading-snug text-stone-900 sm:min-h-[3lh] dark:text-stone-50" data-testid="affirmation">
        {text === null ? null : `“${text}”`}
      </blockquote>
      <p className="mt-6 text-sm text-stone-500 dark:text-stone-400">A new affirmation arrives each day. Take a breath and let this one land.</p>
    </aside>
  );
}

function Waves() {
  return (
    <svg className="absolute inset-x-0 bottom-0 -z-10 h-32 w-full text-teal-100/70 dark:text-teal-900/20" viewBox="0 0 1440 160" preserveAspectRatio="none" aria-hidden focusable="false">
      <path fill="currentColor" d="M0 96c120-32 240-32 360 0s240 32 360 0 240-32 360 0 240 32 360 0v64H0z" />
    </svg>
  );
}
