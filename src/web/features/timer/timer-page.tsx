/**
 * /timer: the meditation timer (issue 20, item 1). Free for everyone, signed in or not: a length, an
 * optional warm-up, bells to begin, to mark the intervals and to close, and an optional bed of
 * rain or ocean. The choices stay on this device. While a sitting runs the page shows the time
 * left, read from the audio clock; the sitting itself lives in the timer's engine, so moving to
 * another page does not stop it.
 */
import Pause from 'lucide-react/icons/pause';
import Play from 'lucide-react/icons/play';
import Square from 'lucide-react/icons/square';
import Hourglass from 'lucide-react/icons/hourglass';
import Volume2 from 'lucide-react/icons/volume-2';
import { useEffect, useId, useRef, useState, useSyncExternalStore, type ReactNode, type RefObject } from 'react';
import { Link } from 'react-router';
import { isCompleteListen } from '#shared/listening.ts';
import { BED_IDS, BED_LABELS, BELL_IDS, BELL_LABELS, parseCustomMinutes, readTimerSettings, TIMER, type BedChoice, type BellChoice } from '#shared/timer.ts';
import { Button } from '#web/components/ui/button.tsx';
import { PracticeFinished, PracticeHeading } from '#web/features/practice/practice-finished.tsx';
import { PracticeSettingsForm, RadioFieldset } from '#web/features/practice/practice-settings-form.tsx';
import { FieldError, FieldHint, FieldLabel } from '#web/components/ui/field.tsx';
import { useViewer } from '#web/features/auth/use-viewer.ts';
import { usePlayer } from '#web/features/player/player-context.tsx';
import { timerEngine } from '#web/features/timer/timer-engine.ts';
import { beginSitting, sittingOutcome } from '#web/features/timer/timer-recording.ts';
import { choiceClass, useDeviceSettings, useFocusOnViewChange } from '#web/features/practice/practice-page-kit.ts';

const SETTINGS_KEY = 'hm.timerSettings';

export function TimerPage() {
  const snapshot = useSyncExternalStore(timerEngine.subscribe, timerEngine.getSnapshot, timerEngine.getSnapshot);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const phase = snapshot.phase;
  const view = phase === 'idle' || phase === 'failed' || phase === 'loading' ? 'settings' : phase === 'finished' ? 'finished' : 'running';

  useFocusOnViewChange(view, headingRef);

  return (
    <div className="mx-auto max-w-2xl px-4 pb-16 pt-10 sm:px-6">
      {view === 'settings' ? (
        <TimerSettingsView headingRef={headingRef} loading={phase === 'loading'} error={snapshot.error} />
      ) : view === 'running' ? (
        <RunningView headingRef={headingRef} paused={phase === 'paused'} />
      ) : (
        <FinishedView headingRef={headingRef} ranToEnd={snapshot.ranToEnd} satSeconds={snapshot.satSeconds} plannedSeconds={snapshot.plan?.plannedSeconds ?? 0} />
      )}
    </div>
  );
}


