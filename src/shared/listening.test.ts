import { describe, expect, it } from 'vitest';
import { coveredSeconds, creditListening, isCompleteListen, mergeRanges } from '#shared/listening.ts';

describe('honest sessions: what a play credits', () => {
  it('merges overlapping and touching ranges, in any order, and drops empty ones', () => {
    expect(mergeRanges([{ start: 10, end: 20 }, { start: 0, end: 5 }, { start: 5, end: 12 }, { start: 30, end: 30 }, { start: 25, end: 28 }])).toEqual([
      { start: 0, end: 20 },
      { start: 25, end: 28 },
    ]);
    expect(coveredSeconds([{ start: 0, end: 20 }, { start: 10, end: 40 }], 30)).toBe(30);
  });

  it('is complete at 80% of a short track, or 5 minutes of a long one', () => {
    expect(isCompleteListen(24, 30)).toBe(true);
    expect(isCompleteListen(23.9, 30)).toBe(false);
    expect(isCompleteListen(300, 40 * 60)).toBe(true);
    expect(isCompleteListen(299, 40 * 60)).toBe(false);
    expect(isCompleteListen(10, 0)).toBe(false);
  });

  it('caps the listening time by the new listening the ranges allow and by the track', () => {
    // Replays claimed as extra time: 600 s of listening for 30 s of track at the slowest speed (0.75×) credits 40 s…
    expect(creditListening({ ranges: [{ start: 0, end: 30 }], listenedSeconds: 600, trackSeconds: 600 }).listenedSeconds).toBe(40);
    // …and never more than the track.
    expect(creditListening({ ranges: [{ start: 0, end: 30 }], listenedSeconds: 40, trackSeconds: 30 }).listenedSeconds).toBe(30);
    // Ranges past the end of the track are cut off.
    expect(creditListening({ ranges: [{ start: 0, end: 3000 }], listenedSeconds: 3000, trackSeconds: 30 })).toEqual({ listenedSeconds: 30, coveredSeconds: 30, complete: true });
  });

  it('does not count ranges covered faster than a browser can play as heard', () => {
    expect(creditListening({ ranges: [{ start: 0, end: 600 }], listenedSeconds: 1, trackSeconds: 600 })).toEqual({ listenedSeconds: 1, coveredSeconds: 16, complete: false });
  });
});
