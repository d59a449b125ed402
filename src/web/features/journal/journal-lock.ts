/**
 * The opened journal's key lives in this page's memory only (issue 36, item 1; decision 0054). It is
 * a non-extractable CryptoKey that is never written anywhere, so closing or reloading the tab locks the
 * journal, and so does the idle time the person chose (default 15 minutes; inside the apps, that long in
 * the background), the "Lock journal" button and signing out. The sealed records stay on the device:
 * without the key they are what the server holds, and unlocking needs the passphrase again.
 *
 * Kept outside React: moving between pages keeps the journal open, and the idle watch runs whichever
 * page is showing.
 */
import { JOURNAL_LOCK_AFTER } from '#shared/journal-keys.ts';
import { watchIdle } from '#web/lib/idle-watch.ts';
import { readStored, writeStored } from '#web/lib/storage.ts';

type Held = { accountId: string; dataKey: CryptoKey; previousKeys: readonly CryptoKey[]; stopIdle: () => void };

let held: Held | null = null;
const listeners = new Set<() => void>();

const notify = () => {
  for (const listener of listeners) listener();
};

/** The idle time chosen on this device, in minutes: one of the choices, else the default. */
export function lockAfterMinutes(): number {
  const chosen = Number(readStored(JOURNAL_LOCK_AFTER.storageKey));
  return (JOURNAL_LOCK_AFTER.choices as readonly number[]).includes(chosen) ? chosen : JOURNAL_LOCK_AFTER.defaultMinutes;
}

/** Remembers a new idle time on this device; an open journal counts it from now. */
export function setLockAfterMinutes(minutes: number): void {
  writeStored(JOURNAL_LOCK_AFTER.storageKey, String(minutes));
  if (held) held = { ...held, stopIdle: restartIdle(held.stopIdle) };
}

function restartIdle(stop?: () => void): () => void {
  stop?.();
  return watchIdle({ idleMs: lockAfterMinutes() * 60_000, onIdle: lockJournal });
}

/**
 * Keeps the opened key for this page (one account at a time), with the data keys a rotation replaced (decision
 * 0061: records not yet sealed again open with them), and starts counting idle time.
 */
export function holdKey(accountId: string, dataKey: CryptoKey, previousKeys: readonly CryptoKey[] = []): void {
  held?.stopIdle();
  held = { accountId, dataKey, previousKeys, stopIdle: restartIdle() };
  notify();
}

/** The opened key of `accountId`'s journal, or null when it is locked on this page. */
export function heldKey(accountId: string): CryptoKey | null {
  return held?.accountId === accountId ? held.dataKey : null;
}

/** The data keys `accountId`'s journal replaced (rotations), held with its current one; empty when locked. */
export function heldPreviousKeys(accountId: string): readonly CryptoKey[] {
  return held?.accountId === accountId ? held.previousKeys : [];
}

/** Forgets the key: every open view of the journal closes and asks for the passphrase again. */
export function lockJournal(): void {
  if (!held) return;
  held.stopIdle();
  held = null;
  notify();
}

/** Calls `listener` whenever the journal is unlocked or locked on this page. Returns the unsubscribe. */
export function onLockChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
