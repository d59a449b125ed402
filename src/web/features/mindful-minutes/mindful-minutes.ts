/**
 * Completed sessions as mindful minutes in Apple Health / Health Connect (issue 20, item 5), inside
 * the apps only (the web has no such store: platform().mindfulMinutes is null and nothing shows).
 * Nobody is asked up front: the first time a session is completed on the device (the moment the
 * question means something), the app offers to add it; the answer is kept on the device. Only a
 * session the server counted as complete, and only once (a resend is not `created`), is written.
 */
import { STORAGE_KEYS } from '#shared/constants.ts';
import type { SessionKind } from '#shared/practice.ts';
import { readStored, writeStored } from '#web/lib/storage.ts';
import { platform } from '#web/platform/platform.ts';

export type MindfulSession = { start: Date; end: Date; kind: SessionKind };
type Choice = 'on' | 'off';

let offered: MindfulSession | null = null;
const listeners = new Set<() => void>();
const setOffered = (session: MindfulSession | null) => {
  offered = session;
  for (const listener of listeners) listener();
};

export const readMindfulChoice = (): Choice | null => {
  const stored = readStored(STORAGE_KEYS.mindfulMinutes);
  return stored === 'on' || stored === 'off' ? stored : null;
};
const choose = (choice: Choice) => writeStored(STORAGE_KEYS.mindfulMinutes, choice);

function write(session: MindfulSession): Promise<void> {
  const store = platform().mindfulMinutes;
  return store ? store.save(session).catch((error: unknown) => console.warn('mindful minutes not written', error)) : Promise.resolve();
}

/** A session the server has just recorded as complete. */
export function noteCompletedSession(session: MindfulSession): void {
  const store = platform().mindfulMinutes;
  if (!store) return;
  const choice = readMindfulChoice();
  if (choice === 'on') void write(session);
  else if (choice === null) {
    void store.isAvailable().then((available) => {
      if (available && readMindfulChoice() === null) setOffered(session);
    });
  }
}

export const mindfulOffer = {
  get: (): MindfulSession | null => offered,
  subscribe: (listener: () => void): (() => void) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
};

/** Turns mindful minutes on from a tap (the store's permission sheet shows); writes the offered session when allowed. */
export async function allowMindfulMinutes(): Promise<boolean> {
  const store = platform().mindfulMinutes;
  if (!store) return false;
  const allowed = await store.ask().catch(() => false);
  choose(allowed ? 'on' : 'off');
  const session = offered;
  setOffered(null);
  if (allowed && session) await write(session);
  return allowed;
}

/** "Not now", or the switch turned off: nothing more is written, and the offer is not made again. */
export function declineMindfulMinutes(): void {
  choose('off');
  setOffered(null);
}
