/** The entry's early GETs (issue 39): answered once, by the app's own api(), and only where nothing else was asked for. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { authApi } from '#shared/contracts/auth.routes.ts';
import { urlOf } from '#shared/contracts/route.ts';
import { api } from '#web/lib/api.ts';
import { isEarly, startEarly, takeEarly, VIEWER_PATH } from '#web/lib/early-requests.ts';

afterEach(() => {
  void takeEarly(VIEWER_PATH)?.catch(() => undefined);
  vi.unstubAllGlobals();
});

const answering = (...bodies: unknown[]) => {
  const fetch = vi.fn(() => Promise.resolve(new Response(JSON.stringify(bodies.shift()), { status: 200 })));
  vi.stubGlobal('fetch', fetch);
  return fetch;
};

describe('early requests', () => {
  it("asks for the viewer at the contract's own path", () => {
    expect(VIEWER_PATH).toBe(urlOf(authApi.me, {}));
  });

  it('answers the first GET of its path, then fetches afresh', async () => {
    const fetch = answering({ user: null, from: 'early' }, { user: null, from: 'afresh' });
    startEarly(VIEWER_PATH);
    expect(isEarly(VIEWER_PATH)).toBe(true);
    expect(await api(VIEWER_PATH)).toEqual({ user: null, from: 'early' });
    expect(isEarly(VIEWER_PATH)).toBe(false);
    expect(await api(VIEWER_PATH)).toEqual({ user: null, from: 'afresh' });
    expect(fetch).toHaveBeenCalledTimes(2);
    expect(fetch.mock.calls[0]).toEqual([VIEWER_PATH, { credentials: 'same-origin', headers: { accept: 'application/json' } }]);
  });

  it('is not the answer to a write, to a GET with headers of its own, or to another path', async () => {
    const fetch = answering({ early: true }, { other: true }, { write: true }, { headers: true });
    startEarly(VIEWER_PATH);
    expect(await api('/api/other')).toEqual({ other: true });
    expect(await api(VIEWER_PATH, { method: 'POST', body: {} })).toEqual({ write: true });
    expect(await api(VIEWER_PATH, { headers: { 'x-test': '1' } })).toEqual({ headers: true });
    expect(isEarly(VIEWER_PATH)).toBe(true);
    expect(fetch).toHaveBeenCalledTimes(4);
  });

  it("hands its failure to whoever takes it, as api()'s words for no connection", async () => {
    vi.stubGlobal('fetch', vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))));
    startEarly(VIEWER_PATH);
    await expect(api(VIEWER_PATH)).rejects.toMatchObject({ code: 'network' });
  });
});
