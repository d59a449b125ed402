/**
 * The parts the practice engines (the timer's, the breathing guide's) share: the snapshot React reads
 * with useSyncExternalStore, the event a finished practice sends, and the sounds' bytes, fetched once.
 */
export function engineState<Snapshot extends object, Finished>(initial: Snapshot) {
  let snapshot = initial;
  const listeners = new Set<() => void>();
  const finishedListeners = new Set<(finished: Finished) => void>();
  return {
    snapshot: () => snapshot,
    set: (next: Partial<Snapshot>): void => {
      snapshot = { ...snapshot, ...next };
      for (const listener of listeners) listener();
    },
    finished: (value: Finished): void => {
      for (const listener of finishedListeners) listener(value);
    },
    /** What the engine offers the pages. */
    store: {
      getSnapshot: () => snapshot,
      subscribe: (listener: () => void) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
      onFinished: (listener: (finished: Finished) => void) => {
        finishedListeners.add(listener);
        return () => finishedListeners.delete(listener);
      },
    },
  };
}

/** A sound's bytes by address, fetched once and kept so the next practice starts at once; a failed fetch is forgotten, so trying again fetches again. */
export function soundBytesCache(fetchSound: (url: string) => Promise<ArrayBuffer>): (url: string) => Promise<ArrayBuffer> {
  const bytes = new Map<string, Promise<ArrayBuffer>>();
  return (url) => {
    let pending = bytes.get(url);
    if (!pending) {
      pending = fetchSound(url);
      pending.catch(() => bytes.delete(url));
      bytes.set(url, pending);
    }
    return pending;
  };
}
