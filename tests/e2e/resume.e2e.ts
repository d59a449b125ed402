/**
 * Resume where you left off, in Chromium against the real server (issue 20, item 2): the position
 * is kept on the device and on the server, offered as "Continue from m:ss" on the card and in the
 * player, and across two devices (two browser contexts, one account) the newest position wins.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { openPage } from '#tests/e2e/support/browser.ts';
import { audio, setSlider, waitForPlaying } from '#tests/e2e/support/player.ts';
import { useSharedSuite } from '#tests/e2e/support/suite.ts';
import { signInOnScreen } from '#tests/e2e/support/subscriber.ts';
import { signedInSubscriber } from '#tests/e2e/support/people.ts';

const { server, browser } = await useSharedSuite();

const m_ss = (seconds: number) => `${Math.floor(seconds / 60)}:${String(Math.floor(seconds) % 60).padStart(2, '0')}`;

/** The server's position for a meditation, as the other device will read it. */
async function serverPosition(context: BrowserContext, meditationId: string): Promise<number | null> {
  const { positions } = (await (await context.request.get(`${server.url}/api/practice/positions`)).json()) as { positions: { meditationId: string; positionSeconds: number }[] };
  return positions.find((p) => p.meditationId === meditationId)?.positionSeconds ?? null;
}

/** Seeks the playing track to `percent` and pauses there; returns the position. */
async function leaveAt(page: Page, title: string, percent: number): Promise<number> {
  await setSlider(page, percent);
  const sheet = page.getByRole('dialog', { name: title });
  await sheet.getByRole('button', { name: 'Pause', exact: true }).click();
  await sheet.getByRole('button', { name: 'Play', exact: true }).waitFor();
  return (await audio(page)).currentTime;
}

describe('resume where you left off', () => {
  it('offers "Continue from" on the card and in the player, and the newest position wins across two devices', async () => {
    const phone = await openPage(browser);
    const iris = await signedInSubscriber(server, phone.context, { name: 'Iris Lane', password: 'quiet-harbour-6' });
    const catalogue = (await (await phone.context.request.get(`${server.url}/api/meditations?category=mindfulness`)).json()) as { meditations: { id: string; title: string; durationSeconds: number }[] };
    // A track long enough to have a middle to come back to (past the first and before the last 10 s).
    const track = catalogue.meditations.find((m) => m.durationSeconds >= 40)!;
    expect(track).toBeDefined();

    // On the phone: play, move to the middle, pause.
    await phone.page.goto(`${server.url}/meditations/mindfulness`);
    const phoneCard = phone.page.getByTestId('meditation-card').filter({ hasText: track.title });
    await phoneCard.getByRole('button', { name: track.title, exact: true }).click();
    await waitForPlaying(phone.page, 0.3);
    const left = await leaveAt(phone.page, track.title, 50);
    // Saved on the server within the debounce (10 s).
    await expect.poll(() => serverPosition(phone.context, track.id), { timeout: 20_000 }).toBe(Math.round(left));

    // The laptop (another browser, same account) offers it on the card and plays from there.
    const laptop = await openPage(browser);
    await signInOnScreen(laptop.page, server, iris.email, 'quiet-harbour-6');
    await laptop.page.goto(`${server.url}/meditations/mindfulness`);
    const laptopCard = laptop.page.getByTestId('meditation-card').filter({ hasText: track.title });
    const resume = laptopCard.getByRole('button', { name: `Continue ${track.title} from ${m_ss(Math.round(left))}` });
    await resume.waitFor();
    expect(await resume.textContent()).toBe(`Continue from ${m_ss(Math.round(left))}`);
    await resume.click();
    await waitForPlaying(laptop.page, Math.round(left) - 1);

    // The laptop moves on further and stops: that is now the newest position.
    const later = await leaveAt(laptop.page, track.title, 75);
    expect(later).toBeGreaterThan(left + 5);
    await expect.poll(() => serverPosition(laptop.context, track.id), { timeout: 20_000 }).toBe(Math.round(later));

    // Back on the phone (its own older position on the device): the newer one from the laptop wins.
    await phone.page.reload();
    await phoneCard.getByRole('button', { name: `Continue ${track.title} from ${m_ss(Math.round(later))}` }).waitFor();

    // Starting the track from its beginning instead: the player offers where it was left off.
    await phone.page.getByRole('dialog', { name: track.title }).waitFor({ state: 'detached' });
    await phoneCard.getByRole('button', { name: track.title, exact: true }).click();
    const sheet = phone.page.getByRole('dialog', { name: track.title });
    await waitForPlaying(phone.page, 0.1);
    const offer = sheet.getByRole('button', { name: `Continue from ${m_ss(Math.round(later))}` });
    await offer.click();
    await waitForPlaying(phone.page, Math.round(later) - 1);
    await offer.waitFor({ state: 'detached' });

    expect(phone.problems).toEqual([]);
    expect(laptop.problems).toEqual([]);
    await Promise.all([phone.context.close(), laptop.context.close()]);
  });
});
