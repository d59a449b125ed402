/**
 * Signing up through the app's HTTP API with the e-mailed verification link, for journeys about a
 * person's first steps, and signing in on the screen. Every other journey makes its people with
 * tests/e2e/support/people.ts.
 */
import type { BrowserContext, Page } from 'playwright-core';
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
  await page.getByRole('heading', { level: 1 }).filter({ hasText: 'A calm harbour for a busy mind.' }).waitFor();
  await page.waitForLoadState('networkidle');
}
