/**
 * The sandbox billing journey in Chromium: from the home page to a 7-day trial and the first
 * seconds of audio, with no step outside the app; then managing and cancelling.
 */
import { describe, expect, it } from 'vitest';
import { openPage } from '#tests/e2e/support/browser.ts';
import { useSharedSuite, toast } from '#tests/e2e/support/suite.ts';
import { uniqueEmail } from '#tests/e2e/support/people.ts';
import { waitForMail } from '#tests/setup/outbox.ts';

const { server, browser } = await useSharedSuite();
/** Rosa signs up in the first journey and manages her plan in the second. */
const rosa = uniqueEmail('Rosa Lind');

describe('sandbox subscription journey', () => {
  it('goes from the home page to listening in a free trial, entirely inside the app', async () => {
    const { page, context, problems } = await openPage(browser);
    await page.goto(server.url);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Get Started' }).first().click();
    await page.getByRole('heading', { name: 'Unlock Your Full Potential' }).waitFor();
    expect(await page.getByRole('heading', { name: "What's included" }).locator('xpath=..').getByRole('listitem').count()).toBe(10);

    // The plan toggle shows both prices and the yearly saving.
    await page.getByRole('radio', { name: 'Monthly' }).click();
    expect(await page.getByTestId('price').textContent()).toBe('£7.99 / month');
    await page.getByRole('radio', { name: 'Yearly' }).click();
    expect(await page.getByTestId('price').textContent()).toBe('£39.99 / year');
    await page.getByText('Save £55.89 a year compared with monthly').waitFor();
    await page.getByText('Which plans are there?').click();

    // Signed out: the trial button opens the sign-in dialog first. Create an account there.
    await page.getByRole('button', { name: 'Start 7-day free trial' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('tab', { name: 'Sign Up' }).click();
    await dialog.getByLabel('Full Name').fill('Rosa Lind');
    await dialog.getByLabel('Email').fill(rosa);
    await dialog.getByLabel('Password', { exact: true }).fill('still-water-3');
    await dialog.getByRole('button', { name: 'Create account' }).click();
    await dialog.getByRole('heading', { name: 'Check your inbox' }).waitFor();

    // The e-mail link signs in and goes on to the trial's checkout (the intent survived).
    const mail = await waitForMail(server.dataDir, rosa, /Confirm your e-mail/);
    await page.goto(mail.links.find((l) => l.includes('verify-email'))!);
    await page.waitForURL(/\/subscribe\/sandbox-checkout\?session_id=cs_sandbox_/);
    await toast(page, 'Email verified');

    // Locked before subscribing; the navigation offers the plans again.
    await page.goto(`${server.url}/meditations/mindfulness`);
    await page.getByText('Subscribe to listen').first().waitFor();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Subscribe' }).click();
    await page.getByRole('button', { name: 'Start 7-day free trial' }).click();
    await page.waitForURL(/\/subscribe\/sandbox-checkout\?session_id=cs_sandbox_/);
    await page.getByText('This is a sandbox').waitFor();
    await page.getByText('Premium Yearly').waitFor();
    await page.getByText('£0.00 (7-day free trial)').waitFor();
    await page.getByRole('button', { name: 'Complete sandbox payment' }).click();

    await page.waitForURL(/\/account\?session_id=cs_sandbox_/);
    await page.getByText('Subscription verified successfully!').waitFor();
    await toast(page, 'Welcome to Premium!');
    await page.waitForURL(`${server.url}/welcome`);

    // Now the cards are open: play the short one and hear its first seconds.
    await page.goto(`${server.url}/meditations/mindfulness`);
    const card = page.getByTestId('meditation-card').filter({ hasText: 'A Single Breath' });
    await card.waitFor();
    expect(await card.textContent()).not.toContain('Subscribe to listen');
    await card.click();
    // The player opens expanded (spec 'Player start'); Escape minimises it to the bar.
    await page.getByRole('dialog', { name: 'A Single Breath' }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await page.getByTestId('player-title').filter({ hasText: 'A Single Breath' }).waitFor();
    await page.waitForFunction(() => {
      const audio = document.querySelector<HTMLAudioElement>('[data-testid="player-audio"]');
      return Boolean(audio && !audio.paused && audio.currentTime > 1.5);
    }, undefined, { timeout: 20_000 });
    const src = await page.getByTestId('player-audio').getAttribute('src');
    expect(src).toMatch(/^\/media\/meditations\/.+\?exp=\d+&sig=/);

    // Playback continues across a route change; pause works.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Journal' }).click();
    const nowPlaying = page.getByRole('region', { name: 'Now playing' });
    await nowPlaying.getByRole('button', { name: 'Pause', exact: true }).click();
    await nowPlaying.getByRole('button', { name: 'Play', exact: true }).waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });

  it('shows the plan in Account › Settings and cancels at period end, then resumes', async () => {
    const { page, context } = await openPage(browser);
    await page.goto(`${server.url}/sign-in`);
    await page.getByLabel('Email').fill(rosa);
    await page.getByLabel('Password', { exact: true }).fill('still-water-3');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL(`${server.url}/`);
    await page.goto(`${server.url}/account`);
    await page.getByRole('tab', { name: 'Settings' }).click();
    const details = page.getByTestId('subscription-details');
    await details.getByText('Premium Yearly').waitFor();
    await details.getByText('Free trial').waitFor();
    await details.getByText(/Trial ends \d+ \w+ \d{4}\. We'll e-mail you 2 days before\./).waitFor();

    await page.getByRole('button', { name: 'Cancel', exact: true }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Yes, cancel' }).click();
    await toast(page, 'Subscription cancelled');
    await details.getByText('Cancelling').waitFor();
    await details.getByText(/Access until/).waitFor();

    await page.getByRole('button', { name: 'Manage' }).click();
    await page.waitForURL(`${server.url}/subscribe/sandbox-portal`);
    await page.getByRole('button', { name: 'Resume subscription' }).click();
    await toast(page, 'Subscription resumed');
    await page.getByTestId('subscription-details').getByText('Free trial').waitFor();
    await context.close();
  });

  it('returns to /subscribe when the sandbox checkout is cancelled, and no audio reaches non-subscribers', async () => {
    const { page, context } = await openPage(browser);
    const sol = uniqueEmail('Sol Park');
    await page.goto(`${server.url}/sign-up`);
    await page.getByLabel('Full Name').fill('Sol Park');
    await page.getByLabel('Email').fill(sol);
    await page.getByLabel('Password', { exact: true }).fill('open-sky-4');
    await page.getByRole('button', { name: 'Create account' }).click();
    const mail = await waitForMail(server.dataDir, sol, /Confirm your e-mail/);
    // The link signs in; with no trial chosen it goes home.
    await page.goto(mail.links.find((l) => l.includes('verify-email'))!);
    await page.waitForURL(`${server.url}/`);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Account' }).waitFor();

    const list = await page.evaluate(async () => (await fetch('/api/meditations')).json());
    const paid = (list.meditations as { id: string; free: boolean }[]).find((m) => !m.free)!;
    const playback = await page.evaluate(async (id: string) => (await fetch(`/api/meditations/${id}/playback`)).status, paid.id);
    expect(playback).toBe(403);

    await page.goto(`${server.url}/subscribe`);
    await page.getByRole('radio', { name: 'Monthly' }).click();
    await page.getByRole('button', { name: 'Start 7-day free trial' }).click();
    await page.getByText('Premium Monthly').waitFor();
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.waitForURL(`${server.url}/subscribe`);
    await context.close();
  });
});
