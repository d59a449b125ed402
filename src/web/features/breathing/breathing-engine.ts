/**
 * Guided breathing's clock (issue 37, item 1). The exercise is planned in full when it begins
 * (shared/breathing.ts). Where Web Audio is there, every cue is handed to it at once, each an
 * AudioBufferSourceNode started at its phase's time on the AudioContext's clock, as the timer's bells
 * are (decision 0038): the cues keep time with the screen off or the tab in the background. A silent
 * marker per phase, on the same clock, wakes the page as each phase begins even when its own timers
 * are held (a background tab's), and the page's clock, read four times a second, moves the countdown.
 * Where the exercise is is the further of the two clocks: either may be the one that runs.
 *
 * Without Web Audio, or with the sound cues off and no audio (a test's jsdom), the page's clock alone
 * runs it. Inside the apps each phase change is a light tap of the haptics engine.
 */
import { breathCueUrl, BREATHING_MESSAGES, phaseAt, planBreathing, type BreathingPlan, type BreathingSettings, type BreathPhaseKind } from '#shared/breathing.ts';
import { engineState, soundBytesCache } from '#web/features/practice/engine-state.ts';

type BreathingStatus = 'idle' | 'loading' | 'running' | 'finished';

export type BreathingSnapshot = {
  status: BreathingStatus;
  settings: BreathingSettings | null;
  plan: BreathingPlan | null;
  /** The phase under way (an index into plan.phases), or -1 before the first begins. */
  index: number;
  /** Whole seconds left in the phase, as the countdown shows them. */
  countdown: number;
  /** Seconds breathed when it finished. */
  breathedSeconds: number;
  ranToEnd: boolean;
  /** A note for the page: the cues could not sound (the exercise runs without them). */
  notice: string | null;
};

export type FinishedExercise = { id: string; settings: BreathingSettings; breathedSeconds: number; ranToEnd: boolean; completedAt: string };

type Running = {
  id: string;
  plan: BreathingPlan;
  settings: BreathingSettings;
  /** The page's clock (ms) at the plan's second 0. */
  wallOrigin: number;
  /** The audio clock, when there is one: the context and its time at the plan's second 0. */
  audio: { context: AudioContext; origin: number; nodes: AudioScheduledSourceNode[] } | null;
  tick: number;
};

const IDLE: BreathingSnapshot = { status: 'idle', settings: null, plan: null, index: -1, countdown: 0, breathedSeconds: 0, ranToEnd: false, notice: null };
/** A moment before the first breath: the page shows the guide at rest, and the live region is there before its first words. */
const LEAD_SECONDS = 1;
/** How often the countdown is read (display only: the cues are on the audio clock). */
const TICK_MS = 250;
const CUE_KINDS: readonly BreathPhaseKind[] = ['in', 'in-again', 'hold', 'out'];

type Dependencies = {
  createContext?: (() => AudioContext) | null;
  fetchSound?: (url: string) => Promise<ArrayBuffer>;
  now?: () => number;
  /** A light tap at each phase change (inside the apps); none on the web. */
  tap?: () => void;
};

