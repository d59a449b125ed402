/**
 * The meditation timer's clock (issue 20, item 1). One sitting is planned in full when it begins
 * (shared/timer.ts) and handed to Web Audio at once: every bell, the bed's copies and a silent
 * marker at the end are scheduled on the AudioContext's clock, which runs on the audio thread. A
 * background tab or a locked screen throttles timers and animation frames, never that clock, so the
 * bells ring on time and the end is noticed when the marker ends, not by a setTimeout. Pausing
 * suspends the context: the whole schedule waits with it.
 *
 * A module singleton, so a sitting goes on while the person looks at another page of the app.
 */
import { audioLag, nextShift, type ClockReading } from '#web/features/timer/clock-drift.ts';
import { bedCopies, bedUrl, bellsOf, bellUrl, planTimer, TIMER, TIMER_MESSAGES, type BedId, type BellId, type TimerPlan, type TimerSettings } from '#shared/timer.ts';
import { engineState, soundBytesCache } from '#web/features/practice/engine-state.ts';

type TimerPhase = 'idle' | 'loading' | 'warm-up' | 'sitting' | 'paused' | 'finished' | 'failed';

type TimerSnapshot = {
  phase: TimerPhase;
  plan: TimerPlan | null;
  /** The phase a paused sitting returns to. */
  resumeTo: 'warm-up' | 'sitting' | null;
  /** Seconds sat when the sitting finished (pauses excluded). */
  satSeconds: number;
  /** Whether the sitting ran to its end (not ended early). */
  ranToEnd: boolean;
  /** Why the sounds could not start, for the page to say. */
  error: string | null;
};

export type FinishedSitting = { id: string; plannedSeconds: number; satSeconds: number; ranToEnd: boolean; completedAt: string };

/** Something planned at a second of the plan that can still be moved while it is ahead (clock-drift.ts). */
type Cue = { at: number; move: (when: number) => void };

type Running = {
  id: string;
  context: AudioContext;
  plan: TimerPlan;
  /** The context's time at which the plan's second 0 falls. */
  origin: number;
  /** Every node scheduled, stopped together when the sitting ends early. */
  nodes: AudioScheduledSourceNode[];
  /** The bells and the markers, each at `origin + at - applied` on the audio clock. */
  cues: Cue[];
  /** Both clocks read at the start of this running stretch (null until the first reading, and after a pause). */
  anchor: ClockReading | null;
  /** The drift measured in earlier stretches (before a pause), in audio seconds. */
  carried: number;
  /** The shift the cues are scheduled with now. */
  applied: number;
  driftCheck: number;
};

const IDLE: TimerSnapshot = { phase: 'idle', plan: null, resumeTo: null, satSeconds: 0, ranToEnd: false, error: null };
/** The sounds are scheduled this far ahead of now, so the first bell is never late. */
const LEAD_SECONDS = 0.1;
/** How often the audio clock is compared with the wall: a hidden tab's timers wake about once a minute. */
const DRIFT_CHECK_MS = 30_000;
/** A cue this close to sounding is left where it is. */
const MOVE_MARGIN_SECONDS = 0.05;

