/**
 * The meditation timer in Chromium against the real server (issue 20, item 1). What the page asks
 * of Web Audio is watched, not replaced: the real AudioContext plays the real bells, and a spy
 * notes when each sound was scheduled on the audio clock. One sitting runs its real minute with the
 * page's own timers frozen (page.clock paused), which is what a background tab does to them: it
 * still ends on time, because nothing but the audio clock times it.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openPage, pauseClockOnceSettled } from '#tests/e2e/support/browser.ts';
import { useSharedSuite } from '#tests/e2e/support/suite.ts';
import { signedInMember } from '#tests/e2e/support/people.ts';

const { server, browser } = await useSharedSuite();

type Scheduled = { kind: 'buffer' | 'constant'; when: number; stop: number | null; duration: number | null };

/** Notes every source the page schedules (calls through to the real one) and the last context made. */
async function watchWebAudio(context: BrowserContext) {
  await context.addInitScript(() => {
    const w = window as unknown as { __scheduled: Scheduled[]; __context: BaseAudioContext | null };
    w.__scheduled = [];
    w.__context = null;
    const notes = new WeakMap<AudioScheduledSourceNode, Scheduled>();
    // AudioBufferSourceNode has its own start (with an offset and a duration); the others inherit one.
    for (const proto of [AudioScheduledSourceNode.prototype, AudioBufferSourceNode.prototype] as { start: (when?: number, ...rest: unknown[]) => void; stop: (when?: number) => void }[]) {
      const { start, stop } = proto;
      proto.start = function (this: AudioScheduledSourceNode, when?: number, ...rest: unknown[]) {
        const note: Scheduled = { kind: this instanceof AudioBufferSourceNode ? 'buffer' : 'constant', when: when ?? 0, stop: null, duration: this instanceof AudioBufferSourceNode ? (this.buffer?.duration ?? null) : null };
        notes.set(this, note);
        w.__scheduled.push(note);
        w.__context = this.context;
        start.call(this, when, ...rest);
      };
      proto.stop = function (this: AudioScheduledSourceNode, when?: number) {
        const note = notes.get(this);
        if (note && when !== undefined && note.stop === null) note.stop = when;
        stop.call(this, when);
      };
    }
  });
}

const scheduled = (page: Page) => page.evaluate(() => (window as unknown as { __scheduled: Scheduled[] }).__scheduled);
const contextState = (page: Page) => page.evaluate(() => (window as unknown as { __context: BaseAudioContext | null }).__context?.state ?? null);
/** Which bell a buffer is, by its length (scripts/generate-timer-sounds.sh: 9, 8 and 5 seconds; beds 60). */
const soundOf = (duration: number | null) => (duration === null ? null : duration > 30 ? 'bed' : duration > 8.5 ? 'singing-bowl' : duration > 6 ? 'temple-bell' : 'soft-chime');