export function createBreathingEngine({
  createContext = typeof AudioContext === 'undefined' ? null : () => new AudioContext(),
  fetchSound = async (url: string) => {
    const response = await fetch(url);
    if (!response.ok) throw new Error(`${url}: ${response.status}`);
    return response.arrayBuffer();
  },
  now = () => performance.now(),
  tap = () => undefined,
}: Dependencies = {}) {
  const state = engineState<BreathingSnapshot, FinishedExercise>(IDLE);
  const set = state.set;
  let running: Running | null = null;
  const soundBytes = soundBytesCache(fetchSound);
  /** Counts presses of Start and of Stop while loading: a start whose cues arrive after a Stop is dropped. */
  let generation = 0;

  /** Seconds into the plan: the further of the page's clock and the audio clock. */
  function elapsed(current: Running): number {
    const wall = (now() - current.wallOrigin) / 1000;
    const audio = current.audio ? current.audio.context.currentTime - current.audio.origin : -Infinity;
    return Math.max(wall, audio);
  }

  /** Looks at the clocks: a new phase (said, and tapped inside the apps), the countdown, or the end. */
  function update() {
    const current = running;
    if (!current) return;
    const at = phaseAt(current.plan, elapsed(current));
    if ('done' in at) {
      finish(true);
      return;
    }
    const before = elapsed(current) < 0;
    const index = before ? -1 : at.index;
    const countdown = before ? 0 : Math.ceil(at.remaining - 1e-6);
    const changed = index !== state.snapshot().index && index >= 0;
    if (index !== state.snapshot().index || countdown !== state.snapshot().countdown) set({ index, countdown });
    if (changed && current.settings.haptics) tap();
  }

  function finish(ranToEnd: boolean) {
    const current = running;
    if (!current) return;
    running = null;
    window.clearInterval(current.tick);
    const breathed = ranToEnd ? current.plan.totalSeconds : Math.min(current.plan.totalSeconds, Math.max(0, Math.floor(elapsed(current))));
    if (current.audio) {
      const { context, nodes } = current.audio;
      if (!ranToEnd) for (const node of nodes) stopQuietly(node);
      // A finished exercise lets its last cue fade out; a stopped one goes quiet at once.
      if (ranToEnd) window.setTimeout(() => void context.close().catch(() => undefined), 3_000);
      else void context.close().catch(() => undefined);
    }
    set({ status: 'finished', breathedSeconds: breathed, ranToEnd, index: -1, countdown: 0 });
    const exercise: FinishedExercise = { id: current.id, settings: current.settings, breathedSeconds: breathed, ranToEnd, completedAt: new Date().toISOString() };
    state.finished(exercise);
  }

  /** The audio clock and, when asked for, the cues on it; null where there is no Web Audio. */
  async function prepareAudio(settings: BreathingSettings): Promise<{ context: AudioContext; cues: Map<BreathPhaseKind, AudioBuffer> | null; notice: string | null } | null> {
    if (!createContext) return null;
    // Made inside the press of Start: browsers let a page start sound only from a person's gesture.
    let context: AudioContext;
    try {
      context = createContext();
    } catch (error) {
      console.warn('breathing: no audio clock', error);
      return null;
    }
    let cues: Map<BreathPhaseKind, AudioBuffer> | null = null;
    let notice: string | null = null;
    if (settings.sound) {
      try {
        const kinds = CUE_KINDS.filter((kind) => kind !== 'in-again' || settings.pattern === 'sigh');
        const decoded = await Promise.all(kinds.map(async (kind) => context.decodeAudioData((await soundBytes(breathCueUrl(kind))).slice(0))));
        cues = new Map(kinds.map((kind, i) => [kind, decoded[i]]));
      } catch (error) {
        // Offline before the cues were ever cached: the exercise goes on with words, guide and countdown.
        console.warn('breathing: cues unavailable', error);
        notice = BREATHING_MESSAGES.soundsFailed;
      }
    }
    try {
      await context.resume();
    } catch (error) {
      console.warn('breathing: audio clock not running', error);
      void context.close().catch(() => undefined);
      return null;
    }
    return { context, cues, notice };
  }

  async function start(settings: BreathingSettings): Promise<void> {
    if (running || state.snapshot().status === 'loading') return;
    const plan = planBreathing(settings);
    const attempt = ++generation;
    set({ ...IDLE, status: 'loading', settings, plan });
    const audio = await prepareAudio(settings);
    if (attempt !== generation) {
      // Stopped while the cues were loading.
      void audio?.context.close().catch(() => undefined);
      return;
    }
    const notice = settings.sound && !audio ? BREATHING_MESSAGES.unsupported : (audio?.notice ?? null);
    const id = crypto.randomUUID();
    const current: Running = { id, plan, settings, wallOrigin: now() + LEAD_SECONDS * 1000, audio: null, tick: 0 };
    if (audio) {
      const { context, cues } = audio;
      const origin = context.currentTime + LEAD_SECONDS;
      const nodes: AudioScheduledSourceNode[] = [];
      const silent = new GainNode(context, { gain: 0 });
      silent.connect(context.destination);
      for (const phase of plan.phases) {
        const buffer = cues?.get(phase.kind);
        if (buffer) {
          const source = new AudioBufferSourceNode(context, { buffer });
          source.connect(context.destination);
          source.start(origin + phase.at);
          nodes.push(source);
        }
        // A marker that ends as the phase begins: its 'ended' event reaches a page whose timers are held.
        const marker = new ConstantSourceNode(context);
        marker.connect(silent);
        marker.start(origin + phase.at - 0.02);
        marker.stop(origin + phase.at);
        marker.addEventListener('ended', update);
        nodes.push(marker);
      }
      const end = new ConstantSourceNode(context);
      end.connect(silent);
      end.start(origin);
      end.stop(origin + plan.totalSeconds);
      end.addEventListener('ended', update);
      nodes.push(end);
      current.audio = { context, origin, nodes };
    }
    running = current;
    current.tick = window.setInterval(update, TICK_MS);
    set({ status: 'running', notice, index: -1, countdown: 0 });
  }

  /** Stop: ends the exercise now; what was breathed so far is reported (the page decides whether it is recorded). */
  function stop(): void {
    if (state.snapshot().status === 'loading' && !running) {
      generation += 1;
      set(IDLE);
      return;
    }
    finish(false);
  }

  /** Back to the choices after a finished exercise. */
  function reset(): void {
    if (running) return;
    set(IDLE);
  }

  return {
    start,
    stop,
    reset,
    ...state.store,
  };
}

function stopQuietly(node: AudioScheduledSourceNode) {
  try {
    node.stop();
  } catch {
    // Never started, or already stopped: nothing to do.
  }
}
