/**
 * Honest sessions (issue 20, item 3): what was actually listened to, and what that credits.
 * The player measures the played ranges of the track (media seconds) and the time spent listening
 * to them (wall seconds, at the playback speed); the server re-checks both against the track's real
 * length and decides here whether the session counts as complete. Shared so the player's meter and
 * the server's crediting cannot disagree about what "merged" or "complete" means.
 */
import { AUDIO, MAX_AUDIO_SECONDS } from '#shared/constants.ts';

/** A stretch of the track that played, in media seconds from its start. */
export type ListenedRange = { start: number; end: number };

/** A session is complete when this share of the track was listened to… */
const COMPLETE_SHARE = 0.8;
/** …or at least this much of a longer one (a 40-minute body scan stopped at 20 minutes still counts). */
const COMPLETE_SECONDS = 5 * 60;
/**
 * Merged ranges a session may carry. Merging leaves one range per seek forward; a listener does not
 * jump a thousand times in one sitting, and the bound keeps a crafted body small.
 */
export const MAX_LISTENED_RANGES = 500;
/**
 * A play stopped before its end (closed, or another track chosen) is recorded as a session only after
 * this much listening: trying a track for a few seconds is not practice. A play that ends is always recorded.
 */
export const PARTIAL_SESSION_MIN_SECONDS = 60;
/** The slowest speed the player offers: listening time beyond the ranges at this speed is replay, not new listening. */
const SLOWEST_RATE = Math.min(...AUDIO.playbackRates);
/**
 * The fastest speed a browser plays media at (Chromium and WebKit clamp playbackRate to 16):
 * ranges covered faster than this in the time claimed were skipped, not heard.
 */
const FASTEST_MEDIA_RATE = 16;
/** Longest listening time one session can claim: the longest track at the slowest speed. */
export const MAX_LISTENED_SECONDS = Math.ceil(MAX_AUDIO_SECONDS / SLOWEST_RATE);

/** Sorted, overlapping or touching ranges joined, empty ones dropped: replaying a part counts it once. */
export function mergeRanges(ranges: readonly ListenedRange[]): ListenedRange[] {
  const sorted = ranges.filter((r) => r.end > r.start).toSorted((a, b) => a.start - b.start);
  const merged: ListenedRange[] = [];
  for (const range of sorted) {
    const last = merged.at(-1);
    if (last && range.start <= last.end) last.end = Math.max(last.end, range.end);
    else merged.push({ ...range });
  }
  return merged;
}

/** Media seconds covered by the ranges, each counted once, within [0, limit]. */
export function coveredSeconds(ranges: readonly ListenedRange[], limit = Number.POSITIVE_INFINITY): number {
  const clipped = ranges.map((r) => ({ start: Math.max(0, r.start), end: Math.min(limit, r.end) }));
  return mergeRanges(clipped).reduce((sum, r) => sum + (r.end - r.start), 0);
}

/** Whether listening to `covered` seconds of a `trackSeconds` long track counts as a completed session. */
export function isCompleteListen(covered: number, trackSeconds: number): boolean {
  if (!(trackSeconds > 0)) return false;
  return covered >= Math.min(trackSeconds * COMPLETE_SHARE, COMPLETE_SECONDS);
}

export type Credit = {
  /** Wall seconds credited: the listening time, never more than the new listening the ranges allow, nor the track's length. */
  listenedSeconds: number;
  /** Media seconds of the track heard (the merged ranges within the track, as fast as a browser can play). */
  coveredSeconds: number;
  complete: boolean;
};

/**
 * What one session credits, from the device's measurement and the track's real length (the
 * server's, never the device's). Replays cannot add time: listening beyond the covered ranges at
 * the slowest speed is capped away. Ranges beyond the track are cut off.
 */
export function creditListening({ ranges, listenedSeconds, trackSeconds }: { ranges: readonly ListenedRange[]; listenedSeconds: number; trackSeconds: number }): Credit {
  const track = Math.max(0, trackSeconds);
  const covered = Math.min(coveredSeconds(ranges, track), listenedSeconds * FASTEST_MEDIA_RATE);
  const listened = Math.min(listenedSeconds, covered / SLOWEST_RATE, track);
  return { listenedSeconds: listened, coveredSeconds: covered, complete: isCompleteListen(covered, track) };
}
