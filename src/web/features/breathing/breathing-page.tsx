/**
 * /breathe: guided breathing (issue 37, item 1). Free for everyone, signed in or not: a pattern, a
 * length, soft sound cues (and, inside the apps, a tap at each change). "Start" begins; each phase is
 * said in words in a polite live region, a circle grows and shrinks with the breath (still, with
 * reduced motion: the words and the countdown remain), and "Stop" ends it. The choices stay on this
 * device. A signed-in person's exercise becomes a practice session (breathing-recording.ts).
 */
import Square from 'lucide-react/icons/square';
import Feather from 'lucide-react/icons/feather';
import { useEffect, useId, useRef, useSyncExternalStore, type ReactNode, type RefObject } from 'react';
import { isCompleteListen } from '#shared/listening.ts';
import { BREATHING_LENGTH_COUNTS, BREATHING_LENGTH_UNITS, BREATHING_PATTERN_IDS, BREATHING_PATTERNS, guideScale, lengthLabel, PHASE_WORDS, readBreathingSettings, type BreathingLength } from '#shared/breathing.ts';
import { Button } from '#web/components/ui/button.tsx';
import { PracticeFinished, PracticeHeading } from '#web/features/practice/practice-finished.tsx';
import { PracticeSettingsForm, RadioFieldset } from '#web/features/practice/practice-settings-form.tsx';
import { FieldHint, FieldLabel } from '#web/components/ui/field.tsx';
import { useViewer } from '#web/features/auth/use-viewer.ts';
import { usePlayer } from '#web/features/player/player-context.tsx';
import { beginExercise, breathingEngine, exerciseOutcome } from '#web/features/breathing/breathing-recording.ts';
import { usePageTitle } from '#web/lib/use-page-title.ts';
import { platform } from '#web/platform/platform.ts';
import { choiceClass, useDeviceSettings, useFocusOnViewChange } from '#web/features/practice/practice-page-kit.ts';

const SETTINGS_KEY = 'hm.breathingSettings';

const REDUCED_MOTION = '(prefers-reduced-motion: reduce)';

/** Whether the person asked their device for less motion (followed live, as the setting changes). */
function useReducedMotion(): boolean {
  return useSyncExternalStore(
    (listener) => {
      if (typeof window.matchMedia !== 'function') return () => undefined;
      const query = window.matchMedia(REDUCED_MOTION);
      query.addEventListener('change', listener);
      return () => query.removeEventListener('change', listener);
    },
    () => typeof window.matchMedia === 'function' && window.matchMedia(REDUCED_MOTION).matches,
    () => false,
  );
}

export function BreathingPage() {
  usePageTitle('Guided breathing');
  const snapshot = useSyncExternalStore(breathingEngine.subscribe, breathingEngine.getSnapshot, breathingEngine.getSnapshot);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const view = snapshot.status === 'running' ? 'running' : snapshot.status === 'finished' ? 'finished' : 'settings';

  useFocusOnViewChange(view, headingRef);

  // The exercise is this page: leaving it stops it (recorded as a Stop would be), and the next visit begins with the choices.
  useEffect(
    () => () => {
      breathingEngine.stop();
      breathingEngine.reset();
    },
    [],
  );

  return (
    <div className="mx-auto max-w-2xl px-4 pb-16 pt-10 sm:px-6">
      {view === 'settings' ? <SettingsView headingRef={headingRef} loading={snapshot.status === 'loading'} /> : view === 'running' ? <RunningView headingRef={headingRef} /> : <FinishedView headingRef={headingRef} />}
    </div>
  );
}


const lengthValue = ({ count, unit }: BreathingLength) => `${count}-${unit}`;
function parseLength(value: string): BreathingLength | null {
  for (const unit of BREATHING_LENGTH_UNITS) for (const count of BREATHING_LENGTH_COUNTS) if (lengthValue({ count, unit }) === value) return { count, unit };
  return null;
}

const selectClass =
  'h-12 w-full rounded-2xl border border-stone-300 bg-white px-4 text-base text-stone-900 focus:border-teal-600 focus:outline-none focus:ring-2 focus:ring-teal-600/30 dark:border-stone-700 dark:bg-stone-950 dark:text-stone-50';

