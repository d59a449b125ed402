import Clock from 'lucide-react/icons/clock';
import Lock from 'lucide-react/icons/lock';
import Gift from 'lucide-react/icons/gift';
import Play from 'lucide-react/icons/play';
import { forwardRef, useEffect, useState, useSyncExternalStore, type ReactNode } from 'react';
import { displayDuration } from '#shared/catalogue.ts';
import type { MeditationCard as Card } from '#shared/contracts/catalogue.ts';
import { CATALOGUE_MESSAGES } from '#shared/catalogue-messages.ts';
import { FavouriteToggle } from '#web/features/favourites/favourite-button.tsx';
import { formatTime } from '#web/features/player/format-time.ts';
import { loadPositions } from '#web/lazy-chunks.ts';

type Props = {
  meditation: Card;
  locked: boolean;
  /** 'playing' while the player has it; 'played' once this account has completed it. */
  mark?: 'playing' | 'played';
  highlighted?: boolean;
  onSelect: (meditation: Card) => void;
  /** The list holds the favourites once (one query for every card, not one each). */
  saved: boolean;
  onToggleFavourite: (meditation: Card) => void;
  /** Offers "Continue from 7:32" where this track was left off (issue 20, item 2); left out while it plays. */
  onResume?: (meditation: Card, seconds: number) => void;
  /**
   * Why it cannot play now (offline and not downloaded; issue 38, item 5): the card is greyed, says
   * why, and a tap opens no player that would only fail.
   */
  unavailable?: string | null;
  /** The download control or "Downloaded" badge, at the end of the card's details. */
  extra?: ReactNode;
};

/**
 * A card whose title is the play button, stretched over the whole card so anywhere plays it;
 * the heart sits above that layer as its own button (buttons cannot nest).
 */
/**
 * "Continue from 7:32". It reads the device's positions itself, for its own track only: positions
 * change every few seconds while something plays, and that must not re-render the page around it.
 */
type PositionsModule = Awaited<ReturnType<typeof loadPositions>>;
const noSubscription = () => () => undefined;

/** The device's positions' code, loaded after the listing has shown (it is not part of the first download). */
function usePositionsModule(): PositionsModule | null {
  const [positions, setPositions] = useState<PositionsModule | null>(null);
  useEffect(() => {
    let live = true;
    void loadPositions().then((loaded) => live && setPositions(loaded));
    return () => {
      live = false;
    };
  }, []);
  return positions;
}

function ResumeButton({ meditation, onResume }: { meditation: Card; onResume: (meditation: Card, seconds: number) => void }) {
  const positions = usePositionsModule();
  // The server's prepared page (entry-server.tsx) knows no device's positions: nothing to offer there.
  const at = useSyncExternalStore(
    positions?.subscribePositions ?? noSubscription,
    () => (positions ? positions.resumePoint(positions.getPositions(), meditation.id, meditation.durationSeconds) : null),
    () => null,
  );
  if (at === null) return null;
  return (
    // Above the stretched title button, like the heart: its own button.
    <button
      type="button"
      onClick={() => onResume(meditation, at)}
      aria-label={`Continue ${meditation.title} from ${formatTime(at)}`}
      className="relative z-10 mt-4 inline-flex min-h-11 items-center gap-1.5 self-start rounded-full bg-teal-50 px-4 text-sm font-medium text-teal-900 ring-1 ring-teal-200 hover:bg-teal-100 dark:bg-teal-950 dark:text-teal-100 dark:ring-teal-800 dark:hover:bg-teal-900"
    >
      <Play className="size-4" aria-hidden />
      Continue from {formatTime(at)}
    </button>
  );
}

