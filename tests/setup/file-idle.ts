/**
 * requestIdleCallback for one web test file. jsdom has none, so the app's idle work (src/web/lib/idle.ts)
 * would wait a second on setTimeout, and a chain of idle prefetches a file started (the signed-in
 * chunks, prefetchForSignedIn) went on into the files after it in the same process: one of them
 * imported home's Today section after the next file had reset its modules but before its mocks were
 * registered, so that file got the section bound to the real useViewer ("No QueryClient set", fresh
 * run 48). Here the idle moment still comes a second later, as before, but only while the file that
 * asked is running: closed at its end, what it left waiting is dropped.
 */
export const IDLE_DELAY_MS = 1_000;

export interface FileIdle {
  requestIdleCallback: (callback: IdleRequestCallback) => number;
  cancelIdleCallback: (handle: number) => void;
  /** The file has ended: nothing it asked for runs any more. */
  close: () => void;
}

export function fileIdle(): FileIdle {
  let open = true;
  const deadline: IdleDeadline = { didTimeout: false, timeRemaining: () => 0 };
  return {
    requestIdleCallback: (callback) =>
      setTimeout(() => {
        if (open) callback(deadline);
      }, IDLE_DELAY_MS) as unknown as number,
    cancelIdleCallback: (handle) => clearTimeout(handle),
    close: () => {
      open = false;
    },
  };
}
