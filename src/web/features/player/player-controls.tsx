/** Shared transport controls for the mini bar and the full sheet; every control has an accessible name. */
import LoaderCircle from 'lucide-react/icons/loader-circle';
import Pause from 'lucide-react/icons/pause';
import Play from 'lucide-react/icons/play';
import RotateCcw from 'lucide-react/icons/rotate-ccw';
import RotateCw from 'lucide-react/icons/rotate-cw';
import SkipBack from 'lucide-react/icons/skip-back';
import SkipForward from 'lucide-react/icons/skip-forward';
import { AUDIO } from '#shared/constants.ts';
import { PLAYER_MESSAGES } from '#shared/player-messages.ts';
import { formatTime } from '#web/features/player/format-time.ts';
import { usePlayer, usePlayerProgress } from '#web/features/player/player-context.tsx';
import { neighbours, progressPercent } from '#web/features/player/player-machine.ts';

const round = 'inline-flex items-center justify-center rounded-full transition-colors disabled:opacity-40';
const quiet = `${round} size-11 text-stone-600 hover:bg-stone-100 dark:text-stone-300 dark:hover:bg-stone-800`;

export function PlayPauseButton({ size = 'md' }: { size?: 'md' | 'lg' }) {
  const player = usePlayer();
  const playing = player.status === 'playing';
  const dims = size === 'lg' ? 'size-16' : 'size-12';
  return (
    <button
      type="button"
      onClick={player.toggle}
      // While the audio loads it says so (issue 38: it said 'Play').
      aria-label={player.status === 'loading' ? PLAYER_MESSAGES.loading : playing ? 'Pause' : 'Play'}
      data-play-pause=""
      className={`${round} ${dims} shrink-0 bg-teal-700 text-white shadow-sm hover:bg-teal-800 dark:bg-teal-400 dark:text-stone-950 dark:hover:bg-teal-300`}
    >
      {player.status === 'loading' ? (
        <LoaderCircle className="size-6 animate-spin motion-reduce:animate-none" aria-hidden />
      ) : playing ? (
        <Pause className="size-6" aria-hidden />
      ) : (
        <Play className="size-6 translate-x-px" aria-hidden />
      )}
    </button>
  );
}

/** 'Loading…' said politely while the audio loads (issue 38: it was shown by a spinner only). */
export function LoadingStatus() {
  const player = usePlayer();
  return (
    <p role="status" className="sr-only">
      {player.status === 'loading' ? PLAYER_MESSAGES.loading : ''}
    </p>
  );
}

export function SeekSlider({ compact = false }: { compact?: boolean }) {
  const player = usePlayer();
  const { currentTime, duration } = usePlayerProgress();
  const percent = progressPercent({ currentTime, duration });
  return (
    <div className={compact ? 'flex items-center gap-3 text-xs' : 'grid gap-2 text-sm'}>
      {compact ? <span data-testid="player-current-time" className="tabular-nums">{formatTime(currentTime)}</span> : null}
      <input
        type="range"
        min={0}
        max={100}
        step={AUDIO.sliderStep}
        value={percent}
        onChange={(e) => player.seekToPercent(Number(e.target.value))}
        aria-label="Seek"
        aria-valuetext={`${formatTime(currentTime)} of ${formatTime(duration)}`}
        // The track stays thin; the element (the part a finger can hit) is 44 px tall.
        className="h-11 w-full flex-1 cursor-pointer accent-teal-700 dark:accent-teal-300"
      />
      {compact ? (
        <span className="tabular-nums">{formatTime(duration)}</span>
      ) : (
        <div className="flex justify-between tabular-nums text-stone-500 dark:text-stone-400">
          <span data-testid="sheet-current-time">{formatTime(currentTime)}</span>
          <span data-testid="player-percent" aria-label={`${Math.round(percent)} percent played`}>
            {Math.round(percent)}%
          </span>
          <span data-testid="player-duration">{formatTime(duration)}</span>
        </div>
      )}
    </div>
  );
}

export function TransportRow() {
  const player = usePlayer();
  const { previous, next } = neighbours(player);
  const step = AUDIO.seekStepSeconds;
  return (
    <div className="flex items-center justify-center gap-2 sm:gap-4">
      {previous ? (
        <button type="button" className={quiet} onClick={player.previous} aria-label={`Previous: ${previous.title}`}>
          <SkipBack className="size-5" aria-hidden />
        </button>
      ) : (
        <span className="size-11" aria-hidden />
      )}
      <button type="button" className={quiet} onClick={() => player.seekBy(-step)} aria-label={`Rewind ${step} seconds`}>
        <RotateCcw className="size-5" aria-hidden />
        <span className="sr-only">{step}</span>
      </button>
      <PlayPauseButton size="lg" />
      <button type="button" className={quiet} onClick={() => player.seekBy(step)} aria-label={`Skip forward ${step} seconds`}>
        <RotateCw className="size-5" aria-hidden />
      </button>
      {next ? (
        <button type="button" className={quiet} onClick={player.next} aria-label={`Next: ${next.title}`}>
          <SkipForward className="size-5" aria-hidden />
        </button>
      ) : (
        <span className="size-11" aria-hidden />
      )}
    </div>
  );
}