export const MeditationCard = forwardRef<HTMLButtonElement, Props>(function MeditationCard({ meditation, locked, mark, highlighted, onSelect, saved, onToggleFavourite, onResume, unavailable, extra }, ref) {
  return (
    <article
      data-testid="meditation-card"
      data-unavailable={unavailable ? '' : undefined}
      className={`group relative flex h-full w-full flex-col rounded-3xl p-6 text-left shadow-sm ring-1 transition focus-within:ring-2 focus-within:ring-teal-600 hover:-translate-y-0.5 hover:shadow-lg motion-reduce:transition-none motion-reduce:hover:translate-y-0 ${
        highlighted ? 'ring-2 ring-teal-600 dark:ring-teal-300' : 'ring-stone-200 dark:ring-stone-800'
      } bg-white dark:bg-stone-900 ${unavailable ? 'shadow-none grayscale' : ''}`}
    >
      {/* The category's picture (decorative): the card's own room, so nothing moves when it arrives. */}
      <div aria-hidden data-art={meditation.category} className={`card-art -mx-6 -mt-6 mb-5 h-16 rounded-t-3xl ${unavailable ? 'opacity-40' : 'dark:opacity-85'}`} />
      <div className="flex items-start justify-between gap-3">
        <h2 className="font-serif text-xl font-semibold leading-snug text-stone-900 dark:text-stone-50">
          <button
            ref={ref}
            type="button"
            onClick={() => !unavailable && onSelect(meditation)}
            aria-disabled={unavailable ? true : undefined}
            aria-describedby={`${meditation.id}-meta`}
            className="text-left after:absolute after:inset-0 after:rounded-3xl after:content-[''] focus:outline-none"
          >
            {meditation.title}
          </button>
        </h2>
        <div className="relative z-10 flex shrink-0 items-center gap-1">
          <FavouriteToggle meditation={meditation} saved={saved} onToggle={onToggleFavourite} />
          {/* Nothing says 'play' on a card that cannot play now. */}
          {unavailable ? null : (
            <span
              className="pointer-events-none inline-flex size-10 items-center justify-center rounded-full bg-teal-50 text-teal-800 transition group-hover:bg-teal-700 group-hover:text-white dark:bg-teal-950 dark:text-teal-200 dark:group-hover:bg-teal-400 dark:group-hover:text-stone-950"
              aria-hidden
            >
              {locked ? <Lock className="size-4" /> : <Play className="size-4" />}
            </span>
          )}
        </div>
      </div>
      <p className="mt-3 flex-1 leading-relaxed text-stone-600 dark:text-stone-300">{meditation.description}</p>
      {onResume && !locked && !unavailable ? <ResumeButton meditation={meditation} onResume={onResume} /> : null}
      <div id={`${meditation.id}-meta`} className="mt-5 flex flex-wrap items-center gap-x-4 gap-y-2 text-sm text-stone-500 dark:text-stone-400">
        <span className="inline-flex items-center gap-1.5">
          <Clock className="size-4" aria-hidden />
          {displayDuration(meditation)}
        </span>
        {mark ? (
          <span data-testid="card-mark" className={`inline-flex items-center gap-1.5 font-medium ${mark === 'playing' ? 'text-teal-800 dark:text-teal-200' : 'text-stone-600 dark:text-stone-300'}`}>
            {mark === 'playing' ? 'Playing' : 'Played'}
          </span>
        ) : null}
        {meditation.free ? (
          <span className="inline-flex items-center gap-1.5 rounded-full bg-teal-50 px-2.5 py-0.5 font-medium text-teal-800 dark:bg-teal-950 dark:text-teal-200">
            <Gift className="size-4" aria-hidden />
            {CATALOGUE_MESSAGES.freeSample}
          </span>
        ) : null}
        {unavailable ? (
          <span className="font-medium text-stone-700 dark:text-stone-200">{unavailable}</span>
        ) : locked ? (
          <span className="inline-flex items-center gap-1.5 font-medium text-amber-700 dark:text-amber-300">
            <Lock className="size-4" aria-hidden />
            {CATALOGUE_MESSAGES.subscribeToListen}
          </span>
        ) : null}
        {extra}
      </div>
    </article>
  );
});
