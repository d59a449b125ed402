/**
 * The full player: a bottom sheet at 90% of the viewport (spec), modal while open. Escape or
 * 'Minimise player' returns to the mini bar; playback carries on either way.
 */
import ChevronDown from 'lucide-react/icons/chevron-down';
import FileText from 'lucide-react/icons/file-text';
import Moon from 'lucide-react/icons/moon';
import RotateCw from 'lucide-react/icons/rotate-cw';
import WifiOff from 'lucide-react/icons/wifi-off';
import X from 'lucide-react/icons/x';
import { Dialog } from 'radix-ui';
import { lazy, Suspense, useEffect, useId, useState, type ComponentType } from 'react';
import { AUDIO } from '#shared/constants.ts';
import { Link } from 'react-router';
import { Button, buttonClasses } from '#web/components/ui/button.tsx';
import { DialogNotices } from '#web/components/ui/dialog-notices.tsx';
import { useReturnFocus } from '#web/components/ui/return-focus.ts';
import { FavouriteButton } from '#web/features/favourites/favourite-button.tsx';
import { DownloadControl } from '#web/features/downloads/download-control.tsx';
import { LoadingStatus, SeekSlider, TransportRow } from '#web/features/player/player-controls.tsx';
import { usePlayer, usePlayerCore, usePlayerProgress } from '#web/features/player/player-context.tsx';
import { formatTime } from '#web/features/player/format-time.ts';

/**
 * Background sound (issue 37, item 3; decision 0056): its own chunks, fetched when a track starts
 * rather than with the idle prefetch that brings this sheet to every visitor. Offline on a first
 * visit (no service worker yet) the chunk cannot come: the sheet then goes without background sound
 * for the visit, and the downloaded track plays, instead of the whole sheet failing to load.
 */
const SoundscapePicker = lazy<ComponentType>(() =>
  import('#web/features/player/soundscape-picker.tsx').then(
    (m) => ({ default: m.SoundscapePicker }),
    (error: unknown) => {
      console.warn('background sound unavailable', error);
      return { default: () => null };
    },
  ),
);

