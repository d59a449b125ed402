/**
 * Prepared pages: the public pages arrive as finished HTML (the page's text, the catalogue's cards
 * and the data React needs to adopt them), with nothing a CSP forbids, nothing personal, revalidated
 * by ETag, fresh after a catalogue change, and never worse than the app shell when rendering fails.
 * Uses the real build (dist/web and dist/ssr, built here when stale, as `npm test` does first).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync, cpSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { listingQueryKey } from '#shared/contracts/catalogue.routes.ts';
import { PRERENDER_SEED_ID, type PrerenderSeed } from '#shared/prerender.ts';
import { THEME_BOOT_SCRIPT } from '#shared/theme.ts';
import { meditationPreviews } from '#server/db/schema/catalogue.ts';
import { createCatalogueCache } from '#server/features/catalogue/catalogue-cache.ts';
import { createPagePreparer, scriptJson } from '#server/features/prerender/prepared-pages.ts';
import { buildMeditation } from '#tests/factories.ts';
import { createSignedInUser } from '#tests/setup/auth-helpers.ts';
import { openForSuite } from '#tests/setup/suite-resource.ts';
import { createTestApp } from '#tests/setup/test-app.ts';
import { buildIfStale } from '#scripts/build-if-stale.mjs';

const DIST = resolve('dist/web');

/** The JSON the page carries for React, parsed as the browser would. */
function seedOf(html: string): PrerenderSeed | null {
  const match = new RegExp(`<script type="application/json" id="${PRERENDER_SEED_ID}">(.*?)</script>`, 's').exec(html);
  return match?.[1] ? (JSON.parse(match[1]) as PrerenderSeed) : null;
}
const rootOf = (html: string) => /<div id="root">(.*)<\/div><script type="application\/json"/s.exec(html)?.[1] ?? '';
/** Executable scripts: the module entry and the service worker registration, nothing inline. */
/** Inline scripts' text: only the theme's, which the CSP allows by its hash (shared/theme.ts). */
const inlineScripts = (html: string) => [...html.matchAll(/<script(?![^>]*\bsrc=)(?![^>]*type="application\/json")[^>]*>(.*?)<\/script>/gs)].map((m) => m[1]);

beforeAll(() => {
  buildIfStale();
}, 300_000);

