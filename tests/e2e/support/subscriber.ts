/**
 * Signing up through the app's HTTP API with the e-mailed verification link, for journeys about a
 * person's first steps, and signing in on the screen. Every other journey makes its people with
 * tests/e2e/support/people.ts.
 */
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { CATALOGUE_MESSAGES } from '#shared/catalogue-messages.ts';
import { waitForMail } from '#tests/setup/outbox.ts';
import { ok, type Person } from '#tests/e2e/support/people.ts';
import type { SuiteServer } from '#tests/e2e/support/suite.ts';

export async function signUpAndVerify(server: SuiteServer, context: BrowserContext, user: Person): Promise<void> {
  const headers = { origin: server.url };
  await ok(await context.request.post(`${server.url}/api/auth/sign-up/email`, { data: user, headers }), 'sign-up');
  const mail = await waitForMail(server.dataDir, user.email, /Confirm your e-mail/);
  await ok(await context.request.get(mail.links.find((l) => l.includes('verify-email'))!), 'verify');
  await ok(await context.request.post(`${server.url}/api/auth/sign-in/email`, { data: { email: user.email, password: user.password }, headers }), 'sign-in');
}

/** Signs in on the /sign-in screen, as a person does, and waits for home. */
export async function signInOnScreen(page: Page, server: SuiteServer, email: string, password: string): Promise<void> {
  await page.goto(`${server.url}/sign-in`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.waitForURL(`${server.url}/`);
  // The address changes before home has replaced the sign-in screen (a lazy page, a transition):
  // wait for home itself and for its requests, so the test's next tap is not lost to that change.
  // A signed-in person's home opens on Today (the visitors' hero is not theirs).
  await page.getByRole('heading', { level: 1, name: 'Today' }).waitFor();
  await page.waitForLoadState('networkidle');
}

/**
 * The cards of a listing as a returning subscriber sees them. A listing keeps the order it was first
 * painted in until a navigation (issue 38): a prepared page is painted for visitors (free ones first),
 * unless the device remembers a subscriber (the snapshot the app writes once /api/me has answered;
 * shared/remembered-viewer.ts), when it paints in theirs. People made straight into the database have
 * no snapshot yet: this waits until the app knows who is here (no card locked, so the snapshot is
 * written), reloads as a returning subscriber would come back, and waits for the cards again.
 */
export async function subscriberCards(page: Page): Promise<Locator> {
  const cards = page.getByTestId('meditation-card');
  const known = async () => {
    await cards.first().waitFor();
    await expect.poll(() => cards.filter({ hasText: CATALOGUE_MESSAGES.subscribeToListen }).count()).toBe(0);
  };
  await known();
  await page.reload();
  await known();
  return cards;
}