export function PlayerSheet() {
  const player = usePlayer();
  const [showTranscript, setShowTranscript] = useState(false);
  const current = player.current;
  // A new track starts with its transcript closed (adjusted while rendering, not in an effect).
  const [transcriptTrack, setTranscriptTrack] = useState(current?.id);
  // Opens on Play/Pause (issue 38: it opened on 'Minimise player', so Space minimised it), and gives
  // focus back to what opened it (a card, the mini bar) when minimised.
  const focus = useReturnFocus((content) => content.querySelector<HTMLElement>('[data-play-pause]'));
  // Made here as well as in the picker: this component stays mounted while a track is current, minimised
  // too, so the background sound follows a track started without the sheet open.
  const { store, engine } = usePlayerCore();
  useEffect(() => {
    void import('#web/features/player/soundscape.ts')
      .then((m) => m.soundscapeFor(store, engine))
      .catch((error: unknown) => console.warn('soundscape: unavailable', error));
  }, [store, engine]);
  if (transcriptTrack !== current?.id) {
    setTranscriptTrack(current?.id);
    setShowTranscript(false);
  }
  if (!current) return null;

  return (
    <Dialog.Root open={player.expanded} onOpenChange={(open) => (open ? player.expand() : player.minimise())}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-stone-950/40 backdrop-blur-sm motion-safe:animate-fade-in" />
        <Dialog.Content
          data-player-sheet=""
          {...focus}
          aria-describedby="player-sheet-description"
          style={{ height: `${AUDIO.fullPlayerViewportHeight}dvh` }}
          className="fixed inset-x-0 bottom-0 z-50 mx-auto flex max-w-3xl flex-col rounded-t-[2rem] bg-gradient-to-b from-teal-50 to-white shadow-2xl ring-1 ring-stone-200 focus:outline-none motion-safe:animate-sheet-up dark:from-stone-900 dark:to-stone-950 dark:ring-stone-800"
        >
          <div className="flex items-center justify-between px-4 pt-4 sm:px-6">
            <Dialog.Close className="inline-flex size-11 items-center justify-center rounded-full text-stone-600 hover:bg-white/70 dark:text-stone-300 dark:hover:bg-stone-800" aria-label="Minimise player">
              <ChevronDown className="size-6" aria-hidden />
            </Dialog.Close>
            <span className="text-xs font-medium uppercase tracking-widest text-stone-500 dark:text-stone-400">Now playing</span>
            <button type="button" onClick={player.close} className="inline-flex size-11 items-center justify-center rounded-full text-stone-600 hover:bg-white/70 dark:text-stone-300 dark:hover:bg-stone-800" aria-label="Close player">
              <X className="size-6" aria-hidden />
            </button>
          </div>

          <div className="flex min-h-0 flex-1 flex-col overflow-y-auto px-6 pb-8 sm:px-10">
            <div className="mt-4 text-center">
              <Dialog.Title className="font-serif text-3xl font-semibold text-stone-900 sm:text-4xl dark:text-stone-50" data-testid="sheet-title">
                {current.title}
              </Dialog.Title>
              <Dialog.Description id="player-sheet-description" className="mx-auto mt-3 max-w-xl leading-relaxed text-stone-600 dark:text-stone-300">
                {current.description}
              </Dialog.Description>
              {player.local ? (
                <p className="mt-3 inline-flex items-center gap-1.5 rounded-full bg-stone-100 px-3 py-1 text-xs font-medium text-stone-700 dark:bg-stone-800 dark:text-stone-200">
                  <WifiOff className="size-3.5" aria-hidden /> Playing your offline copy
                </p>
              ) : null}
            </div>

            <BreathingOrb playing={player.status === 'playing'} />

            <div className="mx-auto mt-8 w-full max-w-xl">
              <DialogNotices open={player.expanded} className="mb-6" />
              <LoadingStatus />
              {player.error ? (
                <div role="alert" className="mb-6 rounded-2xl bg-rose-50 p-4 text-center text-rose-900 ring-1 ring-rose-200 dark:bg-rose-950/40 dark:text-rose-100 dark:ring-rose-900">
                  <p>{player.error}</p>
                  <Button variant="outline" size="sm" className="mt-3" onClick={() => player.choose(current, player.queue)}>
                    <RotateCw className="size-4" aria-hidden /> Try again
                  </Button>
                </div>
              ) : null}
              <ResumeOffer />
              <SeekSlider />
              <div className="mt-8">
                <TransportRow />
              </div>
              <div className="mt-8 flex flex-wrap items-center justify-center gap-3">
                <FavouriteButton meditation={current} className="ring-1 ring-stone-200 dark:ring-stone-700" />
                {/* Issue 38, item 5: Download where the listening is, not only in Account › Favourites. */}
                <span className="text-sm empty:hidden">
                  <DownloadControl meditation={current} />
                </span>
                <SpeedSelect />
                <SleepTimerSelect />
                <Link to="/timer" onClick={player.minimise} className={buttonClasses({ variant: 'outline', size: 'sm' })}>
                  Meditation timer
                </Link>
                {player.transcript ? (
                  <Button variant="outline" size="sm" aria-expanded={showTranscript} aria-controls="player-transcript" onClick={() => setShowTranscript((v) => !v)}>
                    <FileText className="size-4" aria-hidden /> {showTranscript ? 'Hide transcript' : 'Transcript'}
                  </Button>
                ) : null}
              </div>
            </div>

            <Suspense fallback={null}>
              <SoundscapePicker />
            </Suspense>

            {player.transcript && showTranscript ? (
              // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- a long transcript must be reachable by keyboard so it can be scrolled and read there
              <section id="player-transcript" aria-label="Transcript" tabIndex={0} className="mx-auto mt-8 w-full max-w-xl rounded-2xl bg-white/80 p-5 leading-relaxed text-stone-700 ring-1 ring-stone-200 dark:bg-stone-900 dark:text-stone-200 dark:ring-stone-800">
                {player.transcript.split(/\n{2,}/).map((paragraph, i) => (
                  <p key={i} className="mt-3 first:mt-0 whitespace-pre-line">
                    {paragraph}
                  </p>
                ))}
              </section>
            ) : null}
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** "Continue from 7:32" (issue 20, item 2): while this play is before where the track was left off last time. */
function ResumeOffer() {
  const player = usePlayer();
  const { currentTime } = usePlayerProgress();
  const offer = player.resumeOffer;
  if (!offer || offer.playId !== player.playId || currentTime >= offer.seconds - 5) return null;
  return (
    <div className="mb-6 flex justify-center">
      <Button variant="outline" size="sm" onClick={player.acceptResume}>
        Continue from {formatTime(offer.seconds)}
      </Button>
    </div>
  );
}

/**
 * A quiet visual anchor where other apps show artwork: an orb that swells and settles on a slow
 * breathing rhythm while audio plays, and stays still when paused or when motion is reduced.
 */
function BreathingOrb({ playing }: { playing: boolean }) {
  return (
    <div className="mx-auto mt-8 flex size-40 items-center justify-center sm:size-48" aria-hidden>
      <div className={`size-full rounded-full bg-gradient-to-br from-teal-200 via-teal-100 to-amber-100 shadow-[0_0_60px_-10px] shadow-teal-300/60 dark:from-teal-800 dark:via-teal-900 dark:to-stone-800 dark:shadow-teal-700/40 ${playing ? 'motion-safe:animate-breathe' : ''}`} />
    </div>
  );
}

const selectClass =
  'h-9 rounded-full bg-white pl-3 pr-8 text-sm font-medium text-stone-700 ring-1 ring-stone-300 dark:bg-stone-900 dark:text-stone-200 dark:ring-stone-700';

function SpeedSelect() {
  const player = usePlayer();
  const id = useId();
  return (
    <div className="flex items-center gap-2">
      <label htmlFor={id} className="sr-only">
        Playback speed
      </label>
      <select id={id} className={selectClass} value={player.rate} onChange={(e) => player.setRate(Number(e.target.value))}>
        {AUDIO.playbackRates.map((rate) => (
          <option key={rate} value={rate}>
            {rate}× speed
          </option>
        ))}
      </select>
    </div>
  );
}

function SleepTimerSelect() {
  const player = usePlayer();
  const id = useId();
  // The clock the countdown reads: set when a timer is chosen, then every 15 s while one runs.
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!player.sleepAt) return;
    const timer = setInterval(() => setNow(Date.now()), 15_000);
    return () => clearInterval(timer);
  }, [player.sleepAt]);
  const remaining = player.sleepAt ? Math.max(1, Math.ceil((player.sleepAt - now) / 60_000)) : null;
  return (
    <div className="flex items-center gap-2">
      <Moon className="size-4 text-stone-500 dark:text-stone-400" aria-hidden />
      <label htmlFor={id} className="sr-only">
        Sleep timer
      </label>
      <select id={id} className={selectClass} value={player.sleepAt ? 'on' : 'off'} onChange={(e) => {
          setNow(Date.now());
          player.setSleepTimer(e.target.value === 'off' ? null : Number(e.target.value));
        }}>
        <option value="off">Sleep timer off</option>
        {remaining ? (
          <option value="on" disabled>
            Pausing in {remaining} min
          </option>
        ) : null}
        {AUDIO.sleepTimerMinutes.map((m) => (
          <option key={m} value={m}>
            Pause after {m} min
          </option>
        ))}
      </select>
    </div>
  );
}
