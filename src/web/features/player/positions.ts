/**
 * Resume where you left off (issue 20, item 2), on the device: the latest position in each
 * meditation, kept in localStorage per account (so it works offline and for visitors' free samples),
 * merged with the server's copy by the same rule the server applies: the newest position wins.
 * Positions not yet on the server are marked pending until it has them. A plain store with a
 * subscription, read by the cards and the player through useSyncExternalStore.
 */
import { STORAGE_KEYS } from '#shared/constants.ts';
import type { PlaybackPosition } from '#shared/contracts/practice.ts';

export type SavedPosition = { positionSeconds: number; updatedAt: string; pending: boolean };
type Positions = Readonly<Partial<Record<string, SavedPosition>>>;

/** A position is offered only past the first seconds and before the last ones: there is something to skip, and something left. */
const RESUME_MARGIN_SECONDS = 10;

let owner: string | null = null;
let cache: Positions = {};
const listeners = new Set<() => void>();

const storageKey = (who: string | null) => `${STORAGE_KEYS.playbackPositions}.${who ?? 'visitor'}`;

function read(who: string | null): Positions {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(storageKey(who)) ?? '{}');
    return parsed && typeof parsed === 'object' ? (parsed as Positions) : {};
  } catch (error) {
    console.warn('positions: unreadable, starting afresh', error);
    return {};
  }
}

function write(next: Positions): void {
  cache = next;
  localStorage.setItem(storageKey(owner), JSON.stringify(next));
  for (const listener of listeners) listener();
}

/** Whose positions are read and written: the signed-in account, or this device's visitor. */
export function setPositionsOwner(userId: string | null): void {
  owner = userId;
  cache = read(userId);
  for (const listener of listeners) listener();
}

export const subscribePositions = (listener: () => void): (() => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};
export const getPositions = (): Positions => cache;

/** The position to offer for a track, when there is one worth offering. */
export function resumePoint(positions: Positions, meditationId: string, durationSeconds: number | null | undefined): number | null {
  const saved = positions[meditationId];
  if (!saved || saved.positionSeconds < RESUME_MARGIN_SECONDS) return null;
  if (durationSeconds && saved.positionSeconds > durationSeconds - RESUME_MARGIN_SECONDS) return null;
  return saved.positionSeconds;
}

/** Where the listener is now (0 once a track ended: next time it starts from the beginning). */
export function rememberPosition(meditationId: string, positionSeconds: number, at = new Date()): void {
  write({ ...cache, [meditationId]: { positionSeconds: Math.max(0, Math.round(positionSeconds)), updatedAt: at.toISOString(), pending: true } });
}

/** The server's positions, each kept only where it is newer than this device's. */
export function mergeServerPositions(server: readonly PlaybackPosition[]): void {
  const next: Partial<Record<string, SavedPosition>> = { ...cache };
  for (const position of server) {
    const local = next[position.meditationId];
    if (!local || Date.parse(position.updatedAt) >= Date.parse(local.updatedAt)) next[position.meditationId] = { positionSeconds: position.positionSeconds, updatedAt: position.updatedAt, pending: false };
  }
  write(next);
}

/** The server answered a save: it holds `held` now (this device's position, or a newer one from another). */
export function settlePosition(meditationId: string, sentAt: string, held: PlaybackPosition): void {
  const local = cache[meditationId];
  // Moved on since this was sent: the newer local position is still to be sent.
  if (local && local.updatedAt !== sentAt && Date.parse(local.updatedAt) > Date.parse(held.updatedAt)) return;
  write({ ...cache, [meditationId]: { positionSeconds: held.positionSeconds, updatedAt: held.updatedAt, pending: false } });
}

export const pendingPositions = (): [string, SavedPosition][] => Object.entries(cache).flatMap(([id, p]) => (p?.pending ? [[id, p] as [string, SavedPosition]] : []));