function TimerSettingsView({ headingRef, loading, error }: { headingRef: RefObject<HTMLHeadingElement | null>; loading: boolean; error: string | null }) {
  const viewer = useViewer();
  const player = usePlayer();
  const [settings, update] = useDeviceSettings(SETTINGS_KEY, readTimerSettings);
  const isPreset = (TIMER.presetMinutes as readonly number[]).includes(settings.minutes);
  const [custom, setCustom] = useState(isPreset ? '' : String(settings.minutes));
  const [customChosen, setCustomChosen] = useState(!isPreset);
  const [customError, setCustomError] = useState<string | null>(null);
  const customId = useId();

  const begin = () => {
    let minutes = settings.minutes;
    if (customChosen) {
      const parsed = parseCustomMinutes(custom);
      if ('error' in parsed) {
        setCustomError(parsed.error);
        document.getElementById(customId)?.focus();
        return;
      }
      minutes = parsed.minutes;
      update({ minutes });
    }
    // A guided meditation and the bells would talk over each other.
    if (player.status === 'playing') player.toggle();
    void beginSitting({ ...settings, minutes }, viewer.signedIn ? (viewer.user?.id ?? null) : null);
  };

  return (
    <>
      <p className="inline-flex items-center gap-2 text-sm font-semibold uppercase tracking-wider text-teal-700 dark:text-teal-300">
        <Hourglass className="size-4" aria-hidden /> Free for everyone
      </p>
      <PracticeHeading headingRef={headingRef}>Meditation timer</PracticeHeading>
      <p className="mt-3 text-stone-600 dark:text-stone-300">Sit in silence, or with rain or the ocean, with a bell to begin, to mark the time and to close.</p>
      <p className="mt-2 text-sm text-stone-600 dark:text-stone-300">
        Or follow your breath with{' '}
        <Link to="/breathe" className="font-medium text-teal-700 underline-offset-4 hover:underline dark:text-teal-300">
          guided breathing
        </Link>
        .
      </p>

      <PracticeSettingsForm onBegin={begin} begin={{ label: 'Begin', preparing: 'Preparing the bells…' }} loading={loading} invite={!viewer.signedIn ? { path: '/timer', counts: 'your sittings' } : null}>
        <RadioFieldset
          legend="Length"
          className="flex flex-wrap gap-2"
          after={
            customChosen ? (
              <div className="mt-4">
                <FieldLabel htmlFor={customId}>Minutes</FieldLabel>
                <input
                  id={customId}
                  inputMode="numeric"
                  autoComplete="off"
                  value={custom}
                  aria-invalid={customError ? true : undefined}
                  aria-describedby={customError ? `${customId}-error` : `${customId}-hint`}
                  onChange={(event) => {
                    setCustom(event.target.value);
                    setCustomError(null);
                  }}
                  className="h-12 w-32 rounded-2xl border border-stone-300 bg-white px-4 text-base text-stone-900 focus:border-teal-600 focus:outline-none focus:ring-2 focus:ring-teal-600/30 aria-[invalid=true]:border-rose-500 dark:border-stone-700 dark:bg-stone-950 dark:text-stone-50"
                />
                {customError ? <FieldError id={`${customId}-error`}>{customError}</FieldError> : <FieldHint id={`${customId}-hint`}>Between {TIMER.minMinutes} and {TIMER.maxMinutes} minutes.</FieldHint>}
              </div>
            ) : null
          }
        >
          {TIMER.presetMinutes.map((minutes) => (
            <Chip key={minutes} name="timer-length" checked={!customChosen && settings.minutes === minutes} onChange={() => { setCustomChosen(false); setCustomError(null); update({ minutes }); }}>
              {minutes} min
            </Chip>
          ))}
          <Chip name="timer-length" checked={customChosen} onChange={() => setCustomChosen(true)}>
            Custom
          </Chip>
        </RadioFieldset>

        <div className="grid gap-6 sm:grid-cols-2">
          <Select label="Warm-up" value={String(settings.warmUpSeconds)} onChange={(v) => update({ warmUpSeconds: Number(v) })} options={TIMER.warmUpSeconds.map((s) => ({ value: String(s), label: s === 0 ? 'None' : s < 60 ? `${s} seconds` : '1 minute' }))} hint="Time to settle before the first bell." />
          <BellSelect label="Starting bell" value={settings.startBell} onChange={(startBell) => update({ startBell })} />
          <Select label="Interval bells" value={String(settings.intervalMinutes)} onChange={(v) => update({ intervalMinutes: Number(v) })} options={TIMER.intervalMinutes.map((m) => ({ value: String(m), label: m === 0 ? 'None' : m === 1 ? 'Every minute' : `Every ${m} minutes` }))} />
          {settings.intervalMinutes > 0 ? <BellSelect label="Interval bell" value={settings.intervalBell} onChange={(intervalBell) => update({ intervalBell })} /> : <div className="hidden sm:block" />}
          <BellSelect label="Ending bell" value={settings.endBell} onChange={(endBell) => update({ endBell })} />
          <Select label="Ambient sound" value={settings.bed} onChange={(v) => update({ bed: v as BedChoice })} options={(['none', ...BED_IDS] as const).map((id) => ({ value: id, label: BED_LABELS[id] }))} />
        </div>

        {error ? (
          <p role="alert" className="rounded-2xl bg-rose-50 px-4 py-3 text-sm text-rose-800 ring-1 ring-rose-200 dark:bg-rose-950/40 dark:text-rose-200 dark:ring-rose-900">
            {error}
          </p>
        ) : null}

      </PracticeSettingsForm>
    </>
  );
}

function Chip({ name, checked, onChange, children }: { name: string; checked: boolean; onChange: () => void; children: ReactNode }) {
  return (
    <label
      className={`inline-flex min-h-11 cursor-pointer items-center rounded-full px-4 text-sm font-medium ring-1 transition has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-teal-600 ${
        choiceClass(checked)
      }`}
    >
      <input type="radio" name={name} checked={checked} onChange={onChange} className="sr-only" />
      {children}
    </label>
  );
}

const selectClass =
  'h-12 w-full rounded-2xl border border-stone-300 bg-white px-4 text-base text-stone-900 focus:border-teal-600 focus:outline-none focus:ring-2 focus:ring-teal-600/30 dark:border-stone-700 dark:bg-stone-950 dark:text-stone-50';

function Select({ label, value, onChange, options, hint, after }: { label: string; value: string; onChange: (value: string) => void; options: readonly { value: string; label: string }[]; hint?: string; after?: ReactNode }) {
  const id = useId();
  return (
    <div>
      <FieldLabel htmlFor={id}>{label}</FieldLabel>
      <div className="flex items-center gap-2">
        <select id={id} className={selectClass} value={value} onChange={(event) => onChange(event.target.value)} aria-describedby={hint ? `${id}-hint` : undefined}>
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
        {after}
      </div>
      {hint ? <FieldHint id={`${id}-hint`}>{hint}</FieldHint> : null}
    </div>
  );
}