describe('the meditation timer', () => {
  it('is reachable from home, schedules every bell on the audio clock, pauses the whole schedule, and keeps its choices on the device', async () => {
    const { page, context, problems } = await openPage(browser);
    await watchWebAudio(context);
    const sessionPosts: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().includes('/api/sessions')) sessionPosts.push(request.url());
    });
    await page.goto(server.url);
    await page.getByRole('link', { name: /Meditation timer/ }).click();
    await page.getByRole('heading', { name: 'Meditation timer', level: 1 }).waitFor();

    await page.getByText('20 min', { exact: true }).click();
    await page.getByLabel('Warm-up').selectOption('10');
    await page.getByLabel('Starting bell').selectOption('temple-bell');
    await page.getByLabel('Interval bells').selectOption('5');
    await page.getByLabel('Interval bell', { exact: true }).selectOption('soft-chime');
    await page.getByLabel('Ending bell').selectOption('singing-bowl');
    await page.getByLabel('Ambient sound').selectOption('rain');
    await page.getByRole('button', { name: 'Begin' }).click();
    await page.getByRole('heading', { name: 'Settling in' }).waitFor();
    expect(await page.getByRole('heading', { level: 1 }).evaluate((h) => h === document.activeElement)).toBe(true);

    const sources = await scheduled(page);
    const marker = sources.find((s) => s.kind === 'constant' && s.stop !== null && s.stop - s.when > 60);
    expect(marker, 'a silent marker that ends with the sitting').toBeDefined();
    const origin = marker!.when;
    expect(marker!.stop! - origin).toBeCloseTo(10 + 20 * 60, 6);
    const bells = sources.filter((s) => s.kind === 'buffer' && soundOf(s.duration) !== 'bed').map((s) => [soundOf(s.duration), Number((s.when - origin).toFixed(3))]);
    expect(bells).toEqual([
      ['temple-bell', 10],
      ['soft-chime', 310],
      ['soft-chime', 610],
      ['soft-chime', 910],
      ['singing-bowl', 1210],
    ]);
    // The bed: copies that overlap by the fade, from the first bell to the last, none beyond it.
    const bed = sources.filter((s) => soundOf(s.duration) === 'bed').map((s) => ({ at: s.when - origin, stop: s.stop! - origin }));
    expect(bed[0].at).toBeCloseTo(10, 6);
    expect(bed.length).toBe(Math.ceil(1200 / (bed[1].at - bed[0].at)));
    expect(Math.max(...bed.map((b) => b.stop))).toBeCloseTo(1210, 6);

    // Pause suspends the audio clock: the time left stands still, and the schedule with it.
    await page.getByRole('button', { name: 'Pause' }).click();
    await page.getByRole('heading', { name: 'Paused' }).waitFor();
    expect(await contextState(page)).toBe('suspended');
    const held = await page.getByTestId('timer-remaining').textContent();
    await page.waitForTimeout(1_500);
    expect(await page.getByTestId('timer-remaining').textContent()).toBe(held);
    await page.getByRole('button', { name: 'Resume' }).click();
    await page.getByRole('heading', { name: /Settling in|Sitting/ }).waitFor();
    expect(await contextState(page)).toBe('running');

    // Ended early, by a visitor: nothing is sent, and the page says how to keep sittings.
    await page.getByRole('button', { name: 'End' }).click();
    await page.getByRole('heading', { name: 'Sitting ended' }).waitFor();
    await page.getByText('You sat for under a minute of 20 minutes.').waitFor();
    await page.getByTestId('timer-outcome').getByRole('link', { name: 'Create a free account' }).waitFor();
    await expect.poll(() => contextState(page)).toBe('closed');
    expect(sessionPosts).toEqual([]);

    // The choices stay on this device.
    await page.reload();
    await page.getByRole('heading', { name: 'Meditation timer', level: 1 }).waitFor();
    expect(await page.getByRole('radio', { name: '20 min' }).isChecked()).toBe(true);
    expect(await page.getByLabel('Interval bells').inputValue()).toBe('5');
    expect(await page.getByLabel('Ambient sound').inputValue()).toBe('rain');

    // A custom length outside the limits is refused in the form, with the reason.
    await page.getByText('Custom', { exact: true }).click();
    await page.getByLabel('Minutes').fill('500');
    await page.getByRole('button', { name: 'Begin' }).click();
    await page.getByRole('alert').filter({ hasText: 'Choose a length between 1 and 180 minutes.' }).waitFor();
    expect(await page.getByLabel('Minutes').evaluate((input) => input === document.activeElement)).toBe(true);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('keeps time offline with the page’s timers frozen, rings out, and records the sitting once when back online', { timeout: 150_000 }, async () => {
    const { page, context } = await openPage(browser, { serviceWorkers: 'allow' });
    await signedInMember(server, context, { name: 'Tove Lind', password: 'quiet-harbour-9' });
    await page.goto(`${server.url}/timer`);
    await page.evaluate(() => navigator.serviceWorker.ready);
    await page.waitForFunction(() => Boolean(navigator.serviceWorker.controller), undefined, { timeout: 15_000 });

    // Offline: the page and its bells come from the service worker.
    await context.setOffline(true);
    await page.reload();
    await page.getByRole('heading', { name: 'Meditation timer', level: 1 }).waitFor();
    await page.getByText('Custom', { exact: true }).click();
    await page.getByLabel('Minutes').fill('1');
    await page.getByLabel('Warm-up').selectOption('0');
    await page.getByLabel('Interval bells').selectOption('0');
    await page.getByLabel('Ambient sound').selectOption('none');

    // From here no setTimeout, setInterval or animation frame of the page runs: a background tab's lot, at its worst.
    await pauseClockOnceSettled(page);
    await page.getByRole('button', { name: 'Begin' }).click();
    await page.getByRole('heading', { name: 'Sitting' }).waitFor();
    const began = Date.now();
    await page.getByRole('heading', { name: 'Well done' }).waitFor({ timeout: 90_000 });
    const took = (Date.now() - began) / 1000;
    expect(took, 'the sitting ends after its minute, not before').toBeGreaterThanOrEqual(59);
    await page.getByText('You sat for 1 minute.').waitFor();
    await page.getByTestId('timer-outcome').getByText('Saved on this device. It will be added to your practice when you are back online.').waitFor();

    await page.clock.resume();
    await context.setOffline(false);
    const practice = async () => (await (await context.request.get(`${server.url}/api/practice?tz=UTC`)).json()) as { totalSessions: number; totalMinutes: number; recent: { kind: string; complete: boolean; minutes: number }[] };
    await expect.poll(async () => (await practice()).totalSessions, { timeout: 15_000 }).toBe(1);
    // Sent once, whatever else flushes the queue afterwards (a reload does).
    await page.goto(`${server.url}/account`);
    await page.getByTestId('practice-history-item').filter({ hasText: 'Meditation timer' }).filter({ hasText: 'Complete · 1 min' }).waitFor();
    expect(await practice()).toMatchObject({ totalSessions: 1, totalMinutes: 1, recent: [{ kind: 'timer', complete: true, minutes: 1 }] });
    await context.close();
  });
});
