/**
 * The timer engine's rules in fake time (issue 32: the engines get a clock the tests move): every
 * bell is handed to the audio clock when the sitting begins, the sitting ends when the audio clock
 * passes its end (not a page timer), a pause stops that clock and with it the whole schedule, an
 * early end reports what was sat, and sounds that cannot load say so. The browser journey
 * (timer.e2e.ts) keeps its one real minute on a real audio clock.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TIMER_MESSAGES, type TimerSettings } from '#shared/timer.ts';
import { createTimerEngine, type FinishedSitting } from '#web/features/timer/timer-engine.ts';
import { FakeAudioContext, FakeBufferSource, installWebAudioClock } from '#tests/fakes/web-audio-clock.ts';

const ONE_MINUTE: TimerSettings = { minutes: 1, warmUpSeconds: 10, startBell: 'singing-bowl', intervalMinutes: 0, intervalBell: 'soft-chime', endBell: 'temple-bell', bed: 'none' };

let uninstall: () => void;
let context: FakeAudioContext;
let fetched: string[];

function engine() {
  const made = createTimerEngine({
    createContext: () => {
      context = new FakeAudioContext();
      return context as unknown as AudioContext;
    },
    fetchSound: (url) => {
      fetched.push(url);
      return Promise.resolve(new ArrayBuffer(8));
    },
  });
  const finished: FinishedSitting[] = [];
  made.onFinished((sitting) => finished.push(sitting));
  return { timer: made, finished };
}

beforeEach(() => {
  uninstall = installWebAudioClock();
  // The engine reads its timers from window, as in a browser; the drift check is one of them.
  vi.stubGlobal('window', globalThis);
  vi.useFakeTimers();
  fetched = [];
});

afterEach(() => {
  vi.useRealTimers();
  uninstall();
});

describe('the timer engine on the audio clock', () => {
  it('hands every bell to the audio clock at the start, and ends when that clock passes the end, not a page timer', async () => {
    const { timer, finished } = engine();
    await timer.start(ONE_MINUTE);
    expect(fetched.sort()).toEqual(['/sounds/bells/singing-bowl.mp3', '/sounds/bells/temple-bell.mp3']);
    expect(context.state).toBe('running');
    expect(timer.getSnapshot().phase).toBe('warm-up');
    // The start bell at the warm-up's end (10 s) and the end bell at 70 s, both scheduled now.
    const [startBell, endBell] = context.scheduled().filter((s) => s instanceof FakeBufferSource);
    expect(endBell.startAt! - startBell.startAt!).toBeCloseTo(60, 6);
    expect(timer.remaining()).toMatchObject({ phase: 'warm-up' });
    expect(timer.remaining()!.seconds).toBeCloseTo(10, 6);

    // Page timers alone move nothing: a background tab's are throttled, and the sitting does not need them.
    vi.advanceTimersByTime(5 * 60_000);
    expect(timer.getSnapshot().phase).toBe('warm-up');
    expect(finished).toEqual([]);

    context.advance(10.2);
    expect(timer.getSnapshot().phase).toBe('sitting');
    context.advance(59.8);
    expect(finished).toEqual([]);
    context.advance(0.2);
    expect(timer.getSnapshot()).toMatchObject({ phase: 'finished', satSeconds: 60, ranToEnd: true });
    expect(finished).toMatchObject([{ plannedSeconds: 60, satSeconds: 60, ranToEnd: true }]);
    // The last bell rings out before the context closes.
    expect(context.state).toBe('running');
    vi.advanceTimersByTime(15_000);
    expect(context.state).toBe('closed');
  });

  it('stands still while paused: the audio clock stops, and the whole schedule waits with it', async () => {
    const { timer, finished } = engine();
    await timer.start({ ...ONE_MINUTE, warmUpSeconds: 0 });
    expect(timer.getSnapshot().phase).toBe('sitting');
    context.advance(30.1);
    await timer.pause();
    expect(timer.getSnapshot()).toMatchObject({ phase: 'paused', resumeTo: 'sitting' });
    expect(context.state).toBe('suspended');
    const left = timer.remaining()!.seconds;
    // An hour passes on the wall; the suspended clock does not move, nor does the end.
    vi.advanceTimersByTime(60 * 60_000);
    context.advance(3600);
    expect(timer.remaining()!.seconds).toBe(left);
    expect(finished).toEqual([]);

    await timer.resume();
    expect(timer.getSnapshot().phase).toBe('sitting');
    context.advance(left - 0.5);
    expect(finished).toEqual([]);
    context.advance(1);
    expect(finished).toMatchObject([{ satSeconds: 60, ranToEnd: true }]);
  });

  it('ends early with the time sat, silences what was still to ring and closes at once', async () => {
    const { timer, finished } = engine();
    await timer.start(ONE_MINUTE);
    context.advance(10.1 + 25);
    timer.endEarly();
    expect(timer.getSnapshot()).toMatchObject({ phase: 'finished', ranToEnd: false });
    expect(finished).toHaveLength(1);
    expect(finished[0].satSeconds).toBeCloseTo(25, 0);
    expect(context.state).toBe('closed');
    // The end bell, still ahead, was stopped before it began: it never sounds.
    const endBell = context.sources.filter((s) => s instanceof FakeBufferSource).at(-1)!;
    expect(endBell.stopAt).toBeLessThan(endBell.startAt!);
    // The end marker's own 'ended' (from being stopped) does not finish the sitting a second time.
    await Promise.resolve();
    expect(finished).toHaveLength(1);
  });

  it('says so when its sounds cannot be loaded, and lets the person try again', async () => {
    const created: FakeAudioContext[] = [];
    const timer = createTimerEngine({
      createContext: () => {
        const made = new FakeAudioContext();
        made.decodeAs = new Error('EncodingError');
        created.push(made);
        return made as unknown as AudioContext;
      },
      fetchSound: () => Promise.resolve(new ArrayBuffer(8)),
    });
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    await timer.start(ONE_MINUTE);
    expect(timer.getSnapshot()).toMatchObject({ phase: 'failed', error: TIMER_MESSAGES.soundsFailed });
    expect(created[0].state).toBe('closed');
    timer.reset();
    expect(timer.getSnapshot().phase).toBe('idle');
  });
});
