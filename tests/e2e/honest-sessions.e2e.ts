/**
 * Honest sessions in Chromium against the real server (issue 20, item 3): seeking to the end of a
 * track credits no completed session (the reported defect: three sessions and three minutes for
 * about 15 seconds of listening), while a track heard from start to end is credited; the practice
 * card shows the partial ones as partial.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { axeFindings } from '#tests/e2e/support/axe.ts';
import { openPage } from '#tests/e2e/support/browser.ts';
import { playFaster, practice, setSlider, waitForPlaying } from '#tests/e2e/support/player.ts';
import { useSharedSuite } from '#tests/e2e/support/suite.ts';
import { signedInSubscriber } from '#tests/e2e/support/people.ts';
import { subscriberCards } from '#tests/e2e/support/subscriber.ts';

const { server, browser } = await useSharedSuite();

/** Starts a card of the listing and waits until its audio plays. */
async function start(page: Page, title: string) {
  await page.getByTestId('meditation-card').filter({ hasText: title }).getByRole('button', { name: title, exact: true }).click();
  await page.getByRole('dialog', { name: title }).waitFor();
  await waitForPlaying(page, 0.5);
}

/** The end of a play: the overlay comes and goes (the player is free again). */
async function ended(page: Page) {
  const overlay = page.getByTestId('completion-overlay');
  await overlay.waitFor({ timeout: 20_000 });
  await overlay.waitFor({ state: 'detached', timeout: 6_000 });
}

/** Notes whether 'Meditation Complete!' ever shows on this page (it lasts only 3 s). */
const watchForCompletion = (page: Page) =>
  page.evaluate(() => {
    new MutationObserver(() => {
      if (document.querySelector('[data-testid="completion-overlay"]')) document.documentElement.dataset.sawCompletion = 'yes';
    }).observe(document.body, { childList: true, subtree: true });
  });
const sawCompletion = (page: Page) => page.evaluate(() => document.documentElement.dataset.sawCompletion === 'yes');

/** A play that ended unheard (a seek to the end): the calm summary, with no 'Meditation Complete!' before it. */
async function endedUnheard(page: Page) {
  await page.getByTestId('session-summary').waitFor({ timeout: 20_000 });
  expect(await sawCompletion(page)).toBe(false);
}

describe('honest sessions', () => {
  it('credits no completed session for seeking to the end of three tracks, congratulates none, and shows them as partial', async () => {
    const { page, context, problems } = await openPage(browser);
    await signedInSubscriber(server, context, { name: 'Sol Reyes', password: 'quiet-harbour-4' });
    await page.goto(`${server.url}/meditations/mindfulness`);
    const cards = await subscriberCards(page);
    const titles = (await cards.locator('h2').allTextContents()).map((t) => t.trim()).slice(0, 3);
    expect(titles).toHaveLength(3);
    await watchForCompletion(page);

    for (const [i, title] of titles.entries()) {
      await start(page, title);
      await setSlider(page, 96);
      await endedUnheard(page);
      // Each play still reaches the server, as the partial session it was.
      await expect.poll(async () => (await practice(server, context)).recent.length, { timeout: 10_000 }).toBe(i + 1);
    }
    const summary = await practice(server, context);
    expect(summary).toMatchObject({ totalSessions: 0, totalMinutes: 0 });
    expect(summary.recent.map((r) => r.complete)).toEqual([false, false, false]);
    expect(summary.recent.map((r) => r.title).sort()).toEqual([...titles].sort());
    // A partial listen is not 'Played'.
    await page.goto(`${server.url}/meditations/mindfulness`);
    await cards.first().waitFor();
    expect(await cards.getByTestId('card-mark').count()).toBe(0);

    // The practice card says so, kindly, to the eye and to a screen reader.
    await page.goto(`${server.url}/account`);
    await page.getByTestId('practice-sessions').filter({ hasText: '0' }).waitFor();
    // A few seconds heard: under a minute, not nothing (issue 38).
    await page.getByTestId('practice-minutes').filter({ hasText: '<1' }).waitFor();
    const history = page.getByRole('region', { name: 'Recent sessions' });
    const statuses = history.getByTestId('practice-history-status');
    await statuses.first().waitFor();
    expect(await statuses.count()).toBe(3);
    for (const status of await statuses.all()) {
      expect(await status.locator('[aria-hidden]').textContent()).toMatch(/^Partial · under a minute( of \d+ min)?$/);
      expect(await status.locator('.sr-only').textContent()).toMatch(/^Partial session, under a minute( of \d+ minutes?)? listened$/);
    }
    expect(await axeFindings(page, 'account with partial sessions')).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('credits a track heard from start to end (quickly, at 4×) as one completed session', async () => {
    const { page, context, problems } = await openPage(browser);
    await signedInSubscriber(server, context, { name: 'Noor Vale', password: 'quiet-harbour-5' });
    await page.goto(`${server.url}/meditations/mindfulness`);
    const cards = await subscriberCards(page);
    const title = (await cards.first().locator('h2').textContent())!.trim();

    await start(page, title);
    await playFaster(page, 4);
    await ended(page);
    await expect.poll(async () => (await practice(server, context)).totalSessions, { timeout: 10_000 }).toBe(1);
    const summary = await practice(server, context);
    expect(summary.recent).toHaveLength(1);
    expect(summary.recent[0]).toMatchObject({ title, complete: true });
    // Played marks come from complete sessions.
    await page.goto(`${server.url}/meditations/mindfulness`);
    await cards.filter({ hasText: title }).getByTestId('card-mark').filter({ hasText: 'Played' }).waitFor();

    await page.goto(`${server.url}/account`);
    await page.getByTestId('practice-sessions').filter({ hasText: '1' }).waitFor();
    await page.getByTestId('practice-current-streak').filter({ hasText: '1 day' }).waitFor();
    await page.getByRole('region', { name: 'Recent sessions' }).getByTestId('practice-history-status').filter({ hasText: /^Complete · / }).waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });
});