function SettingsView({ headingRef, loading }: { headingRef: RefObject<HTMLHeadingElement | null>; loading: boolean }) {
  const viewer = useViewer();
  const player = usePlayer();
  const [settings, update] = useDeviceSettings(SETTINGS_KEY, readBreathingSettings);
  const lengthId = useId();
  const soundId = useId();
  const hapticsId = useId();
  const canTap = platform().haptics !== null;

  const start = () => {
    // A guided meditation and the cues would talk over each other.
    if (player.status === 'playing') player.toggle();
    const userId = viewer.status === 'loading' ? undefined : (viewer.user?.id ?? null);
    void beginExercise(settings, userId);
  };

  return (
    <>
      <p className="inline-flex items-center gap-2 text-sm font-semibold uppercase tracking-wider text-teal-700 dark:text-teal-300">
        <Feather className="size-4" aria-hidden /> Free for everyone
      </p>
      <PracticeHeading headingRef={headingRef}>Guided breathing</PracticeHeading>
      <p className="mt-3 text-stone-600 dark:text-stone-300">Choose a pattern and follow the words, the circle or the soft sounds, with your eyes open or closed.</p>

      <PracticeSettingsForm onBegin={start} begin={{ label: 'Start', preparing: 'Preparing the sounds…' }} loading={loading} invite={viewer.status === 'signed-out' ? { path: '/breathe', counts: 'your breathing' } : null}>
        <RadioFieldset legend="Pattern" className="grid gap-3 sm:grid-cols-2">
          {BREATHING_PATTERN_IDS.map((id) => (
            <PatternCard key={id} id={id} checked={settings.pattern === id} onChange={() => update({ pattern: id })} />
          ))}
        </RadioFieldset>

        <div className="grid gap-6 sm:grid-cols-2">
          <div>
            <FieldLabel htmlFor={lengthId}>Length</FieldLabel>
            <select
              id={lengthId}
              className={selectClass}
              value={lengthValue(settings.length)}
              onChange={(event) => {
                const length = parseLength(event.target.value);
                if (length) update({ length });
              }}
            >
              {BREATHING_LENGTH_UNITS.map((unit) => (
                <optgroup key={unit} label={unit === 'minutes' ? 'Minutes' : 'Cycles'}>
                  {BREATHING_LENGTH_COUNTS.map((count) => (
                    <option key={count} value={lengthValue({ count, unit })}>
                      {lengthLabel({ count, unit })}
                    </option>
                  ))}
                </optgroup>
              ))}
            </select>
            <FieldHint id={`${lengthId}-hint`}>A length in minutes ends with the nearest whole cycle.</FieldHint>
          </div>
          <div className="space-y-4 sm:pt-7">
            <Checkbox id={soundId} checked={settings.sound} onChange={(sound) => update({ sound })}>
              Soft sound at each change
            </Checkbox>
            {canTap ? (
              <Checkbox id={hapticsId} checked={settings.haptics} onChange={(haptics) => update({ haptics })}>
                Vibrate at each change
              </Checkbox>
            ) : null}
          </div>
        </div>

      </PracticeSettingsForm>
    </>
  );
}

/** A pattern as a large tappable card, a native radio underneath: named by its name alone, its timings as the description. */
function PatternCard({ id, checked, onChange }: { id: (typeof BREATHING_PATTERN_IDS)[number]; checked: boolean; onChange: () => void }) {
  const nameId = useId();
  const descriptionId = useId();
  const pattern = BREATHING_PATTERNS[id];
  return (
    <label
      className={`flex min-h-12 cursor-pointer items-start gap-3 rounded-2xl px-4 py-3 ring-1 transition has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-teal-600 ${
        choiceClass(checked)
      }`}
    >
      <input
        type="radio"
        name="breathing-pattern"
        value={id}
        checked={checked}
        onChange={onChange}
        aria-labelledby={nameId}
        aria-describedby={descriptionId}
        className="mt-1 size-4 shrink-0 cursor-pointer appearance-none rounded-full border-2 border-current checked:border-[5px]"
      />
      <span>
        <span id={nameId} className="block font-semibold">
          {pattern.label}
        </span>
        <span id={descriptionId} className={`mt-0.5 block text-sm ${checked ? 'text-teal-50 dark:text-stone-800' : 'text-stone-600 dark:text-stone-300'}`}>
          {pattern.description}
        </span>
      </span>
    </label>
  );
}

function Checkbox({ id, checked, onChange, children }: { id: string; checked: boolean; onChange: (checked: boolean) => void; children: ReactNode }) {
  return (
    <div className="flex min-h-11 items-center gap-3">
      <input id={id} type="checkbox" checked={checked} onChange={(event) => onChange(event.target.checked)} className="size-5 shrink-0 cursor-pointer accent-teal-700 dark:accent-teal-400" />
      <label htmlFor={id} className="cursor-pointer text-sm font-medium text-stone-700 dark:text-stone-200">
        {children}
      </label>
    </div>
  );
}

/** The circle's size at rest and full: it never shrinks to nothing. */
const GUIDE_MIN = 0.45;

