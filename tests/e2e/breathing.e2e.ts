/**
 * Guided breathing in Chromium against the real server (issue 37, item 1). Time passes by the page's
 * clock (page.clock), which the exercise follows with the audio clock: a visitor who asked for reduced
 * motion opens /breathe from home, chooses "4-7-8", presses "Start" and is told "Breathe in", "Hold"
 * and "Breathe out" in turn, with the circle still and a "Stop" button; a member finishes a short
 * exercise and finds it on Account › Profile as a breathing session.
 */
import { describe, expect, it } from 'vitest';
import { axeFindings } from '#tests/e2e/support/axe.ts';
import { openPage } from '#tests/e2e/support/browser.ts';
import { signedInMember } from '#tests/e2e/support/people.ts';
import { useSharedSuite } from '#tests/e2e/support/suite.ts';

const { server, browser } = await useSharedSuite();

describe('guided breathing', () => {
  it('a visitor with reduced motion follows 4-7-8 from home: each phase in words, the circle still, a countdown, and Stop', async () => {
    const { page, context, problems } = await openPage(browser, { reducedMotion: 'reduce' });
    const sessionPosts: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().includes('/api/sessions')) sessionPosts.push(request.url());
    });
    await page.goto(server.url);
    await page.getByRole('link', { name: /Guided breathing/ }).click();
    await page.getByRole('heading', { name: 'Guided breathing', level: 1 }).waitFor();
    expect(await axeFindings(page, '/breathe')).toEqual([]);

    await page.clock.install();
    await page.getByRole('radio', { name: '4-7-8' }).check();
    await page.getByRole('button', { name: 'Start' }).click();
    const phase = page.getByTestId('breathing-phase');
    await page.getByText('Breathe in', { exact: true }).waitFor();
    expect(await phase.getAttribute('aria-live')).toBe('polite');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('4-7-8');
    expect(await page.getByTestId('breathing-countdown').textContent()).toMatch(/^[1-4]$/);
    // Reduced motion: the guide does not grow or shrink; the words and the countdown carry the exercise.
    const guide = page.getByTestId('breathing-guide');
    expect(await guide.getAttribute('data-motion')).toBe('still');
    expect(await guide.evaluate((el) => getComputedStyle(el).transform)).toBe('none');

    await page.clock.runFor(4_000);
    await page.getByText('Hold', { exact: true }).waitFor();
    expect(await page.getByTestId('breathing-countdown').textContent()).toMatch(/^[1-7]$/);
    await page.clock.runFor(7_000);
    await page.getByText('Breathe out', { exact: true }).waitFor();
    expect(await guide.evaluate((el) => getComputedStyle(el).transform)).toBe('none');
    expect(await axeFindings(page, '/breathe (running)')).toEqual([]);

    await page.getByRole('button', { name: 'Stop' }).click();
    await page.getByRole('heading', { name: 'Exercise stopped', level: 1 }).waitFor();
    await page.getByTestId('breathing-outcome').getByRole('link', { name: 'Create a free account' }).waitFor();
    expect(sessionPosts).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('a member finishes a short exercise and finds it on Account › Profile as guided breathing', async () => {
    const { page, context, problems } = await openPage(browser);
    await signedInMember(server, context, { name: 'Wren Halloway', password: 'slow-harbour-4' });
    // The timer's page links here too.
    await page.goto(`${server.url}/timer`);
    await page.getByRole('link', { name: 'guided breathing' }).click();
    await page.getByRole('heading', { name: 'Guided breathing', level: 1 }).waitFor();

    await page.clock.install();
    await page.getByRole('radio', { name: 'Physiological sigh' }).check();
    await page.getByLabel('Length').selectOption('1-cycles');
    await page.getByRole('button', { name: 'Start' }).click();
    await page.getByText('Breathe in', { exact: true }).waitFor();
    // The guide grows with the breath when motion is welcome.
    expect(await page.getByTestId('breathing-guide').getAttribute('data-motion')).toBe('moving');
    await page.clock.runFor(2_000);
    await page.getByText('Breathe in again', { exact: true }).waitFor();
    await page.clock.runFor(1_000);
    await page.getByText('Breathe out', { exact: true }).waitFor();
    await page.clock.runFor(6_000);
    await page.getByRole('heading', { name: 'Well done', level: 1 }).waitFor();
    await page.getByText('You breathed for 9 seconds.').waitFor();
    await page.getByTestId('breathing-outcome').getByText('Added to your practice.').waitFor();

    await page.clock.resume();
    await page.goto(`${server.url}/account`);
    await page.getByTestId('practice-history-item').filter({ hasText: 'Guided breathing' }).filter({ hasText: 'Complete · under a minute' }).waitFor();
    const practice = (await (await context.request.get(`${server.url}/api/practice?tz=UTC`)).json()) as { totalSessions: number; recent: { kind: string; complete: boolean; trackMinutes: number }[] };
    expect(practice).toMatchObject({ totalSessions: 1, recent: [{ kind: 'breathing', complete: true, trackMinutes: 0 }] });
    expect(problems).toEqual([]);
    await context.close();
  });

  it('an exercise done offline is kept on the device and counted once the connection is back', async () => {
    const { page, context } = await openPage(browser, { serviceWorkers: 'allow' });
    await signedInMember(server, context, { name: 'Ines Calloway', password: 'still-harbour-6' });
    await page.goto(`${server.url}/breathe`);
    await page.evaluate(() => navigator.serviceWorker.ready);
    await page.waitForFunction(() => Boolean(navigator.serviceWorker.controller), undefined, { timeout: 15_000 });

    // Offline: the page and its cues come from the service worker.
    await context.setOffline(true);
    await page.reload();
    await page.getByRole('heading', { name: 'Guided breathing', level: 1 }).waitFor();
    await page.getByRole('radio', { name: 'Box breathing' }).check();
    await page.getByLabel('Length').selectOption('1-cycles');
    await page.clock.install();
    await page.getByRole('button', { name: 'Start' }).click();
    await page.getByText('Breathe in', { exact: true }).waitFor();
    // The cues were precached: nothing says they could not be loaded.
    expect(await page.getByText('could not be loaded').count()).toBe(0);
    await page.clock.runFor(16_000);
    await page.getByRole('heading', { name: 'Well done', level: 1 }).waitFor();
    await page.getByTestId('breathing-outcome').getByText('Saved on this device. It will be added to your practice when you are back online.').waitFor();

    await page.clock.resume();
    await context.setOffline(false);
    const practice = async () => (await (await context.request.get(`${server.url}/api/practice?tz=UTC`)).json()) as { totalSessions: number; recent: { kind: string; complete: boolean }[] };
    await expect.poll(async () => (await practice()).totalSessions, { timeout: 15_000 }).toBe(1);
    await page.reload();
    expect(await practice()).toMatchObject({ totalSessions: 1, recent: [{ kind: 'breathing', complete: true }] });
    await context.close();
  });
});
