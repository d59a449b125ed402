/** The mini player fixed at the bottom of every screen once a meditation is chosen. */
import { LoaderCircle, Pause, Play, X } from 'lucide-react';
import { formatTime } from '#web/features/player/format-time.ts';
import { usePlayer } from '#web/features/player/player-context.tsx';

export function PlayerBar() {
  const player = usePlayer();
  if (!player.current) return null;
  const percent = player.duration > 0 ? (player.currentTime / player.duration) * 100 : 0;
  const playing = player.status === 'playing';
  return (
    <section aria-label="Now playing" className="fixed inset-x-0 bottom-0 z-40 border-t border-stone-200 bg-white/95 backdrop-blur dark:border-stone-800 dark:bg-stone-900/95">
      <div className="mx-auto flex max-w-6xl items-center gap-4 px-4 py-3 sm:px-6">
        <button
          type="button"
          onClick={player.toggle}
          aria-label={playing ? 'Pause' : 'Play'}
          className="inline-flex size-12 shrink-0 items-center justify-center rounded-full bg-teal-700 text-white hover:bg-teal-800 dark:bg-teal-400 dark:text-stone-950"
        >
          {player.status === 'loading' ? <LoaderCircle className="size-5 animate-spin" aria-hidden /> : playing ? <Pause className="size-5" aria-hidden /> : <Play className="size-5" aria-hidden />}
        </button>
        <div className="min-w-0 flex-1">
          <p className="truncate font-medium text-stone-900 dark:text-stone-50" data-testid="player-title">
            {player.current.title}
          </p>
          {player.error ? (
            <p role="alert" className="truncate text-sm text-rose-700 dark:text-rose-300">
              {player.error}
            </p>
          ) : (
            <div className="mt-1 flex items-center gap-3 text-xs tabular-nums text-stone-500 dark:text-stone-400">
              <span data-testid="player-current-time">{formatTime(player.currentTime)}</span>
              <input
                type="range"
                min={0}
                max={100}
                step={0.1}
                value={percent}
                onChange={(e) => player.seekToPercent(Number(e.target.value))}
                aria-label="Seek"
                aria-valuetext={`${formatTime(player.currentTime)} of ${formatTime(player.duration)}`}
                className="h-1 flex-1 accent-teal-700 dark:accent-teal-300"
              />
              <span>{formatTime(player.duration)}</span>
            </div>
          )}
        </div>
        <button type="button" onClick={player.close} aria-label="Close player" className="inline-flex size-10 items-center justify-center rounded-full text-stone-500 hover:bg-stone-100 dark:hover:bg-stone-800">
          <X className="size-5" aria-hidden />
        </button>
      </div>
    </section>
  );
}
