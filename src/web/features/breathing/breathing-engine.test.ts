// @vitest-environment jsdom
/**
 * The breathing engine's clocks (issue 37, item 1): every cue handed to Web Audio at once, at its
 * phase's time on the audio clock; the exercise moves on with the audio clock while the page's own
 * timers are held (a background tab), and with the page's clock where there is no audio; a tap at
 * each phase change when asked for.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createBreathingEngine } from '#web/features/breathing/breathing-engine.ts';
import type { BreathingSettings } from '#shared/breathing.ts';

/** Just enough of an AudioContext: a clock the test moves, and sources that note when they start and stop, and end. */
class FakeContext {
  currentTime = 0;
  state = 'running';
  destination = {};
  sources: FakeSource[] = [];
  decodeAudioData = (bytes: ArrayBuffer) => Promise.resolve({ duration: 1, label: new TextDecoder().decode(bytes) });
  resume = () => Promise.resolve();
  close = () => {
    this.state = 'closed';
    return Promise.resolve();
  };
  /** Moves the clock on and fires the 'ended' of every source whose stop time has passed. */
  advance(seconds: number) {
    this.currentTime += seconds;
    for (const source of this.sources) if (source.stopAt !== null && source.stopAt <= this.currentTime && !source.ended) source.end();
  }
}
class FakeSource {
  startAt: number | null = null;
  stopAt: number | null = null;
  ended = false;
  private listeners: (() => void)[] = [];
  constructor(
    readonly context: FakeContext,
    readonly options: { buffer?: { label: string } } = {},
  ) {
    context.sources.push(this);
  }
  connect() {}
  start(when = 0) {
    this.startAt = when;
  }
  stop(when = this.context.currentTime) {
    this.stopAt = when;
  }
  addEventListener(_name: string, listener: () => void) {
    this.listeners.push(listener);
  }
  end() {
    this.ended = true;
    for (const listener of this.listeners) listener();
  }
}

const settings = (change: Partial<BreathingSettings> = {}): BreathingSettings => ({ pattern: '4-7-8', length: { count: 1, unit: 'cycles' }, sound: true, haptics: true, ...change });

beforeEach(() => {
  vi.useFakeTimers();
  vi.stubGlobal('AudioBufferSourceNode', class extends FakeSource {});
  vi.stubGlobal('ConstantSourceNode', class extends FakeSource {});
  vi.stubGlobal('GainNode', class { connect() {} });
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('the breathing engine', () => {
  it('hands every cue to the audio clock at its phase’s time, and follows the audio clock while the page’s timers are held', async () => {
    const context = new FakeContext();
    const taps: number[] = [];
    const engine = createBreathingEngine({
      createContext: () => context as unknown as AudioContext,
      fetchSound: (url) => Promise.resolve(new TextEncoder().encode(url.split('/').at(-1)).buffer),
      // The page's clock stands still: a background tab's lot.
      now: () => 0,
      tap: () => taps.push(engine.getSnapshot().index),
    });
    const finished: unknown[] = [];
    engine.onFinished((exercise) => finished.push(exercise));
    await engine.start(settings());
    expect(engine.getSnapshot()).toMatchObject({ status: 'running', index: -1, notice: null });

    const cues = context.sources.filter((s) => s.options.buffer).map((s) => [s.options.buffer!.label, s.startAt]);
    // One second of lead, then in at 0, hold at 4, out at 11.
    expect(cues).toEqual([
      ['in.mp3', 1],
      ['hold.mp3', 5],
      ['out.mp3', 12],
    ]);

    context.advance(1);
    expect(engine.getSnapshot()).toMatchObject({ index: 0, countdown: 4 });
    context.advance(4);
    expect(engine.getSnapshot()).toMatchObject({ index: 1, countdown: 7 });
    context.advance(7);
    expect(engine.getSnapshot()).toMatchObject({ index: 2, countdown: 8 });
    expect(taps).toEqual([0, 1, 2]);
    context.advance(8);
    expect(engine.getSnapshot()).toMatchObject({ status: 'finished', ranToEnd: true, breathedSeconds: 19 });
    expect(finished).toMatchObject([{ ranToEnd: true, breathedSeconds: 19, settings: settings() }]);
  });

  it('runs on the page’s clock where there is no Web Audio, says so when sound was asked for, and taps only when asked', async () => {
    let now = 0;
    const taps: number[] = [];
    const engine = createBreathingEngine({ createContext: null, now: () => now, tap: () => taps.push(1) });
    await engine.start(settings({ haptics: false }));
    expect(engine.getSnapshot().notice).toMatch(/without them/);
    now = 1_000 + 4_500;
    await vi.advanceTimersByTimeAsync(250);
    expect(engine.getSnapshot()).toMatchObject({ index: 1, countdown: 7 });
    engine.stop();
    expect(engine.getSnapshot()).toMatchObject({ status: 'finished', ranToEnd: false, breathedSeconds: 4 });
    expect(taps).toEqual([]);
  });

  it('goes on without sound when the cues cannot be fetched, and stops every cue at Stop', async () => {
    const context = new FakeContext();
    const engine = createBreathingEngine({ createContext: () => context as unknown as AudioContext, fetchSound: () => Promise.reject(new Error('offline')), now: () => 0 });
    await engine.start(settings({ pattern: 'box' }));
    expect(engine.getSnapshot()).toMatchObject({ status: 'running', notice: 'The sound cues could not be loaded, so the exercise runs without them.' });
    expect(context.sources.some((s) => s.options.buffer)).toBe(false);
    context.advance(3);
    engine.stop();
    expect(engine.getSnapshot()).toMatchObject({ status: 'finished', ranToEnd: false, breathedSeconds: 2 });
    expect(context.state).toBe('closed');
  });
});
