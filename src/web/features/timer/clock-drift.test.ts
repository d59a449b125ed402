import { describe, expect, it } from 'vitest';
import { audioLag, nextShift } from '#web/features/timer/clock-drift.ts';

describe('audio clock drift', () => {
  it('measures how far the audio clock fell behind the wall since the anchor', () => {
    // 20 minutes of wall time, the audio clock 1.2 s short of it (0.1 % slow).
    expect(audioLag({ contextTime: 10, performanceTime: 5_000 }, { contextTime: 10 + 1198.8, performanceTime: 5_000 + 1_200_000 })).toBeCloseTo(1.2, 9);
    // Ahead: negative.
    expect(audioLag({ contextTime: 0, performanceTime: 1_000 }, { contextTime: 60.05, performanceTime: 61_000 })).toBeCloseTo(-0.05, 9);
  });

  it('tells nothing from a reading without a wall time (a context that has produced no output yet)', () => {
    expect(audioLag({ contextTime: 0, performanceTime: 0 }, { contextTime: 60, performanceTime: 60_000 })).toBeNull();
    expect(audioLag({ contextTime: 0, performanceTime: 1 }, { contextTime: 60, performanceTime: 0 })).toBeNull();
  });

  it('moves the bells only when the schedule is 20 ms or more away from where it should be', () => {
    expect(nextShift({ lag: 0.01, carried: 0, applied: 0 })).toBeNull();
    expect(nextShift({ lag: 0.25, carried: 0, applied: 0 })).toBe(0.25);
    expect(nextShift({ lag: 0.26, carried: 0, applied: 0.25 })).toBeNull();
    expect(nextShift({ lag: null, carried: 0.5, applied: 0 })).toBeNull();
  });

  it('keeps what was measured before a pause: a new stretch adds to it', () => {
    expect(nextShift({ lag: 0.1, carried: 0.4, applied: 0.4 })).toBeCloseTo(0.5, 9);
    expect(nextShift({ lag: -0.45, carried: 0.4, applied: 0.4 })).toBeCloseTo(-0.05, 9);
  });
});