describe('prepared pages', () => {
  const t = openForSuite(() => createTestApp({ config: { webDistDir: DIST } }));

  it('sends home, subscribe and the information pages as finished HTML with the stylesheet inline and no inline script but the hashed theme one', async () => {
    for (const [path, text] of [
      ['/', 'A calm harbour for a busy mind.'],
      ['/subscribe', 'Unlock Your Full Potential'],
      ['/about', 'About Harbour Mind'],
    ] as const) {
      const page = await t.app.inject({ url: path });
      expect(page.statusCode, path).toBe(200);
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(rootOf(page.body), path).toContain(text);
      expect(seedOf(page.body), path).toEqual({ queries: [] });
      expect(page.body).toMatch(/<style>[^<]*tailwindcss/);
      // Its link only disabled (never fetched), so the app's lazy chunks do not load it again.
      expect(page.body.match(/<link rel="stylesheet"[^>]*>/g), path).toEqual([expect.stringMatching(/^<link rel="stylesheet" href="\/assets\/index-[\w-]+\.css" disabled>$/)]);
      expect(inlineScripts(page.body), path).toEqual([THEME_BOOT_SCRIPT]);
      expect(page.body).not.toContain('<template');
    }
    // Nothing but the tiny entry is requested before the first paint (decision 0021): no module preloads.
    const subscribe = (await t.app.inject({ url: '/subscribe' })).body;
    expect(subscribe).not.toContain('modulepreload');
    // The entry alone: the app registers its service worker once the page has settled (decision 0058).
    expect(subscribe.match(/<script[^>]*\ssrc=/g)).toHaveLength(1);
  });

  it('renders the listing with the catalogue, carries the same data for React, and escapes what an editor typed', async () => {
    const hostile = 'Evening </script><script>alert(1)</script> & rest';
    const med = await buildMeditation(t.database.db, { title: hostile, category: 'sleeping', categories: ['sleeping'] });
    const page = await t.app.inject({ url: '/meditations/sleeping' });
    expect(page.statusCode).toBe(200);
    expect(rootOf(page.body)).toContain('Evening &lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt; &amp; rest');
    expect(page.body).not.toContain('<script>alert(1)');
    expect(inlineScripts(page.body)).toEqual([THEME_BOOT_SCRIPT]);
    const seed = seedOf(page.body);
    // Under the key the web's listing reads, so React adopts the page without asking again.
    expect(seed?.queries[0]?.[0]).toEqual(listingQueryKey('sleeping'));
    expect(listingQueryKey('sleeping')).toEqual(['catalogue', 'list', { query: { category: 'sleeping' } }]);
    const api = await t.app.inject({ url: '/api/meditations?category=sleeping' });
    expect(seed?.queries[0]?.[1]).toEqual(api.json());
    expect(JSON.stringify(seed)).toContain(med.id);
  });

  it('revalidates with the ETag, and shows a catalogue change on the next request', async () => {
    const med = await buildMeditation(t.database.db, { title: 'Quiet harbour', category: 'morning', categories: ['morning'] });
    const first = await t.app.inject({ url: '/meditations/morning', headers: { 'accept-encoding': 'br' } });
    expect(first.headers['content-encoding']).toBe('br');
    expect(first.headers.vary).toMatch(/accept-encoding/i);
    const etag = String(first.headers.etag);
    expect((await t.app.inject({ url: '/meditations/morning', headers: { 'if-none-match': etag } })).statusCode).toBe(304);
    // A write that did not come through the API: the database's NOTIFY clears the pages too (within
    // moments; vi.waitFor's default second was not always enough on a loaded machine).
    await t.database.db.update(meditationPreviews).set({ title: 'Quiet harbour at dawn' }).where(eq(meditationPreviews.id, med.id));
    await vi.waitFor(async () => {
      const after = await t.app.inject({ url: '/meditations/morning' });
      expect(rootOf(after.body)).toContain('Quiet harbour at dawn');
      expect(after.headers.etag).not.toBe(etag);
    }, { timeout: 10_000, interval: 20 });
  });

  it('is the same page for everyone: a signed-in person gets the visitor’s HTML, and personal pages get the app shell', async () => {
    const user = await createSignedInUser(t, 'prepared-pages@example.com');
    const visitor = await t.app.inject({ url: '/' });
    const member = await t.app.inject({ url: '/', headers: { cookie: user.cookie } });
    expect(member.body).toBe(visitor.body);
    expect(member.body).not.toContain('prepared-pages@example.com');
    // A category without a title of its own is a real listing, rendered in the browser only.
    for (const path of ['/account', '/journal', '/admin', '/meditations/anxiety', '/meditation/abc']) {
      const shell = await t.app.inject({ url: path });
      expect(shell.statusCode, path).toBe(200);
      expect(seedOf(shell.body), path).toBeNull();
      expect(shell.body, path).toContain('<div id="root"></div>');
    }
    // A slug that names no category is no page (decision 0024): the app shell with 404, nothing prepared.
    const unknown = await t.app.inject({ url: '/meditations/not-a-category' });
    expect(unknown.statusCode).toBe(404);
    expect(seedOf(unknown.body)).toBeNull();
  });
});

describe('a page that cannot be rendered', () => {
  it('falls back to the app shell and says why in the log', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'hm-pages-'));
    try {
      const web = join(dir, 'web');
      const ssr = join(dir, 'ssr');
      cpSync(DIST, web, { recursive: true });
      mkdirSync(ssr);
      writeFileSync(join(ssr, 'entry-server.js'), 'export async function renderPage() { throw new Error("boom"); }\n');
      const log = { error: vi.fn() };
      const pages = await createPagePreparer({
        distDir: web,
        ssrDir: ssr,
        db: undefined as never,
        cache: createCatalogueCache(),
        log: log as never,
      });
      expect(await pages?.page('/')).toBeUndefined();
      expect(log.error).toHaveBeenCalledWith(expect.objectContaining({ path: '/' }), expect.stringContaining('app shell'));
      // Half-finished output (a part React would finish with an inline script) is refused too.
      const ssr2 = join(dir, 'ssr2');
      mkdirSync(ssr2);
      writeFileSync(join(ssr2, 'entry-server.js'), 'export async function renderPage() { return "<main><template id=\\"B:0\\"></template></main>"; }\n');
      const again = await createPagePreparer({ distDir: web, ssrDir: ssr2, db: undefined as never, cache: createCatalogueCache(), log: log as never });
      expect(await again?.page('/about')).toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keeps no script-closing text in the page data', () => {
    expect(scriptJson({ title: '</script><!-- \u2028' })).toBe('{"title":"\\u003c/script>\\u003c!-- \\u2028"}');
  });
});
