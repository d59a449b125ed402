/**
 * Sends this process's fetches of a few exact provider addresses to a local fake (`routes`: address →
 * the fake's path); every other fetch goes on unchanged. Returns the undo.
 */
export function routeFetches(routes: Readonly<Record<string, string>>, fakeUrl: string): () => void {
  const previous = globalThis.fetch;
  globalThis.fetch = (input: RequestInfo | URL, init?: RequestInit) => {
    const href = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const route = routes[href];
    return previous(route ? `${fakeUrl}${route}` : input, init);
  };
  return () => {
    globalThis.fetch = previous;
  };
}
