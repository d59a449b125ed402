/** Signing up, verifying and signing in through the real HTTP API, as a browser would. */
import type { TestApp } from '#tests/setup/test-app.ts';
import { waitForMail } from '#tests/setup/outbox.ts';
import { buildSession, buildUser } from '#tests/factories.ts';

export function origin(t: TestApp) {
  return { origin: t.config.publicUrl };
}

export function cookieHeader(setCookie: string | string[] | undefined): string {
  const list = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
  return list.map((c) => c.split(';')[0]).join('; ');
}

let ipCounter = 0;
/** A distinct client address per call site, so per-IP limits in one test don't leak into the next. */
export function nextIp(): string {
  ipCounter += 1;
  return `198.51.100.${ipCounter % 250}`;
}

export async function signUp(t: TestApp, body: { name?: string; email?: string; password?: string }, remoteAddress = nextIp()) {
  return t.app.inject({ method: 'POST', url: '/api/auth/sign-up/email', headers: origin(t), payload: { callbackURL: '/sign-in?verified=1', ...body }, remoteAddress });
}

export async function signIn(t: TestApp, email: string, password: string, headers: Record<string, string> = {}, remoteAddress = nextIp()) {
  return t.app.inject({ method: 'POST', url: '/api/auth/sign-in/email', headers: { ...origin(t), ...headers }, payload: { email, password }, remoteAddress });
}

/** Follows the verification link from the outbox. */
export async function verifyFromOutbox(t: TestApp, email: string) {
  const mail = await waitForMail(t.dataDir, email, /Confirm your e-mail/);
  const link = mail.links.find((l) => l.includes('/api/auth/verify-email'));
  if (!link) throw new Error('no verification link');
  const url = new URL(link);
  return t.app.inject({ method: 'GET', url: url.pathname + url.search });
}

/**
 * A verified, signed-in user; returns the session cookie. Made directly (tests/factories.ts), not
 * through sign-up, the e-mail and sign-in: those have their own tests (auth.test.ts).
 */
export async function createSignedInUser(t: TestApp, email: string, password = 'calm-waters-1', name = 'Sam Jones') {
  const user = await buildUser(t, { email, password, name });
  const { cookie } = await buildSession(t, user.id);
  return { cookie, userId: user.id };
}
