/**
 * Programmes in Chromium against the real server (issue 37, item 2; decision 0051): a subscriber opens
 * /programmes, opens "Seven Days of Calm" by its link (which names its 7 days), sees its days, presses
 * "Start programme" and hears day 1; once day 1 is heard to the end, home shows "Seven Days of Calm ·
 * Day 2 of 7" waiting for tomorrow, "Don't wait" opens it, and one tap plays day 2. Leaving takes one tap
 * and a confirmation. An admin makes, publishes and deletes one in the dashboard. A visitor sees the days
 * and is asked to sign in to start.
 */
import { describe, expect, it } from 'vitest';
import { axeFindings } from '#tests/e2e/support/axe.ts';
import { openPage } from '#tests/e2e/support/browser.ts';
import { signedInMember, signedInSubscriber } from '#tests/e2e/support/people.ts';
import { audio, playFaster, practice, waitForPlaying } from '#tests/e2e/support/player.ts';
import { useSharedSuite } from '#tests/e2e/support/suite.ts';

const { server, browser } = await useSharedSuite();

describe('programmes', () => {
  it('a subscriber starts Seven Days of Calm, hears day 1, and continues from home', async () => {
    const { page, context, problems } = await openPage(browser);
    await signedInSubscriber(server, context, { name: 'Tamsin Ollerby', password: 'calm-harbour-7' });

    await page.goto(server.url);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Programmes' }).click();
    await page.getByRole('heading', { name: 'Programmes', level: 1 }).waitFor();
    expect(await axeFindings(page, '/programmes')).toEqual([]);
    await page.getByRole('link', { name: /Seven Days of Calm.*7 days/ }).click();
    await page.getByRole('heading', { name: 'Seven Days of Calm', level: 1 }).waitFor();
    await page.getByRole('heading', { name: 'Day 1', exact: true }).waitFor();
    await page.getByRole('heading', { name: 'Day 2', exact: true }).waitFor();
    expect(await page.getByRole('heading', { name: /^Day \d+$/ }).count()).toBe(7);
    expect(await axeFindings(page, '/programmes/seven-days-of-calm')).toEqual([]);

    await page.getByRole('button', { name: 'Start programme' }).click();
    await waitForPlaying(page, 0.2);
    expect((await audio(page)).paused).toBe(false);
    await page.getByTestId('programme-day-line').getByText('Day 1 of 7', { exact: true }).waitFor();
    // The day's reflection prompt opens the journal with it (the player, minimised, plays on across pages).
    await page.getByRole('dialog', { name: 'Just This Breath' }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog', { name: 'Just This Breath' }).waitFor({ state: 'detached' });
    const prompt = 'What did you notice about your breath today, without trying to change it?';
    await page.getByText(prompt).waitFor();
    await page.getByRole('link', { name: 'Reflect in your journal: day 1' }).click();
    await page.getByRole('heading', { name: 'Journal', level: 1 }).waitFor();
    expect(await page.getByLabel(/Mindful moments/).inputValue()).toContain(prompt);

    // Heard to the end (faster than life, as the listening journeys do): day 1 is done.
    await playFaster(page, 16);
    await expect.poll(async () => (await practice(server, context)).recent.filter((s) => s.complete).length, { timeout: 30_000 }).toBe(1);

    await page.goto(server.url);
    const card = page.getByTestId('programme-home');
    await card.getByText('Seven Days of Calm', { exact: true }).waitFor();
    await card.getByText('Day 2 of 7', { exact: true }).waitFor();
    await card.getByText('Opens tomorrow').waitFor();
    expect(await axeFindings(page, '/ (programme in progress)')).toEqual([]);
    await card.getByRole('button', { name: /Don’t wait/ }).click();
    await card.getByRole('button', { name: /^Continue: Seven Days of Calm, Day 2 of 7$/ }).click();
    await waitForPlaying(page, 0.2);
    expect(problems).toEqual([]);

    // Leaving is one tap and a confirmation; afterwards home offers the programmes again.
    await page.goto(`${server.url}/programmes/seven-days-of-calm`);
    await page.getByRole('button', { name: 'Leave programme' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Leave this programme?' });
    await confirm.getByRole('button', { name: 'Leave programme' }).click();
    await page.getByRole('button', { name: 'Start programme' }).waitFor();
    const mine = (await (await context.request.get(`${server.url}/api/me/programmes`)).json()) as { enrolments: unknown[] };
    expect(mine.enrolments).toEqual([]);
    await context.close();
  });

  it('an admin creates a programme in the dashboard, publishes it, and it is offered; deleting takes it away', async () => {
    const { page, context, problems } = await openPage(browser);
    await signedInMember(server, context, { name: 'Odile Marchetti', password: 'admin-harbour-9', role: 'admin' });
    await page.goto(`${server.url}/admin`);
    await page.getByRole('tab', { name: 'Programmes' }).click();
    await page.getByRole('button', { name: 'New programme' }).click();
    await page.getByLabel('Title').fill('Gentle Mornings');
    await page.getByLabel('Address', { exact: false }).fill('gentle-mornings');
    await page.getByLabel('Short description').fill('Two mornings to begin the day kindly.');
    await page.getByLabel('Day 1', { exact: true }).selectOption({ label: 'Five-Minute Sunrise' });
    await page.getByLabel('Day 2', { exact: true }).selectOption({ label: 'A Kind Start' });
    // Day 1 must be free to try: the server says so, and nothing is saved.
    await page.getByRole('button', { name: 'Create programme' }).click();
    await page.getByRole('alert').getByText('Day 1 must be a meditation marked “Free to try”', { exact: false }).waitFor();
    await page.getByLabel('Day 1', { exact: true }).selectOption({ label: 'Waking Gently (free to try)' });
    await page.getByRole('button', { name: 'Create programme' }).click();
    const list = page.getByRole('list', { name: 'Programmes, in the order people see them' });
    await list.getByRole('button', { name: 'Publish Gentle Mornings' }).click();
    await list.getByRole('button', { name: 'Unpublish Gentle Mornings' }).waitFor();

    await page.goto(`${server.url}/programmes`);
    await page.getByRole('link', { name: /Gentle Mornings.*2 days/ }).click();
    await page.getByRole('heading', { name: 'Gentle Mornings', level: 1 }).waitFor();
    await page.getByRole('heading', { name: 'Day 2', exact: true }).waitFor();

    await page.goto(`${server.url}/admin`);
    await page.getByRole('tab', { name: 'Programmes' }).click();
    await page.getByRole('button', { name: 'Delete Gentle Mornings' }).click();
    await page.getByRole('alertdialog', { name: 'Delete Gentle Mornings?' }).getByRole('button', { name: 'Delete programme' }).click();
    await page.getByRole('button', { name: 'Delete Gentle Mornings' }).waitFor({ state: 'detached' });
    expect((await context.request.get(`${server.url}/api/programmes/gentle-mornings`)).status()).toBe(404);
    // The one refusal asked for above is the browser's only complaint.
    expect(problems.filter((p) => !p.includes('status of 400'))).toEqual([]);
    await context.close();
  });

  it('a visitor sees a programme’s days and is asked to sign in to start it', async () => {
    const { page, context, problems } = await openPage(browser);
    await page.goto(`${server.url}/programmes`);
    await page.getByRole('link', { name: /Sleep Reset.*5 days/ }).click();
    await page.getByRole('heading', { name: 'Sleep Reset', level: 1 }).waitFor();
    await page.getByRole('heading', { name: 'Day 5', exact: true }).waitFor();
    await page.getByRole('link', { name: 'Sign in to start' }).waitFor();
    // Day 1 is free to try; the rest follow the subscription.
    expect(await page.getByText('Free to try').count()).toBe(1);
    expect(await page.getByText('Subscribers only').count()).toBe(4);
    expect(problems).toEqual([]);
    await context.close();
  });
});
