import { describe, expect, it } from 'vitest';
import { createListeningMeter } from '#web/features/player/listening-meter.ts';

/** Plays from `from` to `to` at `rate`, reporting every 250 ms of wall time like timeupdate. */
function play(meter: ReturnType<typeof createListeningMeter>, clock: { ms: number }, from: number, to: number, rate = 1) {
  const step = 0.25 * rate;
  for (let i = 0; from + i * step <= to + 1e-9; i += 1) {
    meter.playing(from + i * step, clock.ms, rate);
    clock.ms += 250;
  }
}

describe('listening meter', () => {
  it('measures a play from start to end as the whole track, at the wall time it took', () => {
    const meter = createListeningMeter();
    play(meter, { ms: 0 }, 0, 30);
    expect(meter.snapshot()).toEqual({ ranges: [{ start: 0, end: 30 }], seconds: 30 });
  });

  it('counts nothing for a seek to the end: the jump is skipped, not heard', () => {
    const meter = createListeningMeter();
    const clock = { ms: 0 };
    play(meter, clock, 0, 2);
    // The slider moves to 95.8%: the next report is 26 s further on, 250 ms later.
    play(meter, clock, 28.75, 30);
    const { ranges, seconds } = meter.snapshot();
    expect(ranges).toEqual([
      { start: 0, end: 2 },
      { start: 28.75, end: 30 },
    ]);
    expect(seconds).toBeCloseTo(3.25, 5);
  });

  it('counts a replayed part once, after seeking back', () => {
    const meter = createListeningMeter();
    const clock = { ms: 0 };
    play(meter, clock, 0, 20);
    meter.interrupt(); // the seek
    play(meter, clock, 5, 25);
    expect(meter.snapshot()).toEqual({ ranges: [{ start: 0, end: 25 }], seconds: 25 });
  });

  it('takes the playback speed into account: 30 s of track at 1.25× is 24 s of listening', () => {
    const meter = createListeningMeter();
    play(meter, { ms: 0 }, 0, 30, 1.25);
    expect(meter.snapshot().seconds).toBeCloseTo(24, 5);
  });

  it('does not join stretches across a pause', () => {
    const meter = createListeningMeter();
    const clock = { ms: 0 };
    play(meter, clock, 0, 10);
    meter.interrupt();
    clock.ms += 60_000; // paused a minute, then a seek forward while paused
    play(meter, clock, 40, 50);
    expect(meter.snapshot()).toEqual({ ranges: [{ start: 0, end: 10 }, { start: 40, end: 50 }], seconds: 20 });
  });
});
