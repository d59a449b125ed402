/** The API layer's failures: the server's own code and words; otherwise the spec's mapping; retry only what may succeed. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ERROR_TEXT } from '#shared/error-text.ts';
import { api, ApiError, isRetryable } from '#web/lib/api.ts';

afterEach(() => vi.unstubAllGlobals());

const failWith = (response: Response | Error) => vi.stubGlobal('fetch', vi.fn(() => (response instanceof Error ? Promise.reject(response) : Promise.resolve(response))));
const caught = async () => {
  try {
    await api('/api/anything');
  } catch (error) {
    if (error instanceof ApiError) return error;
  }
  throw new Error('expected an ApiError');
};

describe('api failures', () => {
  it("keeps the server's code and words", async () => {
    failWith(new Response(JSON.stringify({ error: { code: 'database/duplicate-email', message: ERROR_TEXT['database/duplicate-email'] } }), { status: 409 }));
    expect(await caught()).toMatchObject({ status: 409, code: 'database/duplicate-email', message: ERROR_TEXT['database/duplicate-email'] });
  });

  it("reads a proxy's page by status, then by the spec's keywords, and words it from the catalogue", async () => {
    failWith(new Response('<html>504 Gateway Time-out</html>', { status: 504 }));
    expect(await caught()).toMatchObject({ code: 'network/timeout', message: ERROR_TEXT['network/timeout'] });
    failWith(new Response('<html>Bad Gateway</html>', { status: 502 }));
    expect(await caught()).toMatchObject({ code: 'server/unavailable' });
    failWith(new Response('upstream connection refused', { status: 500 }));
    expect(await caught()).toMatchObject({ code: 'database/connection-error', message: ERROR_TEXT['database/connection-error'] });
    failWith(new Response('oops', { status: 500 }));
    expect(await caught()).toMatchObject({ code: 'default', message: ERROR_TEXT.default });
  });

  it('retries no connection, timeouts, rate limits and a busy server; never a refusal', async () => {
    failWith(new TypeError('Failed to fetch'));
    const offline = await caught();
    expect(offline.code).toBe('network');
    expect(isRetryable(offline)).toBe(true);
    expect(isRetryable(new ApiError(504, 'network/timeout', ''))).toBe(true);
    expect(isRetryable(new ApiError(429, 'rate-limit/exceeded', '', 5))).toBe(true);
    expect(isRetryable(new ApiError(503, 'server/unavailable', ''))).toBe(true);
    for (const code of ['validation/invalid-input', 'auth/forbidden', 'database/duplicate-email', 'default'] as const) expect(isRetryable(new ApiError(400, code, '')), code).toBe(false);
  });
});
