/** Signing up, verifying and signing in through the real HTTP API, as a browser would. */
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { assignRole } from '#server/features/admin/roles.service.ts';
import type { TestApp } from '#tests/setup/test-app.ts';
import { cookieHeader, createCookieJar } from '#tests/setup/cookies.ts';
import { waitForMail } from '#tests/setup/outbox.ts';
import { buildSession, buildUser } from '#tests/factories.ts';

export function origin(t: TestApp) {
  return { origin: t.config.publicUrl };
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

/** A signed-in admin or editor for tests that reach the dashboard's routes (the role given directly, as a setup token would). */
export async function createSignedInStaff(t: TestApp, email: string, role: 'admin' | 'editor') {
  const person = await createSignedInUser(t, email);
  await assignRole({ db: t.database.db, userId: person.userId, role, assignedBy: null });
  return person;
}

/** One browser on app.inject: its cookie jar, its address, and the site's Origin on every request. */
export type Browser = {
  /** The Cookie header the browser sends now. */
  cookie(): string;
  /** app.inject with the browser's cookies, Origin and address; what the answer sets goes into the jar. */
  inject(options: InjectOptions): Promise<LightMyRequestResponse>;
};

export function browser(t: TestApp, remoteAddress = nextIp()): Browser {
  const jar = createCookieJar();
  return {
    cookie: jar.header,
    async inject(options) {
      const cookie = jar.header();
      const res = await t.app.inject({ remoteAddress, ...options, headers: { ...origin(t), ...(cookie ? { cookie } : {}), ...options.headers } });
      jar.remember(res.headers['set-cookie']);
      return res;
    },
  };
}

/** A browser signed in through the API (POST /api/auth/sign-in/email), as the sign-in form does; throws unless it answers 200. */
export async function signedInBrowser(t: TestApp, email: string, password: string): Promise<Browser> {
  const b = browser(t);
  const res = await b.inject({ method: 'POST', url: '/api/auth/sign-in/email', payload: { email, password } });
  if (res.statusCode !== 200) throw new Error(`sign-in failed: ${res.statusCode} ${res.body}`);
  return b;
}

/** Signs in on a running server (a process of its own) over HTTP; returns the session's Cookie header. */
export async function signInAt(base: string, email: string, password: string): Promise<string> {
  const res = await fetch(`${base}/api/auth/sign-in/email`, { method: 'POST', headers: { 'content-type': 'application/json', origin: base }, body: JSON.stringify({ email, password }) });
  if (!res.ok) throw new Error(`sign-in failed: ${res.status} ${await res.text()}`);
  return cookieHeader(res.headers.getSetCookie());
}
