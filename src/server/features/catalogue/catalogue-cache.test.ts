/** The catalogue cache loads once per change, never keeps a load that a change overtook, and expires. */
import { describe, expect, it } from 'vitest';
import { createCatalogueCache } from '#server/features/catalogue/catalogue-cache.ts';

const body = async (p: Promise<{ identity: Buffer }>) => JSON.parse((await p).identity.toString()) as unknown;

describe('catalogue cache', () => {
  it('shares one load between concurrent readers and serves it until invalidated', async () => {
    const cache = createCatalogueCache();
    let loads = 0;
    const load = () => Promise.resolve({ version: ++loads });
    const [a, b] = await Promise.all([body(cache.get('all', load)), body(cache.get('all', load))]);
    expect(a).toEqual({ version: 1 });
    expect(b).toEqual({ version: 1 });
    expect(await body(cache.get('all', load))).toEqual({ version: 1 });
    cache.invalidate();
    expect(await body(cache.get('all', load))).toEqual({ version: 2 });
    expect(loads).toBe(2);
  });

  it('does not keep a load that was running when a change arrived (it may hold the old list)', async () => {
    const cache = createCatalogueCache();
    let finishOld: (v: unknown) => void = () => {};
    const old = cache.get('all', () => new Promise((resolve) => (finishOld = resolve)));
    cache.invalidate();
    finishOld({ version: 'old' });
    // The request that started it still gets an answer...
    expect(await body(old)).toEqual({ version: 'old' });
    // ...but the next reader loads the new catalogue.
    expect(await body(cache.get('all', () => Promise.resolve({ version: 'new' })))).toEqual({ version: 'new' });
  });

  it('forgets failed loads so the next request tries again', async () => {
    const cache = createCatalogueCache();
    await expect(cache.get('all', () => Promise.reject(new Error('database away')))).rejects.toThrow('database away');
    expect(cache.size).toBe(0);
    expect(await body(cache.get('all', () => Promise.resolve({ ok: true })))).toEqual({ ok: true });
  });

  it('reloads an entry older than maxAgeMs, so a missed notification cannot keep a list for long', async () => {
    let now = 0;
    const cache = createCatalogueCache({ maxAgeMs: 60_000, now: () => now });
    let loads = 0;
    const load = () => Promise.resolve({ version: ++loads });
    await cache.get('all', load);
    now = 59_999;
    expect(await body(cache.get('all', load))).toEqual({ version: 1 });
    now = 60_000;
    expect(await body(cache.get('all', load))).toEqual({ version: 2 });
  });
});
