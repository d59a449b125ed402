/**
 * A verified, subscribed user in a browser context, made through the app's own HTTP API (sign-up,
 * the e-mailed verification link, sign-in, sandbox checkout): the journeys under test start
 * after that. The cookies land in the context, so its pages are signed in.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { waitForMail } from '#tests/setup/outbox.ts';
import type { RunningServer } from '#tests/setup/server-process.ts';

export type TestUser = { email: string; password: string; name: string };

async function ok(response: { ok(): boolean; status(): number; text(): Promise<string> }, step: string) {
  if (!response.ok()) throw new Error(`${step} failed (${response.status()}): ${await response.text()}`);
}

export async function signUpAndVerify(server: RunningServer, context: BrowserContext, user: TestUser): Promise<void> {
  const headers = { origin: server.url };
  await ok(await context.request.post(`${server.url}/api/auth/sign-up/email`, { data: user, headers }), 'sign-up');
  const mail = await waitForMail(server.dataDir, user.email, /Confirm your e-mail/);
  await ok(await context.request.get(mail.links.find((l) => l.includes('verify-email'))!), 'verify');
  await ok(await context.request.post(`${server.url}/api/auth/sign-in/email`, { data: { email: user.email, password: user.password }, headers }), 'sign-in');
}

export async function subscribe(server: RunningServer, context: BrowserContext): Promise<void> {
  const headers = { origin: server.url };
  const checkout = await context.request.post(`${server.url}/api/billing/checkout`, { data: { plan: 'monthly' }, headers });
  await ok(checkout, 'checkout');
  const { url } = (await checkout.json()) as { url: string };
  const sessionId = new URL(url, server.url).searchParams.get('session_id');
  await ok(await context.request.post(`${server.url}/api/billing/sandbox/sessions/${sessionId}/complete`, { headers }), 'sandbox payment');
}

export async function createSubscriber(server: RunningServer, context: BrowserContext, user: TestUser): Promise<void> {
  await signUpAndVerify(server, context, user);
  await subscribe(server, context);
}

/** Signs in on the /sign-in screen, as a person does, and waits for home. */
export async function signInOnScreen(page: Page, server: RunningServer, email: string, password: string): Promise<void> {
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
