/**
 * What one play actually listened to (issue 20, item 3): the played ranges of the track, merged, and
 * the wall time spent hearing them at the playback speed. Fed with the audio element's position
 * while it plays; a jump the element could not have played in the time that passed is a seek, so
 * seeking to the end adds nothing, and a part heard twice is counted once. Pure: no DOM, no timers.
 */
import { mergeRanges, type ListenedRange } from '#shared/listening.ts';

/**
 * Slack for the browser's reporting (timeupdate comes every 15–250 ms, later when the main thread is
 * busy, and the position and the clock are read a moment apart). A seek moves further than this.
 */
const REPORT_SLACK_SECONDS = 0.5;

export type Listened = { ranges: ListenedRange[]; seconds: number };

export type ListeningMeter = {
  /** The element's position (media seconds) while it plays, at `atMs` (a monotonic clock), at `rate`. */
  playing(position: number, atMs: number, rate: number): void;
  /** Paused, seeked or stopped: the next position starts a new stretch instead of joining the last one. */
  interrupt(): void;
  snapshot(): Listened;
};

/** Media seconds of [start, end] not yet in the (merged, sorted) ranges. */
function newSeconds(ranges: readonly ListenedRange[], start: number, end: number): number {
  let fresh = end - start;
  for (const range of ranges) fresh -= Math.max(0, Math.min(end, range.end) - Math.max(start, range.start));
  return Math.max(0, fresh);
}

export function createListeningMeter(): ListeningMeter {
  let ranges: ListenedRange[] = [];
  let seconds = 0;
  let last: { position: number; atMs: number } | null = null;
  return {
    playing(position, atMs, rate) {
      if (!Number.isFinite(position) || !(rate > 0)) return;
      if (last) {
        const media = position - last.position;
        const wall = Math.max(0, (atMs - last.atMs) / 1000);
        // Forward, and no further than the element plays in the time that passed: heard, not skipped.
        if (media > 0 && media <= wall * rate + REPORT_SLACK_SECONDS) {
          seconds += newSeconds(ranges, last.position, position) / rate;
          ranges = mergeRanges([...ranges, { start: last.position, end: position }]);
        }
      }
      last = { position, atMs };
    },
    interrupt() {
      last = null;
    },
    snapshot: () => ({ ranges: ranges.map((r) => ({ ...r })), seconds }),
  };
}
