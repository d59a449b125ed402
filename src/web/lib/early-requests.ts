/**
 * GETs the entry (main.tsx) starts beside the app's download, on the web only, so their answers are
 * there when the app starts instead of one round trip after it. The app's api() takes each once.
 *
 * Why /api/me: the prepared page is for nobody, so who is looking is known only from its answer.
 * Arriving after hydration, that answer re-rendered the whole page in one task React cannot split
 * (query caches notify through useSyncExternalStore, which renders synchronously): 10–30 ms on this
 * machine, four times that on Lighthouse's phone (issue 39). Known before hydration, it is shown by
 * the hydration gate's transition, which yields to the browser as it goes (boot.tsx).
 */
/** GET /api/me (auth.routes.ts's `me`; early-requests.test.ts holds them together). */
export const VIEWER_PATH = '/api/me';

const started = new Map<string, Promise<Response>>();

export function startEarly(path: string): void {
  const response = fetch(path, { credentials: 'same-origin', headers: { accept: 'application/json' } });
  // Whoever takes it handles a failure; one nobody takes is not an unhandled rejection.
  response.catch(() => {});
  started.set(path, response);
}

/** Whether an early GET of `path` is waiting to be taken. */
export function isEarly(path: string): boolean {
  return started.has(path);
}

/** The early GET of `path`, once: later calls fetch afresh. */
export function takeEarly(path: string): Promise<Response> | undefined {
  const response = started.get(path);
  started.delete(path);
  return response;
}