function RunningView({ headingRef }: { headingRef: RefObject<HTMLHeadingElement | null> }) {
  const snapshot = useSyncExternalStore(breathingEngine.subscribe, breathingEngine.getSnapshot, breathingEngine.getSnapshot);
  const reducedMotion = useReducedMotion();
  const { plan, settings, index, countdown, notice } = snapshot;
  if (!plan || !settings) return null;
  const phase = index >= 0 ? plan.phases[index] : null;
  const scale = GUIDE_MIN + (1 - GUIDE_MIN) * (phase ? guideScale(plan, index) : 0);
  return (
    <section aria-labelledby="breathing-running-heading" className="flex flex-col items-center text-center">
      <PracticeHeading headingRef={headingRef}>
        <span id="breathing-running-heading">{BREATHING_PATTERNS[settings.pattern].label}</span>
      </PracticeHeading>
      <p className="mt-2 text-stone-600 dark:text-stone-300" data-testid="breathing-cycle">
        {phase ? `Cycle ${phase.cycle} of ${plan.cycles}` : `${plan.cycles} ${plan.cycles === 1 ? 'cycle' : 'cycles'}`}
      </p>
      <div className="relative mt-8 grid size-72 place-items-center sm:size-80">
        {/* The full breath's size, so the circle's growing and shrinking reads against it. */}
        <div aria-hidden className="absolute inset-0 rounded-full border-2 border-dashed border-teal-200 dark:border-teal-900" />
        <div
          aria-hidden
          data-testid="breathing-guide"
          data-motion={reducedMotion ? 'still' : 'moving'}
          className="absolute inset-0 rounded-full bg-teal-100 ring-1 ring-teal-200 dark:bg-teal-900/60 dark:ring-teal-800"
          style={reducedMotion ? undefined : { transform: `scale(${scale})`, transition: `transform ${phase ? phase.seconds : 0.3}s ease-in-out` }}
        />
        <div className="relative flex flex-col items-center gap-2">
          <p role="status" aria-live="polite" aria-atomic="true" data-testid="breathing-phase" className="min-h-10 font-serif text-3xl font-semibold text-stone-900 dark:text-stone-50">
            {phase ? PHASE_WORDS[phase.kind] : ''}
          </p>
          <p role="timer" aria-live="off" aria-label="Seconds left in this phase" data-testid="breathing-countdown" className="min-h-12 font-serif text-5xl font-semibold tabular-nums text-teal-800 dark:text-teal-200">
            {phase ? countdown : ''}
          </p>
        </div>
      </div>
      {notice ? <p className="mt-6 max-w-sm text-sm text-stone-600 dark:text-stone-300">{notice}</p> : null}
      <div className="mt-10">
        <Button size="lg" variant="outline" onClick={() => breathingEngine.stop()}>
          <Square className="size-5" aria-hidden /> Stop
        </Button>
      </div>
    </section>
  );
}

function FinishedView({ headingRef }: { headingRef: RefObject<HTMLHeadingElement | null> }) {
  const snapshot = useSyncExternalStore(breathingEngine.subscribe, breathingEngine.getSnapshot, breathingEngine.getSnapshot);
  const outcome = useSyncExternalStore(exerciseOutcome.subscribe, exerciseOutcome.get, exerciseOutcome.get);
  const { ranToEnd, breathedSeconds, plan } = snapshot;
  const total = plan?.totalSeconds ?? 0;
  const partial = !isCompleteListen(breathedSeconds, total);
  return (
    <PracticeFinished
      headingRef={headingRef}
      heading={ranToEnd ? 'Well done' : 'Exercise stopped'}
      summary={ranToEnd ? `You breathed for ${duration(breathedSeconds)}.` : `You breathed for ${duration(breathedSeconds)} of ${duration(total)}.`}
      what="exercise"
      outcome={outcome}
      partial={partial}
      visitor={{ path: '/breathe', counts: 'your breathing' }}
      again={{ label: 'Breathe again', onClick: () => breathingEngine.reset() }}
      testId="breathing-outcome"
    />
  );
}

/** "45 seconds", "1 minute 4 seconds", "3 minutes". */
function duration(totalSeconds: number): string {
  const seconds = Math.round(totalSeconds);
  const m = Math.floor(seconds / 60);
  const s = seconds % 60;
  const minutes = m > 0 ? `${m} ${m === 1 ? 'minute' : 'minutes'}` : '';
  const rest = s > 0 || m === 0 ? `${s} ${s === 1 ? 'second' : 'seconds'}` : '';
  return [minutes, rest].filter(Boolean).join(' ');
}
