/** The mini player fixed at the bottom of every screen once a meditation is chosen. */
import ChevronUp from 'lucide-react/icons/chevron-up';
import X from 'lucide-react/icons/x';
import { LoadingStatus, PlayPauseButton, SeekSlider } from '#web/features/player/player-controls.tsx';
import { usePlayer, usePlayerCore } from '#web/features/player/player-context.tsx';
import { useMediaSession } from '#web/features/player/use-media-session.ts';
import { usePlayerKeyboard } from '#web/features/player/use-player-keyboard.ts';
import { useBottomBar } from '#web/features/player/use-bottom-bar.ts';
import { useRef } from 'react';
import { PLAYER_BAR_ID } from '#web/features/layout/site-header.tsx';

export function PlayerBar() {
  const player = usePlayer();
  const { store, actions } = usePlayerCore();
  // The lock screen's controls live while something is chosen, as this bar does (and load with it, not with the first page).
  useMediaSession(store, actions);
  // So do the keyboard's Space, K and arrows: nothing to control before a track is chosen.
  usePlayerKeyboard(store, actions);
  const bar = useRef<HTMLElement>(null);
  useBottomBar(bar);
  if (!player.current) return null;
  return (
    <section ref={bar} id={PLAYER_BAR_ID} tabIndex={-1} aria-label="Now playing" className="fixed inset-x-0 bottom-0 z-40 border-t border-stone-200 bg-white/95 backdrop-blur dark:border-stone-800 dark:bg-stone-900/95">
      <div className="mx-auto flex max-w-6xl items-center gap-3 px-4 py-3 sm:gap-4 sm:px-6">
        <PlayPauseButton />
        <LoadingStatus />
        <div className="min-w-0 flex-1">
          <button type="button" onClick={player.expand} className="block max-w-full truncate text-left font-medium text-stone-900 hover:underline dark:text-stone-50" data-testid="player-title">
            {player.current.title}
          </button>
          {player.error ? (
            <p role="alert" className="truncate text-sm text-rose-700 dark:text-rose-300">
              {player.error}
            </p>
          ) : (
            <div className="mt-1 text-stone-500 dark:text-stone-400">
              <SeekSlider compact />
            </div>
          )}
        </div>
        <button type="button" onClick={player.expand} aria-label="Expand player" className="inline-flex size-10 items-center justify-center rounded-full text-stone-500 dark:text-stone-400 hover:bg-stone-100 dark:hover:bg-stone-800">
          <ChevronUp className="size-5" aria-hidden />
        </button>
        <button type="button" onClick={player.close} aria-label="Close player" className="inline-flex size-10 items-center justify-center rounded-full text-stone-500 dark:text-stone-400 hover:bg-stone-100 dark:hover:bg-stone-800">
          <X className="size-5" aria-hidden />
        </button>
      </div>
    </section>
  );
}
