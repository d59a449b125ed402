/**
 * A visitor's journeys through the real app (built web app + server process + demo catalogue)
 * in Debian's Chromium: home, category listings and their states, the subscribe dialog,
 * static pages, navigation and the 404 page.
 */
import { describe, expect, it } from 'vitest';
import { openPage } from '#tests/e2e/support/browser.ts';
import { signedInMember } from '#tests/e2e/support/people.ts';
import { useSharedSuite } from '#tests/e2e/support/suite.ts';

const { server, browser } = await useSharedSuite();

describe('home', () => {
  it('shows the hero, today’s affirmation (stable all day) and the nine category tiles', async () => {
    const { page, context, problems } = await openPage(browser);
    await page.goto(server.url);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBeTruthy();
    expect(await page.getByRole('link', { name: 'Start Meditating' }).getAttribute('href')).toBe('/meditations');
    expect(await page.getByRole('link', { name: 'Open Journal' }).getAttribute('href')).toBe('/journal');

    await page.getByRole('heading', { name: "Today's affirmation" }).waitFor();
    // The page arrives prepared by the server; the device draws the affirmation once it is live.
    const drawn = () => page.waitForFunction(() => document.querySelector('[data-testid="affirmation"]')?.textContent.includes('“'));
    await drawn();
    const first = await page.getByTestId('affirmation').textContent();
    const stored = await page.evaluate(() => JSON.parse(localStorage.getItem('hm.dailyAffirmation') ?? 'null'));
    const today = await page.evaluate(() => {
      const d = new Date();
      return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
    });
    expect(stored.date).toBe(today);
    expect(first).toContain(stored.text);
    await page.reload();
    await drawn();
    expect(await page.getByTestId('affirmation').textContent()).toBe(first);

    // A stored affirmation from another day is replaced by a fresh draw, stored with today's date.
    await page.evaluate(() => localStorage.setItem('hm.dailyAffirmation', JSON.stringify({ date: '2000-01-01', text: 'old' })));
    await page.reload();
    await drawn();
    const redrawn = await page.evaluate(() => JSON.parse(localStorage.getItem('hm.dailyAffirmation') ?? 'null'));
    expect(redrawn.date).toBe(today);
    expect(redrawn.text).not.toBe('old');

    await page.getByRole('heading', { name: 'Discover Paths to Emotional Wellbeing' }).waitFor();
    const tiles = page.getByRole('region', { name: 'Discover Paths to Emotional Wellbeing' }).getByRole('link');
    expect(await tiles.count()).toBe(9);
    const hrefs = await tiles.evaluateAll((links) => links.map((a) => a.getAttribute('href')));
    expect(hrefs).toEqual([
      '/meditations/all',
      '/meditations/morning',
      '/meditations/happiness',
      '/meditations/emotional-wellbeing',
      '/meditations/sleeping',
      '/meditations/mindfulness',
      '/meditations/journal',
      '/meditations/chronic-health-care',
      '/meditations/significant-chapters',
    ]);
    await page.getByRole('link', { name: 'Start Meditating' }).click();
    await page.waitForURL(`${server.url}/meditations`);
    await page.getByRole('heading', { name: 'All Meditations', level: 1 }).waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe('meditation listings', () => {
  it('lists a category with locked cards and opens the subscribe dialog', async () => {
    const { page, context, problems } = await openPage(browser);
    await page.goto(`${server.url}/meditations/chronic-health-care`);
    await page.getByRole('heading', { name: 'Meditations for Chronic Conditions', level: 1 }).waitFor();
    const cards = page.getByTestId('meditation-card');
    await cards.first().waitFor();
    const count = await cards.count();
    expect(count).toBeGreaterThanOrEqual(6); // its own items plus endometriosis and fibromyalgia
    const firstCard = cards.first();
    // Prepared by the server for nobody in particular; locked once the page knows who is looking.
    await firstCard.getByText('Subscribe to listen').waitFor();
    expect(await firstCard.textContent()).toMatch(/\d+ (min|sec)/);
    // Short demo tracks read to the second, not all as '1 min'.
    expect(await cards.filter({ hasText: /\d sec/ }).count()).toBeGreaterThan(0);
    // Each card shows its category's picture (generated SVG, one file per category, decorative).
    const art = await cards.evaluateAll((all) =>
      all.map((card) => {
        const picture = card.querySelector<HTMLElement>('.card-art');
        return { hidden: picture?.getAttribute('aria-hidden'), image: picture ? getComputedStyle(picture).backgroundImage : '', category: picture?.dataset.art };
      }),
    );
    for (const { hidden, image, category } of art) {
      expect(hidden).toBe('true');
      expect(image).toMatch(new RegExp(`/assets/${category}-[\\w-]+\\.svg`));
    }
    expect(new Set(art.map((a) => a.category)).size).toBe(3); // chronic conditions, endometriosis, fibromyalgia

    await firstCard.click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain('This meditation is part of your subscription. Start your journey by subscribing to listen.');
    await dialog.getByRole('button', { name: 'Maybe Later' }).click();
    await dialog.waitFor({ state: 'detached' });

    // Keyboard: the card's title is its play button (the heart is a separate button after it).
    const secondTitle = (await cards.nth(1).locator('h2').textContent())!.trim();
    await cards.nth(1).getByRole('button', { name: secondTitle, exact: true }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('dialog').getByRole('button', { name: 'Subscribe to Continue' }).click();
    await page.waitForURL(`${server.url}/subscribe`);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('includes anxiety and emotional-regulation items under emotional-wellbeing', async () => {
    const api = await fetch(`${server.url}/api/meditations?category=emotional-wellbeing`).then((r) => r.json());
    const categories = new Set(api.meditations.flatMap((m: { categories: string[] }) => m.categories));
    expect(categories.has('anxiety')).toBe(true);
    expect(categories.has('emotional-regulation')).toBe(true);
    const { page, context } = await openPage(browser);
    await page.goto(`${server.url}/meditations/emotional-wellbeing`);
    await page.getByTestId('meditation-card').first().waitFor();
    expect(await page.getByTestId('meditation-card').count()).toBe(api.meditations.length);
    await context.close();
  });

  it('serves every alias route', async () => {
    const { page, context, problems } = await openPage(browser);
    await page.goto(`${server.url}/meditations/all`);
    await page.getByRole('heading', { name: 'All Meditations', level: 1 }).waitFor();
    const all = await fetch(`${server.url}/api/meditations`).then((r) => r.json());
    await page.getByTestId('meditation-card').first().waitFor();
    expect(await page.getByTestId('meditation-card').count()).toBe(all.meditations.length);
    expect(all.meditations.length).toBeGreaterThanOrEqual(24);

    await page.goto(`${server.url}/category/${encodeURIComponent('Sleep & Rest')}`);
    await page.getByRole('heading', { name: 'Sleep & Rest', level: 1 }).waitFor();

    await page.goto(`${server.url}/meditations/recently-added`);
    await page.getByRole('heading', { name: 'Recently Added', level: 1 }).waitFor();
    await page.getByTestId('meditation-card').first().waitFor();
    expect(await page.getByTestId('meditation-card').count()).toBe(10);

    const target = all.meditations[5];
    await page.goto(`${server.url}/meditation/${target.id}`);
    await page.getByTestId('meditation-card').first().waitFor();
    // Focused once the listing's notices chunk (which brings the card into view) has loaded.
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent ?? '')).toContain(target.title);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('searches a listing by its words and by words spoken, filters by length, and keeps both in the address', async () => {
    const { page, context, problems } = await openPage(browser);
    await page.goto(`${server.url}/meditations/all`);
    const cards = page.getByTestId('meditation-card');
    await cards.first().waitFor();
    const total = await cards.count();
    const search = page.getByRole('searchbox', { name: 'Search meditations' });

    // 'candle' is only spoken (in A Birthday Pause): the server finds it in the transcript.
    await search.fill('candle');
    await page.getByText(`1 of ${total} meditations`).waitFor();
    expect(await cards.first().locator('h2').textContent()).toBe('A Birthday Pause');

    // Titles, descriptions and tags match on the device; the address keeps the search.
    await search.fill('sleep');
    await cards.filter({ hasText: 'Letting the Day Go' }).waitFor();
    await page.waitForURL(/\?q=sleep$/);
    const matching = await cards.count();
    expect(matching).toBeGreaterThan(0);
    expect(matching).toBeLessThan(total);
    await page.reload();
    await page.getByText(`${matching} of ${total} meditations`).waitFor();
    expect(await search.inputValue()).toBe('sleep');

    // No demo meditation is over 15 minutes: the empty state, and one way back.
    await page.getByRole('group', { name: 'Length' }).getByRole('button', { name: 'Over 15 min' }).click();
    await page.getByText('No meditations match your search.').waitFor();
    await page.getByRole('button', { name: 'Clear search and filters' }).click();
    await cards.nth(total - 1).waitFor();
    expect(await cards.count()).toBe(total);
    expect(await search.inputValue()).toBe('');
    expect(page.url()).toBe(`${server.url}/meditations/all`);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('scrolls the active category chip into view on a phone', async () => {
    const { page, context } = await openPage(browser, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await page.goto(`${server.url}/meditations/significant-chapters`);
    const chip = page.getByRole('navigation', { name: 'Categories' }).getByRole('link', { name: 'Significant Chapters' });
    await chip.waitFor();
    await expect.poll(async () => {
      const box = await chip.boundingBox();
      return Boolean(box && box.x >= 0 && box.x + box.width <= 390);
    }).toBe(true);
    await context.close();
  });

  it('gives a category without a title of its own the fallback title, its empty state, and a slug that names no category the 404 page', async () => {
    // The statuses checked below are the server's: once the service worker controls the page it
    // answers navigations with the app shell (200), which shows the same 404 page.
    const { page, context } = await openPage(browser, { serviceWorkers: 'block' });
    // Emotional regulation is a category editors assign, with no entry in the title table.
    await page.route('**/api/meditations?category=emotional-regulation', async (route) => {
      const real = (await (await route.fetch()).json()) as Record<string, unknown>;
      await route.fulfill({ json: { ...real, meditations: [] } });
    });
    await page.goto(`${server.url}/meditations/emotional-regulation`);
    await page.getByRole('heading', { name: 'Emotional Regulation Meditations', level: 1 }).waitFor();
    await page.getByText('No meditations found in this category.').waitFor();

    // A slug that is no category is no page (it showed 'Quiet Harbours Meditations' with HTTP 200).
    for (const path of ['/meditations/quiet-harbours', '/category/Quiet%20Harbours']) {
      const response = await page.goto(`${server.url}${path}`);
      expect(response?.status(), path).toBe(404);
      await page.getByRole('heading', { name: 'Oops! Page not found' }).waitFor();
    }
    await context.close();
  });

  it('shows the loading and error states', async () => {
    const { page, context } = await openPage(browser);
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/meditations?category=morning', async (route) => {
      await held;
      await route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ error: { code: 'database/connection-error', message: 'Unable to connect to our servers. Please try again in a moment.' } }) });
    });
    // Prepared pages arrive with their cards; the states show when the app loads a listing itself.
    await page.goto(server.url);
    await page.waitForFunction(() => document.querySelector('[data-testid="affirmation"]')?.textContent.includes('“'));
    await page.locator('a[href="/meditations/morning"]').first().click();
    await page.getByText('Loading meditations...').waitFor();
    release();
    await page.getByText('Error loading meditations: Unable to connect to our servers. Please try again in a moment.').waitFor({ timeout: 20_000 });
    await page.unroute('**/api/meditations?category=morning');
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.getByTestId('meditation-card').first().waitFor();
    await context.close();
  });
});

describe('prepared pages going live', () => {
  // CLS 0 (issue 15): what the server prepared is what stays; nothing moves when the app takes over
  // (the session becomes known, a lazy page hydrates, the affirmation is drawn). Counted from the
  // moment the app starts (main.tsx marks it): under heavy CPU load a page sometimes moved once
  // ~110 ms after loading, before any of the app ran (Lighthouse: CLS 0 in every run); that is
  // not understood yet and is noted on issue 15.
  it.each([
    ['/', 'a phone', 390],
    ['/meditations/all', 'a phone', 390],
    ['/subscribe', 'a phone', 390],
    // On a laptop the navigation shows the visitor's links, which must keep their room until the session is known.
    ['/', 'a laptop', 1280],
    ['/subscribe', 'a laptop', 1280],
  ])('%s does not move when the app goes live, on %s', async (path, _label, width) => {
    const { page, context } = await openPage(browser, { viewport: { width, height: width === 390 ? 844 : 900 } });
    await page.addInitScript(() => {
      // Each shift with what moved (element, then its box before → after), so a failure says where to look.
      type Source = { node?: Node | null; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly };
      const describe = (source: Source) => {
        const element = source.node instanceof Element ? source.node : source.node?.parentElement;
        const box = (rect: DOMRectReadOnly) => `${Math.round(rect.x)},${Math.round(rect.y)} ${Math.round(rect.width)}×${Math.round(rect.height)}`;
        const name = element ? `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''} "${element.textContent.trim().slice(0, 40)}"` : String(source.node?.nodeName);
        return `${name} ${box(source.previousRect)} → ${box(source.currentRect)}`;
      };
      // A box that moved and changed size by less than a pixel moved nothing anyone can see: the
      // headings' font arriving late on a loaded machine swaps in for its metric-matched stand-in
      // (fonts.css) and nudges the /subscribe heading by a fraction of a pixel (seen: 0.0001, the
      // same box to the pixel before and after). Such shifts are left out; any whole pixel counts.
      const visible = (source: Source) =>
        (['x', 'y', 'width', 'height'] as const).some((side) => Math.abs(source.previousRect[side] - source.currentRect[side]) >= 1);
      const shifts: { at: number; value: number; moved: string[] }[] = [];
      (window as unknown as { shifts: typeof shifts }).shifts = shifts;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean; sources: Source[] })[]) {
          if (!entry.hadRecentInput && entry.sources.some(visible)) shifts.push({ at: entry.startTime, value: entry.value, moved: entry.sources.map(describe) });
        }
      }).observe({ type: 'layout-shift', buffered: true });
    });
    await page.goto(`${server.url}${path}`);
    // Live, the session known, and everything that would still arrive (the affirmation) arrived and painted.
    await page.waitForLoadState('networkidle');
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    const afterAppStart = await page.evaluate(() => {
      const start = performance.getEntriesByName('hm:app-start')[0]?.startTime ?? 0;
      return (window as unknown as { shifts: { at: number; value: number; moved: string[] }[] }).shifts.filter((shift) => shift.at >= start).map((shift) => ({ value: shift.value, moved: shift.moved }));
    });
    expect(await page.evaluate(() => performance.getEntriesByName('hm:app-start').length)).toBe(1);
    expect(afterAppStart).toEqual([]);
    await context.close();
  });
});

