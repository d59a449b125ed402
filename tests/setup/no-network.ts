/**
 * Every test fails on an unexpected network call: only loopback addresses may be reached
 * (the app under test, PostgreSQL, local fakes of Stripe or SMTP).
 *
 * Runs before every file; in the server project a worker runs many files in one process
 * (vitest.config.ts), so the guard is put in place once, not wrapped around itself each time.
 */
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);
const GUARDED = Symbol.for('harbour-mind.no-network');

const scope = globalThis as typeof globalThis & { [GUARDED]?: true };
if (!scope[GUARDED]) {
  const realFetch = globalThis.fetch;
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    if (!LOOPBACK.has(url.hostname)) throw new Error(`Unexpected network call in a test: ${url.href}`);
    return realFetch(input, init);
  });
  scope[GUARDED] = true;
}
