/**
 * The part of Web Audio the timer engine uses, with a clock the test moves: an AudioContext whose
 * `currentTime` advances only when the test says so and only while the context runs (a suspended
 * context's clock stands still, as the audio thread's does), and scheduled sources that fire
 * 'ended' when the clock passes their stop time. Browsers are the real thing in the journeys
 * (timer.e2e.ts); this is for the engine's rules, in fake time, without a minute of real waiting.
 */

type Listener = () => void;

export class FakeAudioBuffer {
  constructor(readonly duration: number) {}
}

class FakeParam {
  value: number;
  readonly events: { type: 'set' | 'ramp'; value: number; at: number }[] = [];
  constructor(value: number) {
    this.value = value;
  }
  setValueAtTime(value: number, at: number) {
    this.events.push({ type: 'set', value, at });
    return this;
  }
  linearRampToValueAtTime(value: number, at: number) {
    this.events.push({ type: 'ramp', value, at });
    return this;
  }
}

class FakeNode {
  readonly connections: unknown[] = [];
  constructor(readonly context: FakeAudioContext) {}
  connect(target: unknown) {
    this.connections.push(target);
    return target;
  }
}

export class FakeGainNode extends FakeNode {
  readonly gain: FakeParam;
  constructor(context: FakeAudioContext, options: { gain?: number } = {}) {
    super(context);
    this.gain = new FakeParam(options.gain ?? 1);
  }
}

/** A scheduled source: started once at `startAt`; `stop(when)` replaces an earlier stop time; 'ended' once. */
export class FakeScheduledSource extends FakeNode {
  startAt: number | null = null;
  stopAt: number | null = null;
  ended = false;
  private readonly listeners: Listener[] = [];
  constructor(context: FakeAudioContext) {
    super(context);
    context.sources.push(this);
  }
  start(when = 0) {
    if (this.startAt !== null) throw new DOMException('start() called twice', 'InvalidStateError');
    this.startAt = Math.max(when, this.context.currentTime);
  }
  stop(when?: number) {
    if (this.startAt === null) throw new DOMException('stop() before start()', 'InvalidStateError');
    this.stopAt = when === undefined ? this.context.currentTime : Math.max(when, this.context.currentTime);
    this.context.settle();
  }
  addEventListener(type: string, listener: Listener) {
    if (type === 'ended') this.listeners.push(listener);
  }
  /** The 'ended' event, once the clock has passed the stop time. */
  end() {
    if (this.ended) return;
    this.ended = true;
    for (const listener of this.listeners) listener();
  }
}

export class FakeBufferSource extends FakeScheduledSource {
  readonly buffer: FakeAudioBuffer | null;
  constructor(context: FakeAudioContext, options: { buffer?: FakeAudioBuffer | null } = {}) {
    super(context);
    this.buffer = options.buffer ?? null;
  }
  override start(when = 0) {
    super.start(when);
    // A buffer plays to its end unless stopped sooner.
    if (this.buffer) this.stopAt = this.startAt! + this.buffer.duration;
  }
}

export class FakeConstantSource extends FakeScheduledSource {}

export class FakeAudioContext {
  currentTime = 0;
  state: 'suspended' | 'running' | 'closed' = 'suspended';
  readonly destination = {};
  readonly sources: FakeScheduledSource[] = [];
  /** What decodeAudioData answers: a buffer of this many seconds, or a refusal. */
  decodeAs: number | Error = 3;

  decodeAudioData(bytes: ArrayBuffer): Promise<FakeAudioBuffer> {
    if (!(bytes instanceof ArrayBuffer)) return Promise.reject(new TypeError('not an ArrayBuffer'));
    return this.decodeAs instanceof Error ? Promise.reject(this.decodeAs) : Promise.resolve(new FakeAudioBuffer(this.decodeAs));
  }
  resume() {
    if (this.state !== 'closed') this.state = 'running';
    return Promise.resolve();
  }
  suspend() {
    if (this.state !== 'closed') this.state = 'suspended';
    return Promise.resolve();
  }
  close() {
    this.state = 'closed';
    return Promise.resolve();
  }
  getOutputTimestamp() {
    // No drift: the audio clock and the wall agree (clock-drift.test.ts covers drift).
    return { contextTime: this.currentTime, performanceTime: this.currentTime * 1000 + 1 };
  }
  /** Moves the audio clock on by `seconds` if the context runs, firing each 'ended' in time order. */
  advance(seconds: number) {
    if (this.state !== 'running') return;
    const target = this.currentTime + seconds;
    for (;;) {
      const due = this.sources.filter((s) => !s.ended && s.stopAt !== null && s.stopAt <= target).sort((a, b) => a.stopAt! - b.stopAt!);
      if (due.length === 0) break;
      const next = due[0];
      this.currentTime = Math.max(this.currentTime, next.stopAt!);
      next.end();
    }
    this.currentTime = target;
  }
  /** A stop time now or in the past ends the source at once; its 'ended' comes as a task would, after the caller's code. */
  settle() {
    for (const source of this.sources) if (!source.ended && source.stopAt !== null && source.stopAt <= this.currentTime) queueMicrotask(() => source.end());
  }
  /** The sources that will sound: started, and not stopped before they began. */
  scheduled(): FakeScheduledSource[] {
    return this.sources.filter((s) => s.startAt !== null && (s.stopAt === null || s.stopAt > s.startAt));
  }
}

/** Puts the node constructors where the engine finds them (globals, as in a browser); returns the undo. */
export function installWebAudioClock(): () => void {
  const names = ['AudioContext', 'GainNode', 'AudioBufferSourceNode', 'ConstantSourceNode'] as const;
  const kept = names.map((name) => [name, Object.getOwnPropertyDescriptor(globalThis, name)] as const);
  const fakes = { AudioContext: FakeAudioContext, GainNode: FakeGainNode, AudioBufferSourceNode: FakeBufferSource, ConstantSourceNode: FakeConstantSource };
  for (const name of names) Object.defineProperty(globalThis, name, { value: fakes[name], configurable: true, writable: true });
  return () => {
    for (const [name, descriptor] of kept) {
      if (descriptor) Object.defineProperty(globalThis, name, descriptor);
      else Reflect.deleteProperty(globalThis, name);
    }
  };
}