function BellSelect({ label, value, onChange }: { label: string; value: BellChoice; onChange: (bell: BellChoice) => void }) {
  return (
    <Select
      label={label}
      value={value}
      onChange={(v) => onChange(v as BellChoice)}
      options={([...BELL_IDS, 'none'] as const).map((id) => ({ value: id, label: BELL_LABELS[id] }))}
      after={
        value === 'none' ? null : (
          <Button variant="outline" size="sm" className="size-12 shrink-0 !px-0" aria-label={`Hear the ${BELL_LABELS[value].toLowerCase()}`} onClick={() => void timerEngine.preview(value)}>
            <Volume2 className="size-5" aria-hidden />
          </Button>
        )
      }
    />
  );
}

/** m:ss, or h:mm:ss from an hour. */
function formatClock(totalSeconds: number): string {
  const seconds = Math.max(0, Math.ceil(totalSeconds));
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  const mm = h > 0 ? String(m).padStart(2, '0') : String(m);
  return `${h > 0 ? `${h}:` : ''}${mm}:${String(s).padStart(2, '0')}`;
}

/** The time left, read from the audio clock a few times a second (display only: nothing is timed by it). */
function useRemaining(paused: boolean) {
  const [, setTick] = useState(0);
  useEffect(() => {
    if (paused) return;
    const timer = window.setInterval(() => setTick((n) => n + 1), 250);
    return () => window.clearInterval(timer);
  }, [paused]);
  return timerEngine.remaining();
}

function RunningView({ headingRef, paused }: { headingRef: RefObject<HTMLHeadingElement | null>; paused: boolean }) {
  const remaining = useRemaining(paused);
  const snapshot = timerEngine.getSnapshot();
  const warmUp = remaining?.phase === 'warm-up';
  const planned = snapshot.plan?.plannedSeconds ?? 0;
  const progress = remaining && !warmUp && planned > 0 ? 1 - remaining.seconds / planned : 0;
  return (
    <section aria-labelledby="timer-running-heading" className="flex flex-col items-center text-center">
      <PracticeHeading headingRef={headingRef}>
        <span id="timer-running-heading">{paused ? 'Paused' : warmUp ? 'Settling in' : 'Sitting'}</span>
      </PracticeHeading>
      <p className="mt-2 text-stone-600 dark:text-stone-300">{warmUp ? 'The first bell rings when you are ready.' : `${formatClock(planned)} in all. Time left:`}</p>
      <div className="relative mt-8 grid size-64 place-items-center">
        <svg viewBox="0 0 100 100" className="absolute inset-0 -rotate-90" aria-hidden focusable="false">
          <circle cx="50" cy="50" r="46" fill="none" strokeWidth="3" className="stroke-stone-200 dark:stroke-stone-800" />
          <circle cx="50" cy="50" r="46" fill="none" strokeWidth="3" strokeLinecap="round" pathLength={1} strokeDasharray={`${progress} 1`} className="stroke-teal-600 transition-[stroke-dasharray] duration-300 dark:stroke-teal-300" />
        </svg>
        <p className="font-serif text-6xl font-semibold tabular-nums text-stone-900 dark:text-stone-50" data-testid="timer-remaining" role="timer" aria-live="off" aria-label={warmUp ? 'Warm-up time left' : 'Time left'}>
          {formatClock(remaining?.seconds ?? 0)}
        </p>
      </div>
      <div className="mt-10 flex flex-wrap justify-center gap-3">
        {paused ? (
          <Button size="lg" onClick={() => void timerEngine.resume()}>
            <Play className="size-5" aria-hidden /> Resume
          </Button>
        ) : (
          <Button size="lg" variant="secondary" onClick={() => void timerEngine.pause()}>
            <Pause className="size-5" aria-hidden /> Pause
          </Button>
        )}
        <Button size="lg" variant="outline" onClick={() => timerEngine.endEarly()}>
          <Square className="size-5" aria-hidden /> End
        </Button>
      </div>
      <p className="mt-8 max-w-sm text-sm text-stone-500 dark:text-stone-400">The bells keep time with the screen off or another app in front. Closing this tab ends the sitting.</p>
    </section>
  );
}

function FinishedView({ headingRef, ranToEnd, satSeconds, plannedSeconds }: { headingRef: RefObject<HTMLHeadingElement | null>; ranToEnd: boolean; satSeconds: number; plannedSeconds: number }) {
  const outcome = useSyncExternalStore(sittingOutcome.subscribe, sittingOutcome.get, sittingOutcome.get);
  const sat = Math.round(satSeconds / 60);
  const partial = !isCompleteListen(satSeconds, plannedSeconds);
  const planned = Math.round(plannedSeconds / 60);
  const satWords = sat < 1 ? 'under a minute' : `${sat} ${sat === 1 ? 'minute' : 'minutes'}`;
  return (
    <PracticeFinished
      headingRef={headingRef}
      heading={ranToEnd ? 'Well done' : 'Sitting ended'}
      summary={ranToEnd ? `You sat for ${satWords}.` : `You sat for ${satWords} of ${String(planned)} ${planned === 1 ? 'minute' : 'minutes'}.`}
      what="sitting"
      outcome={outcome}
      partial={partial}
      visitor={{ path: '/timer', counts: 'your sittings' }}
      again={{ label: 'Sit again', onClick: () => timerEngine.reset() }}
      testId="timer-outcome"
    />
  );
}
