/**
 * Work that can wait until the page has shown: loading the chunks kept out of the first download
 * (the player sheet, dialogs, toasts) so they are in memory before anyone needs them, offline too.
 * Runs once the window has loaded and the main thread is idle (setTimeout where
 * requestIdleCallback is missing, as in Safari).
 */
export function whenIdle(task: () => void): void {
  if (typeof window === 'undefined') return;
  const schedule = () => {
    if ('requestIdleCallback' in window) window.requestIdleCallback(task, { timeout: 5_000 });
    else setTimeout(task, 1_000);
  };
  if (document.readyState === 'complete') schedule();
  else window.addEventListener('load', schedule, { once: true });
}

/**
 * Resolves at the browser's next idle moment (soon after 1 s where requestIdleCallback is missing).
 * Never where there is no window: a page already gone (a test's document torn down while a chain of
 * idle work was waiting, as the unit half once saw) has nothing left to do.
 */
export function nextIdle(): Promise<void> {
  return new Promise((resolve) => {
    if (typeof window === 'undefined') return;
    if ('requestIdleCallback' in window) window.requestIdleCallback(() => resolve(), { timeout: 5_000 });
    else setTimeout(resolve, 1_000);
  });
}

/**
 * A lazily imported module, loaded at most once: the same promise serves the idle prefetch, the
 * React.lazy component and any direct caller, so a chunk fetched while online stays usable offline.
 * A failed load (offline, or a deploy removed the chunk) is forgotten so the next call retries.
 */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined;
  return () => {
    pending ??= load().catch((error: unknown) => {
      pending = undefined;
      throw error;
    });
    return pending;
  };
}