/** The engine with its two ports: the audio context it plays on, and how it fetches a sound's bytes (tests give both). */
export function createTimerEngine({
  createContext = () => new AudioContext(),
  fetchSound = async (url: string) => (await fetchOk(url)).arrayBuffer(),
}: { createContext?: () => AudioContext; fetchSound?: (url: string) => Promise<ArrayBuffer> } = {}) {
  const state = engineState<TimerSnapshot, FinishedSitting>(IDLE);
  const set = state.set;
  let running: Running | null = null;
  const soundBytes = soundBytesCache(fetchSound);

  async function decode(context: AudioContext, url: string): Promise<AudioBuffer> {
    // decodeAudioData detaches the bytes it is given: decode a copy, keep the original.
    return context.decodeAudioData((await soundBytes(url)).slice(0));
  }

  /** The context's seconds into the plan (pauses excluded: a suspended context's clock stands still). */
  function planSeconds(current: Running | null = running): number {
    return current ? Math.max(0, current.context.currentTime - current.origin) : 0;
  }

  function satSeconds(plan: TimerPlan, at: number): number {
    return Math.min(plan.plannedSeconds, Math.max(0, at - plan.sitStart));
  }

  function finish(ranToEnd: boolean) {
    const current = running;
    if (!current) return;
    running = null;
    window.clearInterval(current.driftCheck);
    const sat = ranToEnd ? current.plan.plannedSeconds : satSeconds(current.plan, planSeconds(current) + current.applied);
    if (!ranToEnd) for (const node of current.nodes) stopQuietly(node);
    // An ended sitting lets its last bell ring out; an ended-early one goes quiet at once.
    if (ranToEnd) window.setTimeout(() => void current.context.close().catch(() => undefined), 15_000);
    else void current.context.close().catch(() => undefined);
    set({ phase: 'finished', satSeconds: sat, ranToEnd, resumeTo: null });
    const sitting: FinishedSitting = { id: current.id, plannedSeconds: current.plan.plannedSeconds, satSeconds: sat, ranToEnd, completedAt: new Date().toISOString() };
    state.finished(sitting);
  }

  async function start(settings: TimerSettings): Promise<void> {
    if (running || state.snapshot().phase === 'loading') return;
    const plan = planTimer(settings);
    if (typeof AudioContext === 'undefined') {
      set({ ...IDLE, phase: 'failed', error: TIMER_MESSAGES.unsupported });
      return;
    }
    // Created inside the press of Begin: browsers let a page start sound only from a user's gesture.
    const context = createContext();
    set({ ...IDLE, phase: 'loading', plan });
    let bells: Map<BellId, AudioBuffer>;
    let bed: AudioBuffer | null;
    try {
      const ids = bellsOf(plan);
      const decoded = await Promise.all(ids.map((id) => decode(context, bellUrl(id))));
      bells = new Map(ids.map((id, i) => [id, decoded[i]]));
      bed = plan.bed ? await decode(context, bedUrl(plan.bed.id)) : null;
      await context.resume();
    } catch (error) {
      console.warn('timer: sounds unavailable', error);
      void context.close().catch(() => undefined);
      set({ ...IDLE, phase: 'failed', plan, error: TIMER_MESSAGES.soundsFailed });
      return;
    }

    const origin = context.currentTime + LEAD_SECONDS;
    const id = crypto.randomUUID();
    const nodes: AudioScheduledSourceNode[] = [];
    const cues: Cue[] = [];
    for (const cue of plan.bells) {
      const buffer = bells.get(cue.bell) ?? null;
      // A source starts once: moving a bell is a new source in place of the old, which then never plays.
      let source = playAt(context, buffer, origin + cue.at);
      nodes.push(source);
      cues.push({
        at: cue.at,
        move: (when) => {
          stopQuietly(source);
          source = playAt(context, buffer, when);
          nodes.push(source);
        },
      });
    }
    if (plan.bed && bed) nodes.push(...scheduleBed(context, bed, plan.bed, origin));

    // The end: a silent source that stops when the sitting does. Its 'ended' event arrives in a
    // background tab too, and after a pause it comes as late as the pause was long. Moving it is a
    // new stop time (a later call to stop() replaces an earlier one).
    const silent = new GainNode(context, { gain: 0 });
    silent.connect(context.destination);
    const end = marker(context, silent, origin, origin + plan.sitEnd, () => {
      if (running?.id === id) finish(true);
    });
    nodes.push(end);
    cues.push({ at: plan.sitEnd, move: (when) => end.stop(when) });

    running = { id, context, plan, origin, nodes, cues, anchor: null, carried: 0, applied: 0, driftCheck: window.setInterval(checkDrift, DRIFT_CHECK_MS) };
    set({ phase: plan.sitStart > 0 ? 'warm-up' : 'sitting' });
    // The warm-up's end is a change of words only: this source's end tells the page to look again.
    if (plan.sitStart > 0) {
      const warmUp = marker(context, silent, origin, origin + plan.sitStart, () => {
        if (running?.id === id && state.snapshot().phase === 'warm-up') set({ phase: 'sitting' });
      });
      nodes.push(warmUp);
      cues.push({ at: plan.sitStart, move: (when) => warmUp.stop(when) });
    }
  }

  /**
   * Once a minute or so (a hidden tab's timers still wake that often): how far the audio clock has
   * parted from the wall since this stretch began, and the cues still ahead moved by it (clock-drift.ts).
   */
  function checkDrift() {
    const current = running;
    if (!current || state.snapshot().phase === 'paused' || typeof current.context.getOutputTimestamp !== 'function') return;
    const reading = current.context.getOutputTimestamp();
    const now = { contextTime: reading.contextTime ?? 0, performanceTime: reading.performanceTime ?? 0 };
    if (!current.anchor) {
      if (now.performanceTime > 0) current.anchor = now;
      return;
    }
    const shift = nextShift({ lag: audioLag(current.anchor, now), carried: current.carried, applied: current.applied });
    if (shift === null) return;
    const soon = current.context.currentTime + MOVE_MARGIN_SECONDS;
    for (const cue of current.cues) {
      const scheduled = current.origin + cue.at - current.applied;
      const wanted = current.origin + cue.at - shift;
      // What is about to sound, or has, stays where it is.
      if (scheduled > soon && wanted > soon) cue.move(wanted);
    }
    current.applied = shift;
  }

  async function pause(): Promise<void> {
    const resumeTo = state.snapshot().phase;
    if (!running || (resumeTo !== 'warm-up' && resumeTo !== 'sitting')) return;
    const current = running;
    // The stretch's drift is kept; the next stretch is measured from a new reading after the pause.
    checkDrift();
    if (current.anchor) {
      const reading = current.context.getOutputTimestamp();
      current.carried += audioLag(current.anchor, { contextTime: reading.contextTime ?? 0, performanceTime: reading.performanceTime ?? 0 }) ?? 0;
      current.anchor = null;
    }
    await current.context.suspend();
    set({ phase: 'paused', resumeTo });
  }

  async function resume(): Promise<void> {
    if (!running || state.snapshot().phase !== 'paused') return;
    await running.context.resume();
    set({ phase: planSeconds() < running.plan.sitStart ? 'warm-up' : 'sitting', resumeTo: null });
  }

  /** Ends the sitting now; what was sat so far is reported (the page decides whether it is recorded). */
  function endEarly(): void {
    finish(false);
  }

  /** Back to the settings after a finished or failed sitting. */
  function reset(): void {
    if (running) return;
    set(IDLE);
  }

  /** Plays one bell now, for choosing between them. */
  async function preview(bell: BellId): Promise<void> {
    if (typeof AudioContext === 'undefined') return;
    const context = createContext();
    try {
      const source = new AudioBufferSourceNode(context, { buffer: await decode(context, bellUrl(bell)) });
      source.connect(context.destination);
      source.addEventListener('ended', () => void context.close().catch(() => undefined));
      source.start();
    } catch (error) {
      console.warn('timer: bell preview failed', error);
      void context.close().catch(() => undefined);
    }
  }

  /** Seconds left in the current phase (warm-up or sitting), read from the audio clock. */
  function remaining(): { phase: 'warm-up' | 'sitting'; seconds: number } | null {
    if (!running) return null;
    const at = planSeconds();
    const { sitStart, sitEnd } = running.plan;
    // The cues' shift counts: the end comes when its moved marker says.
    const shift = running.applied;
    return at < sitStart - shift ? { phase: 'warm-up', seconds: sitStart - shift - at } : { phase: 'sitting', seconds: Math.max(0, sitEnd - shift - at) };
  }

  return {
    start,
    pause,
    resume,
    endEarly,
    reset,
    preview,
    remaining,
    ...state.store,
  };
}

