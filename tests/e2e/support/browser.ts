/**
 * Debian's Chromium driven by playwright-core (never a downloaded browser): its headless shell, which
 * opens a page for half the CPU of the full browser (decision 0052; CHROMIUM_PATH=/usr/bin/chromium
 * runs the journeys in the full one). Pages fail the test
 * on any console error, page error or CSP violation unless the test expects it.
 */
import { existsSync } from 'node:fs';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';
import { onTestFailed } from 'vitest';

/** Where a failed test leaves its screenshots (kept by CI's workspace for a look afterwards). */
const FAILURE_DIR = resolve('.tmp/e2e-failures');

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium-headless-shell';

/** The full browser, for a journey the headless shell cannot make: it has no notification centre, so a service worker's notifications are never shown. */
export const FULL_CHROMIUM_PATH = '/usr/bin/chromium';

export async function launchBrowser({ full = false }: { full?: boolean } = {}): Promise<Browser> {
  const executablePath = full ? FULL_CHROMIUM_PATH : CHROMIUM_PATH;
  if (!existsSync(executablePath)) throw new Error(`Chromium not found at ${executablePath}: npm test installs it (apt-get install -y chromium chromium-headless-shell)`);
  return chromium.launch({
    executablePath,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-quic', '--no-first-run'],
  });
}

export type WatchedPage = { page: Page; context: BrowserContext; problems: string[] };

/**
 * A fresh context (a first visit) and its page. Without a service worker unless asked for: a first
 * visit's worker installs in the background and downloads the whole precache (every chunk, font and
 * picture), about two seconds of the browser's and the server's CPU per context that no journey
 * reads. The journeys of the worker itself (offline, installability, reminders, privacy) pass
 * `serviceWorkers: 'allow'`, and so does any journey whose page should be served by it.
 */
export async function openPage(browser: Browser, options: BrowserContextOptions = {}): Promise<WatchedPage> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, serviceWorkers: 'block', ...options });
  const page = await context.newPage();
  const problems: string[] = [];
  // What the page sent, for the failure report: a form that sent something other than what was on
  // screen (accounts.e2e's rare failure) shows here. Test data only; the last 20 requests.
  const sent: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'GET' || !new URL(request.url()).pathname.startsWith('/api/')) return;
    sent.push(`${new Date().toISOString().slice(11, 23)} ${request.method()} ${new URL(request.url()).pathname} ${(request.postData() ?? '').slice(0, 200)}`);
    if (sent.length > 20) sent.shift();
  });
  // Where the page went (the last 10 addresses, client-side routes included), for the failure report:
  // the admin journey once found itself back on / after reaching /admin.
  const visited: string[] = [];
  page.on('framenavigated', (frame) => {
    if (frame !== page.mainFrame()) return;
    visited.push(`${new Date().toISOString().slice(11, 23)} ${new URL(frame.url()).pathname}`);
    if (visited.length > 10) visited.shift();
  });
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    // 404 responses for unknown routes are expected where a test asks for them; everything else is a problem.
    if (message.type() === 'error' && !message.text().includes('404')) problems.push(`console: ${message.text()}`);
  });
  // A prepared page shows before it answers taps, as it does for a person: after each navigation,
  // wait until the app has made it live (html[data-live], set by the layout), then act.
  const whenLive = async <T,>(response: T): Promise<T> => {
    await page.waitForFunction(() => !document.getElementById('root') || document.documentElement.dataset.live === 'true');
    return response;
  };
  // A failure on a slow machine is hard to reproduce: say what the page showed when it happened.
  onTestFailed(async ({ task }) => {
    if (page.isClosed()) return;
    mkdirSync(FAILURE_DIR, { recursive: true });
    const shot = join(FAILURE_DIR, `${task.name.replace(/[^a-z0-9]+/gi, '-').slice(0, 80)}-${Date.now()}.png`);
    const alerts = await page.getByRole('alert').allTextContents().catch(() => []);
    await page.screenshot({ path: shot, fullPage: true }).catch(() => undefined);
    console.error(`[e2e failure] ${task.name}\n  url: ${page.url()}\n  alerts: ${JSON.stringify(alerts)}\n  problems: ${JSON.stringify(problems)}\n  visited:\n    ${visited.join('\n    ')}\n  sent:\n    ${sent.join('\n    ')}\n  screenshot: ${shot}`);
  });
  const goto = page.goto.bind(page);
  const reload = page.reload.bind(page);
  page.goto = async (url, options) => whenLive(await goto(url, options));
  page.reload = async (options) => whenLive(await reload(options));
  return { page, context, problems };
}

/**
 * Installs the page's clock and stops it, once the page knows who is signed in. From then on no
 * setTimeout of the page runs until the test moves time on, and TanStack Query hands its replies to
 * React in a `setTimeout(…, 0)`: an /api/me answer landing after the pause would never reach the
 * page, which would wait for it (a tap before the viewer is known is held) for ever. Seen on a loaded
 * machine, one run in eight; a 1.5 s delay on /api/me made it every run.
 */
export async function pauseClockOnceSettled(page: Page): Promise<number> {
  // The header keeps the visitor's links inert while the viewer loads (site-header.tsx).
  await page.waitForFunction(() => document.querySelector('header [inert]') === null);
  const now = Date.now();
  await page.clock.install({ time: now });
  await page.clock.pauseAt(now + 1_000);
  return now + 1_000;
}