describe('home as a lazy page', () => {
  // Home is its own chunk (issue 15): it is prefetched once the page is idle, so someone who landed
  // elsewhere and lost the network can still go Home (no service worker here: only the prefetch can help).
  it('opens Home offline after landing on the catalogue', async () => {
    const { page, context } = await openPage(browser, { serviceWorkers: 'block' });
    await page.goto(`${server.url}/meditations/all`);
    // The idle prefetch loads one chunk at a time and asks for the toasts' (which nothing else loads
    // before a toast is shown) only once Home and all its imports have loaded, so that request says Home
    // is ready. (Waiting for "networkidle" did not: it may have been reached before the prefetch began,
    // and then it returns at once.)
    await page.waitForFunction(() => performance.getEntriesByType('resource').some((entry) => /\/assets\/toast-after-modals-[\w-]+\.js$/.test(entry.name)));
    // A visitor has no offline copies (they are kept per account): the player's chunks wait for a first play (issue 39).
    const fetched = await page.evaluate(() => performance.getEntriesByType('resource').map((entry) => entry.name));
    expect(fetched.filter((name) => /\/assets\/(offline-store|player-sheet|player-bar|session-summary)-[\w-]+\.js$/.test(name))).toEqual([]);
    // The prepared page's stylesheet is in the page: the lazy chunks do not fetch and apply it again (issue 39).
    expect(fetched.filter((name) => name.endsWith('.css'))).toEqual([]);
    await context.setOffline(true);
    await page.getByRole('link', { name: 'Harbour Mind' }).first().click();
    await page.waitForURL(`${server.url}/`);
    await page.getByRole('heading', { name: "Today's affirmation" }).waitFor();
    await context.close();
  });

  it('fetches the offline player at idle for someone signed in, before anything is played', async () => {
    const { page, context } = await openPage(browser, { serviceWorkers: 'block' });
    await signedInMember(server, context);
    await page.goto(`${server.url}/meditations/all`);
    // Their offline copies must play with the network gone, even on a visit where nothing was played yet.
    await page.waitForFunction(() => ['offline-store', 'player-bar', 'player-sheet', 'session-summary'].every((chunk) => performance.getEntriesByType('resource').some((entry) => new RegExp(`/assets/${chunk}-[\\w-]+\\.js$`).test(entry.name))));
    await context.close();
  });
});