/**
 * The bed's copies, each fading in and out over the shared fade so one crossfades into the next,
 * the first fading in as the sitting starts and the last fading out at its end.
 */
function scheduleBed(context: AudioContext, buffer: AudioBuffer, bed: { id: BedId; from: number; to: number }, origin: number): AudioScheduledSourceNode[] {
  const fade = Math.min(TIMER.bedFadeSeconds, buffer.duration / 3);
  const output = new GainNode(context, { gain: 1 });
  output.connect(context.destination);
  // The whole bed fades out over the last seconds of the sitting, under the ending bell.
  output.gain.setValueAtTime(1, origin + Math.max(bed.from, bed.to - fade));
  output.gain.linearRampToValueAtTime(0, origin + bed.to);
  const nodes: AudioScheduledSourceNode[] = [];
  for (const at of bedCopies({ from: bed.from, to: bed.to, length: buffer.duration, fade })) {
    const gain = new GainNode(context, { gain: 0 });
    gain.connect(output);
    const startAt = origin + at;
    const stopAt = Math.min(startAt + buffer.duration, origin + bed.to);
    gain.gain.setValueAtTime(0, startAt);
    gain.gain.linearRampToValueAtTime(1, startAt + fade);
    gain.gain.setValueAtTime(1, Math.max(startAt + fade, startAt + buffer.duration - fade));
    gain.gain.linearRampToValueAtTime(0, startAt + buffer.duration);
    const source = new AudioBufferSourceNode(context, { buffer });
    source.connect(gain);
    source.start(startAt);
    source.stop(stopAt);
    nodes.push(source);
  }
  return nodes;
}

/** A bell: its buffer played once, at `when` on the audio clock. */
function playAt(context: AudioContext, buffer: AudioBuffer | null, when: number): AudioBufferSourceNode {
  const source = new AudioBufferSourceNode(context, { buffer });
  source.connect(context.destination);
  source.start(when);
  return source;
}

/** A silent source from `from` to `to`, whose end calls `onEnd` (the 'ended' event reaches a background tab). */
function marker(context: AudioContext, silent: GainNode, from: number, to: number, onEnd: () => void): ConstantSourceNode {
  const node = new ConstantSourceNode(context);
  node.connect(silent);
  node.start(from);
  node.stop(to);
  node.addEventListener('ended', onEnd);
  return node;
}

function stopQuietly(node: AudioScheduledSourceNode) {
  try {
    node.stop();
  } catch {
    // Never started, or already stopped: nothing to do.
  }
}

async function fetchOk(url: string): Promise<Response> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
  return response;
}

export const timerEngine = createTimerEngine();