describe('static pages, navigation and 404', () => {
  it('renders the founder note, about, support, privacy, cookies and terms', async () => {
    const { page, context, problems } = await openPage(browser);
    const expectations: Array<[string, RegExp]> = [
      ['/why-i-created-harbour-mind', /clinical/i],
      ['/about', /Harbour Mind/],
      ['/support', /24 hours/],
      // Rewritten to be true (issue 18): no analytics claim, erasure at once, what is encrypted where; and (issue 33)
      // backups: gone from them within 30 days, deletions applied again by `restore`.
      ['/privacy', /Last updated 27 November 2026[\s\S]*end-to-end encrypted[\s\S]*erased from the service at once[\s\S]*within 30 days[\s\S]*erased again/],
      ['/cookies', /Last updated 26 November 2026[\s\S]*There are none/],
      ['/terms', /Terms/i],
    ];
    for (const [path, text] of expectations) {
      await page.goto(`${server.url}${path}`);
      await page.getByRole('heading', { level: 1 }).waitFor();
      const words = await page.locator('main').textContent();
      expect(words, path).toMatch(text);
      // No page promises what the app does not do.
      // ('within 30 days' is now true of backups, which `restore` and the README's retention keep to: issue 33.)
      expect(words, path).not.toMatch(/retained for up to 2 years|encrypted in transit and at rest/i);
    }
    await page.goto(`${server.url}/terms`);
    const viewportHeight = page.viewportSize()!.height;
    const scrollHeight = await page.locator('.h-\\[60vh\\]').first().evaluate((el) => el.getBoundingClientRect().height);
    expect(Math.abs(scrollHeight - viewportHeight * 0.6)).toBeLessThan(2);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('scrolls to the top on every route change, moves focus to the page and announces its title, and shows the footer version', async () => {
    const { page, context } = await openPage(browser);
    await page.goto(`${server.url}/privacy`);
    await page.getByRole('heading', { name: 'Privacy Policy', level: 1 }).waitFor();
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await page.waitForFunction(() => window.scrollY > 200);
    expect(await page.getByTestId('version-label').textContent()).toContain('1.0.0');
    await page.getByRole('navigation', { name: 'Footer' }).getByRole('link', { name: 'Support' }).click();
    await page.waitForURL(`${server.url}/support`);
    await page.waitForFunction(() => window.scrollY === 0);
    // Keyboard and screen-reader users start at the new content, and hear where they are.
    await page.waitForFunction(() => document.activeElement?.id === 'main');
    await page.getByTestId('route-announcer').getByText(/^Support and help centre · Harbour Mind$/).waitFor({ state: 'attached' });
    // The next Tab goes into the page, not back to the footer link.
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => Boolean(document.activeElement?.closest('main')))).toBe(true);
    await context.close();
  });

  it('collapses the navigation into a keyboard-usable menu on a phone', async () => {
    const { page, context } = await openPage(browser, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await page.goto(server.url);
    const nav = page.getByRole('navigation', { name: 'Main' });
    expect(await nav.getByRole('link', { name: 'Journal' }).isVisible()).toBe(false);
    const toggle = page.getByRole('button', { name: 'Open menu' });
    await toggle.click();
    expect(await page.getByRole('button', { name: 'Close menu' }).getAttribute('aria-expanded')).toBe('true');
    await page.getByRole('link', { name: 'Morning Routine' }).first().click();
    await page.waitForURL(`${server.url}/morning-routine`);
    expect(await page.getByRole('button', { name: 'Open menu' }).getAttribute('aria-expanded')).toBe('false');
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.keyboard.press('Escape');
    expect(await page.getByRole('button', { name: 'Open menu' }).getAttribute('aria-expanded')).toBe('false');
    await context.close();
  });

  it('shows the signed-out navigation: Sign In and Get Started', async () => {
    const { page, context } = await openPage(browser);
    await page.goto(server.url);
    const nav = page.getByRole('navigation', { name: 'Main' });
    for (const name of ['Meditations', 'Journal', 'Morning Routine', 'Evening Routine', 'Sign In']) await nav.getByRole('link', { name }).first().waitFor();
    expect(await nav.getByRole('link', { name: 'Get Started' }).first().getAttribute('href')).toBe('/subscribe');
    await context.close();
  });

  it('says so when the app cannot load, and the prepared page stays readable', async () => {
    // Not openPage: its navigation waits for the app to be live, which here it never is.
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.route('**/assets/boot-*.js', (route) => route.abort());
    await page.goto(`${server.url}/about`);
    await page.getByRole('alert').getByText('Harbour Mind could not finish loading. Check your connection, then reload the page.').waitFor();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBeTruthy();
    expect(await page.evaluate(() => document.documentElement.dataset.live)).toBeUndefined();
    await context.close();
  });

  it('answers unknown paths with the 404 page (HTTP 404, logged by the server)', async () => {
    const { page, context } = await openPage(browser);
    const response = await page.goto(`${server.url}/this/does-not-exist`);
    expect(response?.status()).toBe(404);
    await page.getByText('404', { exact: true }).waitFor();
    await page.getByRole('heading', { name: 'Oops! Page not found' }).waitFor();
    await page.getByRole('link', { name: 'Return to Home' }).click();
    await page.waitForURL(`${server.url}/`);
    // The route as every log line says it (redacted where a segment looks like a token; this one does not).
    expect(server.logs()).toContain('"route":"/this/does-not-exist"');
    await context.close();
  });
});
