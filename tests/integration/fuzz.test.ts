/**
 * Every JSON route fuzzed over real HTTP (issue 12, item 9): fast-check bodies with unicode, NUL
 * and other control characters, huge numbers, nesting, wrong types, arrays, null, very long
 * strings and broken JSON. Each answer must be a 4xx with `{ error: { message } }`, never a 5xx,
 * and no row may change in the tables the route writes. Bodies that could be valid are never
 * sent (each route says which could be), so a changed row is always a bug.
 *
 * 1 200 bodies on PGlite in `npm test` (every route gets its share each run, at least five, with a
 * new seed), split across the routes by weight; a smaller share on PostgreSQL when it answers. That
 * is a regression check that keeps `npm test` within its ten minutes (issue 32); the search for new
 * findings is `npm run security:scan`, which sends 20 000. FUZZ_RUNS=n changes the PGlite total (the PostgreSQL share
 * scales with it).
 */
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ROLE_OPTIONS } from '#shared/roles.ts';
import { checkUploadFields } from '#shared/uploads.ts';
import { validateWaitlist } from '#shared/waitlist.ts';
import { checkoutBody } from '#shared/contracts/billing.ts';
import { keyringBody, recordBody, resetBody, rotationBody } from '#shared/contracts/journal.ts';
import { createShareBody } from '#shared/contracts/journal-share.ts';
import { practicePreferencesBody, recordSessionBody, savePositionBody } from '#shared/contracts/practice.ts';
import { orderBody } from '#shared/contracts/programmes.ts';
import { reminderSettingsBody } from '#shared/contracts/reminders.ts';
import { findControlCharacters, validateContent, validateEmail, validateName } from '#shared/validation.ts';
import { assignRole } from '#server/features/admin/roles.service.ts';
import { createAppleTestChain, type AppleTestChain } from '#tests/fakes/apple-signing.ts';
import { buildMeditation } from '#tests/factories.ts';
import { createSignedInUser } from '#tests/setup/auth-helpers.ts';
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts';
import { testDatabaseKinds } from '#tests/setup/test-db.ts';
import {
  BROKEN_SEGMENTS,
  businessTables,
  fingerprint,
  hostileBodies,
  hostileSegment,
  parsedBody,
  queryRows,
  send,
  UNPARSEABLE,
  type FuzzBody,
  type HttpAnswer,
} from '#tests/integration/fuzz-support.ts';

const TOTAL_RUNS = Number(process.env.FUZZ_RUNS ?? 1_200);
const POSTGRES_SHARE = 0.15;
/** Tables that refused requests write by design: the security log and the limiters' counters. */
const LOG_TABLES = ['security_audit_log', 'rate_limits', 'auth_rate_limit', 'admin_audit_log'];

const PASSWORD = `fuzz-${randomUUID()}`; // never produced by a generator
const USER_EMAIL = 'fuzz-user@example.com';
const ADMIN_EMAIL = 'fuzz-admin@example.com';

type Who = 'anonymous' | 'user' | 'admin';
type Context = { meditationId: string; adminRoleId: string; emails: string[] };
type Route = {
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The path, or how to make one from a fuzzed segment (path parameters are fuzzed too). */
  path: string | ((segment: string, ctx: Context) => string);
  who: Who;
  /** A valid body: the mutations start from it. */
  template: Record<string, unknown>;
  /** The tables the route writes, fingerprinted around every request. */
  tables: string[];
  /** True when the server might accept the body: such bodies are not sent. */
  mayBeValid?: (body: unknown, ctx: Context) => boolean;
  /** True when the fuzzed path segment might name something real: not sent either. */
  segmentMayBeReal?: (segment: string, ctx: Context) => boolean;
  weight: number;
};

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
const noControls = (body: unknown) => findControlCharacters(body, { skip: ['password', 'newPassword', 'currentPassword'] }) === undefined;
const decoded = (segment: string) => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
};
/** The body the server's zod sees (`request.body ?? {}`). */
const orEmpty = (v: unknown) => v ?? {};

/** The routes' own schemas that are not exported (kept in step with waitlist.routes.ts, admin.routes.ts, admin-meditations.routes.ts). */
const waitlistSchema = z.object({ name: z.string().max(1000).default(''), email: z.string().max(1000).default(''), reason: z.string().max(5000).nullish(), website: z.string().max(1000).nullish() });
const roleSchema = z.object({ email: z.string().trim().max(254).default(''), role: z.string().trim().default('') });
const editSchema = z.object({ title: z.string().max(10_000).optional(), description: z.string().max(10_000).optional(), transcript: z.string().max(100_000).nullish(), free: z.boolean().optional() });

const ROUTES: Record<string, Route> = {
  // ---- public
  waitlist: {
    method: 'POST', path: '/api/waitlist', who: 'anonymous', weight: 8, tables: ['waitlist_entries'],
    template: { name: 'Sam Jones', email: 'sam.jones@example.com', reason: 'Sleep better.', website: '' },
    mayBeValid: (b) => {
      const parsed = waitlistSchema.safeParse(orEmpty(b));
      return parsed.success && !parsed.data.website?.trim() && validateWaitlist(parsed.data).valid;
    },
  },
  signIn: {
    method: 'POST', path: '/api/auth/sign-in/email', who: 'anonymous', weight: 8, tables: ['user', 'session', 'account'],
    template: { email: USER_EMAIL, password: 'not-the-password', rememberMe: true, callbackURL: '/' },
    mayBeValid: (b) => isObject(b) && b.password === PASSWORD,
  },
  signUp: {
    method: 'POST', path: '/api/auth/sign-up/email', who: 'anonymous', weight: 8, tables: ['user', 'account', 'verification'],
    template: { name: 'New Person', email: 'new.person@example.com', password: 'calm-waters-1', callbackURL: '/sign-in?verified=1' },
    // Valid fields, no control character anywhere and an address not yet taken would create an account.
    mayBeValid: (b, ctx) => {
      if (!isObject(b)) return false;
      const email = str(b.email), name = str(b.name), password = str(b.password);
      if (email === undefined || name === undefined || password === undefined) return false;
      if (!validateEmail(email).valid || !validateName(name).valid || password.length < 6) return false;
      return noControls(b) && !ctx.emails.includes(email.trim().toLowerCase());
    },
  },
  requestPasswordReset: {
    method: 'POST', path: '/api/auth/request-password-reset', who: 'anonymous', weight: 4, tables: ['verification', 'user'],
    template: { email: USER_EMAIL, redirectTo: '/reset-password' },
    mayBeValid: (b) => isObject(b) && typeof b.email === 'string' && validateEmail(b.email).valid && noControls(b),
  },
  sendVerificationEmail: {
    method: 'POST', path: '/api/auth/send-verification-email', who: 'anonymous', weight: 3, tables: ['verification', 'user'],
    template: { email: USER_EMAIL, callbackURL: '/' },
    mayBeValid: (b) => isObject(b) && typeof b.email === 'string' && validateEmail(b.email).valid && noControls(b),
  },
  resetPassword: {
    method: 'POST', path: '/api/auth/reset-password', who: 'anonymous', weight: 4, tables: ['account', 'session', 'verification'],
    template: { token: 'a'.repeat(24), newPassword: 'calm-waters-2' }, // no generated token is ever real
  },
  iapNotifications: {
    method: 'POST', path: '/api/iap/notifications', who: 'anonymous', weight: 2, tables: ['subscribers'],
    template: { signedPayload: 'eyJhbGciOiJFUzI1NiJ9.e30.c2ln' }, // never signed by the test chain
  },
  stripeWebhook: {
    method: 'POST', path: '/api/billing/stripe/webhook', who: 'anonymous', weight: 1, tables: ['subscribers'],
    template: { id: 'evt_1', type: 'customer.subscription.updated', data: { object: { customer: 'cus_1' } } },
  },

  // ---- better-auth's signed-in routes
  updateUser: {
    method: 'POST', path: '/api/auth/update-user', who: 'user', weight: 8, tables: ['user'],
    template: { name: 'Sam Jones', image: null },
    // A valid name (or none) and no control character could be a real update; anything else must be refused.
    mayBeValid: (b) => isObject(b) && (b.name === undefined || (typeof b.name === 'string' && validateName(b.name).valid)) && noControls(b),
  },
  changePassword: {
    method: 'POST', path: '/api/auth/change-password', who: 'user', weight: 4, tables: ['account', 'session'],
    template: { currentPassword: 'not-the-password', newPassword: 'calm-waters-9', revokeOtherSessions: true },
    mayBeValid: (b) => isObject(b) && b.currentPassword === PASSWORD,
  },
  changeEmail: {
    method: 'POST', path: '/api/auth/change-email', who: 'user', weight: 2, tables: ['user', 'verification'],
    template: { newEmail: 'other@example.com', callbackURL: '/' },
    mayBeValid: (b) => isObject(b) && typeof b.newEmail === 'string' && validateEmail(b.newEmail).valid && noControls(b),
  },
  unlinkAccount: {
    method: 'POST', path: '/api/auth/unlink-account', who: 'user', weight: 2, tables: ['account'],
    template: { providerId: 'google', accountId: '1' },
  },
  signInSocial: {
    method: 'POST', path: '/api/auth/sign-in/social', who: 'anonymous', weight: 2, tables: ['account', 'verification', 'user'],
    template: { provider: 'google', callbackURL: '/' },
  },
  // Sign in with Apple on Android's last step: no flow is waiting, so every body is refused (decision 0071).
  appleRedeem: {
    method: 'POST', path: '/api/native/apple/redeem', who: 'anonymous', weight: 2, tables: ['native_sign_in_flows', 'session'],
    template: { code: 'a'.repeat(43), verifier: 'b'.repeat(43) },
  },

  // ---- billing
  checkout: {
    method: 'POST', path: '/api/billing/checkout', who: 'user', weight: 5, tables: ['sandbox_checkout_sessions', 'subscribers'],
    template: { plan: 'monthly', email: USER_EMAIL },
    mayBeValid: (b) => checkoutBody.safeParse(orEmpty(b)).success,
  },
  cancel: {
    method: 'POST', path: '/api/billing/cancel', who: 'user', weight: 3, tables: ['subscribers'],
    template: { cancel: true },
    // The user has no subscription, so even a valid body changes nothing (404); sent all the same.
  },
  portal: { method: 'POST', path: '/api/billing/portal', who: 'user', weight: 2, tables: ['subscribers'], template: {} },
  sandboxComplete: {
    method: 'POST', path: (s) => `/api/billing/sandbox/sessions/${s}/complete`, who: 'user', weight: 3, tables: ['sandbox_checkout_sessions', 'subscribers'],
    template: {},
  },
  validateReceipt: {
    method: 'POST', path: '/api/iap/validate-receipt', who: 'user', weight: 4, tables: ['subscribers'],
    template: { signedTransaction: 'eyJhbGciOiJFUzI1NiJ9.e30.c2ln', productId: 'hm_plus_monthly' },
  },

  // ---- reminders (issue 38, item 6): the settings with their channel, and an e-mail reminder's turn-off (no session: the signed token says whose)
  reminders: {
    method: 'PUT', path: '/api/reminders', who: 'user', weight: 3, tables: ['reminder_settings'],
    template: { enabled: true, time: '07:30', days: [0, 1, 2, 3, 4, 5, 6], timeZone: 'Europe/London', channel: 'email' },
    mayBeValid: (b) => reminderSettingsBody.safeParse(orEmpty(b)).success,
  },
  reminderMailOff: {
    method: 'POST', path: '/api/reminders/email/off', who: 'anonymous', weight: 2, tables: ['reminder_settings'],
    // Never valid: only the server's key makes a token that reads as one.
    template: { token: 'someone.1.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' },
  },

  // ---- practice and favourites
  recordSession: {
    method: 'POST', path: '/api/sessions', who: 'user', weight: 5, tables: ['meditation_sessions'],
    template: { id: randomUUID(), meditationId: randomUUID(), completedAt: new Date().toISOString(), listened: { ranges: [{ start: 0, end: 30 }], seconds: 30 } },
    mayBeValid: (b) => recordSessionBody.safeParse(orEmpty(b)).success,
  },
  preferences: {
    method: 'PUT', path: '/api/practice/preferences', who: 'user', weight: 3, tables: ['practice_preferences'],
    template: { showStreaks: false },
    mayBeValid: (b) => practicePreferencesBody.safeParse(orEmpty(b)).success,
  },
  position: {
    method: 'PUT', path: (s) => `/api/practice/positions/${s}`, who: 'user', weight: 3, tables: ['playback_positions'],
    template: { positionSeconds: 60, updatedAt: new Date().toISOString() },
    segmentMayBeReal: (s) => z.uuid().safeParse(decoded(s)).success,
    mayBeValid: (b) => savePositionBody.safeParse(orEmpty(b)).success,
  },
  journalRecord: {
    method: 'PUT', path: (s) => `/api/journal/records/${s}`, who: 'user', weight: 3, tables: ['journal_records'],
    template: { iv: 'AAAAAAAAAAAAAAAA', data: 'A'.repeat(344), baseSeq: null },
    segmentMayBeReal: (s) => z.uuid().safeParse(decoded(s)).success,
    mayBeValid: (b) => recordBody.safeParse(orEmpty(b)).success,
  },
  journalKeyring: {
    method: 'POST', path: '/api/journal/keyring', who: 'user', weight: 2, tables: ['journal_keyrings'],
    template: { keyring: { version: 1 } },
    mayBeValid: (b) => keyringBody.safeParse(orEmpty(b)).success,
  },
  journalKeyringRotation: {
    // A rotation (decision 0061): only the next generation of an existing keyring replaces it.
    method: 'POST', path: '/api/journal/keyring/rotation', who: 'user', weight: 1, tables: ['journal_keyrings'],
    template: { keyring: { version: 1, generation: 2 } },
    mayBeValid: (b) => rotationBody.safeParse(orEmpty(b)).success,
  },
  journalReset: {
    // Only the exact word deletes: every other body leaves the keyring and the records as they were.
    method: 'POST', path: '/api/journal/reset', who: 'user', weight: 1, tables: ['journal_keyrings', 'journal_records'],
    template: { confirm: 'DELETE' },
    mayBeValid: (b) => resetBody.safeParse(orEmpty(b)).success,
  },
  journalShare: {
    method: 'POST', path: '/api/journal/shares', who: 'user', weight: 2, tables: ['journal_shares'],
    template: { iv: 'AAAAAAAAAAAAAAAA', data: 'A'.repeat(344), expiresInDays: 7 },
    mayBeValid: (b) => createShareBody.safeParse(orEmpty(b)).success,
  },
  journalShareRevoke: {
    method: 'DELETE', path: (s) => `/api/journal/shares/${s}`, who: 'user', weight: 1, tables: ['journal_shares'], template: {},
    segmentMayBeReal: (s) => z.uuid().safeParse(decoded(s)).success,
  },
  accountDelete: {
    // A hostile body never carries the account's password, so nothing may ever be deleted.
    method: 'POST', path: '/api/account/delete', who: 'user', weight: 3, tables: ['user', 'session', 'account', 'favourites', 'meditation_sessions', 'practice_preferences', 'waitlist_entries'],
    template: { password: 'not-the-password-1', confirmation: 'DELETE' },
    mayBeValid: () => false,
  },
  favouritePut: {
    method: 'PUT', path: (s) => `/api/favourites/${s}`, who: 'user', weight: 3, tables: ['favourites'], template: {},
    segmentMayBeReal: (s, ctx) => decoded(s).toLowerCase() === ctx.meditationId,
  },
  favouriteDelete: {
    method: 'DELETE', path: (s) => `/api/favourites/${s}`, who: 'user', weight: 2, tables: ['favourites'], template: {},
    // A well-formed id answers 204 whether or not it was saved: only malformed ones are sent.
    segmentMayBeReal: (s) => z.uuid().safeParse(decoded(s)).success,
  },

  // ---- admin
  adminSetup: {
    method: 'POST', path: '/api/admin/setup', who: 'user', weight: 3, tables: ['admin_setup_tokens', 'user_roles'],
    template: { token: 'not-a-setup-token' }, // an admin exists, so no token can be redeemed
  },
  roleAssign: {
    method: 'POST', path: '/api/admin/roles', who: 'admin', weight: 5, tables: ['user_roles'],
    template: { email: USER_EMAIL, role: 'editor' },
    mayBeValid: (b, ctx) => {
      const parsed = roleSchema.safeParse(orEmpty(b));
      return parsed.success && (ROLE_OPTIONS as readonly string[]).includes(parsed.data.role) && ctx.emails.includes(parsed.data.email.toLowerCase());
    },
  },
  roleRevoke: {
    method: 'DELETE', path: (s) => `/api/admin/roles/${s}`, who: 'admin', weight: 2, tables: ['user_roles'], template: {},
    segmentMayBeReal: (s, ctx) => decoded(s).toLowerCase() === ctx.adminRoleId,
  },
  meditationEdit: {
    method: 'PATCH', path: (_s, ctx) => `/api/admin/meditations/${ctx.meditationId}`, who: 'admin', weight: 6, tables: ['meditation_previews', 'meditation_content'],
    template: { title: 'Evening calm', description: 'A gentle wind-down.', transcript: 'Breathe in.\nBreathe out.' },
    mayBeValid: (b) => {
      const parsed = editSchema.safeParse(orEmpty(b));
      if (!parsed.success) return false;
      const { title, description, transcript } = parsed.data;
      const fields = checkUploadFields({ title: title ?? 'Existing title', description: description ?? '', categories: ['mindfulness'], tags: [] }, true);
      return fields.valid && (!transcript?.trim() || validateContent(transcript, 20_000).valid);
    },
  },
  meditationEditId: {
    method: 'PATCH', path: (s) => `/api/admin/meditations/${s}`, who: 'admin', weight: 1, tables: ['meditation_previews', 'meditation_content'],
    template: { title: 'Evening calm' },
    segmentMayBeReal: (s, ctx) => decoded(s).toLowerCase() === ctx.meditationId,
  },
  meditationDelete: {
    method: 'DELETE', path: (s) => `/api/admin/meditations/${s}`, who: 'admin', weight: 2, tables: ['meditation_previews', 'meditation_content'], template: {},
    segmentMayBeReal: (s, ctx) => decoded(s).toLowerCase() === ctx.meditationId,
  },
  // ---- programmes (decision 0051): this database has no programme and no free meditation, so no slug or id is
  // real and no programme can be saved (day 1 must be free): every body is refused.
  programmeEnrol: {
    method: 'POST', path: (s) => `/api/programmes/${s}/enrolment`, who: 'user', weight: 2, tables: ['programme_enrolments'],
    template: { timeZone: 'Europe/London', restart: true },
  },
  programmeCreate: {
    method: 'POST', path: '/api/admin/programmes', who: 'admin', weight: 3, tables: ['programmes', 'programme_days'],
    template: { slug: 'calm-week', title: 'Calm week', description: 'A gentle week.', cover: 'mindfulness', days: [{ meditationId: '00000000-0000-4000-8000-000000000000', reflection: 'What did you notice?' }, { meditationId: '00000000-0000-4000-8000-000000000001' }] },
    mayBeValid: () => false,
  },
  programmePublish: {
    method: 'PUT', path: (s) => `/api/admin/programmes/${s}/published`, who: 'admin', weight: 1, tables: ['programmes'],
    template: { published: true },
  },
  programmeOrder: {
    // An empty list names every programme of an empty table: valid, so schema-valid bodies are not sent.
    method: 'PUT', path: '/api/admin/programmes-order', who: 'admin', weight: 1, tables: ['programmes'],
    template: { ids: [] },
    mayBeValid: (b) => orderBody.safeParse(orEmpty(b)).success,
  },
  meditationUploadJson: {
    method: 'POST', path: '/api/admin/meditations', who: 'admin', weight: 1, tables: ['meditation_previews', 'meditation_content'],
    template: { title: 'Evening calm', categories: ['mindfulness'] }, // JSON is never an upload (multipart only)
  },
};

/** GET routes with query or path parameters: a 2xx or 3xx (valid values, better-auth's redirects) or a 4xx refusal, never a 5xx. */
const QUERY_ROUTES: { path: (v: string) => string; who: Who; weight: number }[] = [
  { path: (v) => `/api/meditations?category=${v}`, who: 'anonymous', weight: 3 },
  { path: (v) => `/api/meditations/${v}`, who: 'anonymous', weight: 2 },
  // Words go into a LIKE pattern: a 5xx here would be an escaping bug.
  { path: (v) => `/api/search/meditations?q=${v}`, who: 'anonymous', weight: 3 },
  { path: (v) => `/api/meditations/${v}/playback`, who: 'anonymous', weight: 1 },
  { path: (v) => `/api/practice?tz=${v}`, who: 'user', weight: 3 },
  { path: (v) => `/api/reminders/calendar.ics?time=${v}&days=${v}&tz=${v}`, who: 'user', weight: 1 },
  { path: (v) => `/api/programmes/${v}`, who: 'anonymous', weight: 1 },
  { path: (v) => `/api/programmes/${v}/progress`, who: 'user', weight: 1 },
  { path: (v) => `/api/billing/sandbox/sessions/${v}`, who: 'user', weight: 1 },
  { path: (v) => `/api/admin/security/events?severity=${v}&eventType=${v}`, who: 'admin', weight: 1 },
  { path: (v) => `/api/admin/audit?severity=${v}`, who: 'admin', weight: 1 },
  // better-auth's token links: the token goes to a database lookup.
  { path: (v) => `/api/auth/reset-password/${v}?callbackURL=%2Freset-password`, who: 'anonymous', weight: 2 },
  { path: (v) => `/api/auth/verify-email?token=${v}&callbackURL=%2Fsign-in`, who: 'anonymous', weight: 2 },
];

const totalWeight = Object.values(ROUTES).reduce((n, r) => n + r.weight, 0) + QUERY_ROUTES.reduce((n, r) => n + r.weight, 0);
const runsFor = (weight: number, share: number) => Math.max(5, Math.round(((TOTAL_RUNS * weight) / totalWeight) * share));

/** A 4xx answer in the app's error shape with a message someone can read. */
function expectRefusal(answer: HttpAnswer, what: string): void {
  const detail = `${what} → ${answer.status} ${answer.contentType} ${answer.text.slice(0, 300)}`;
  expect(answer.status, detail).toBeGreaterThanOrEqual(400);
  expect(answer.status, detail).toBeLessThan(500);
  expect(answer.contentType, detail).toMatch(/^application\/json/);
  const parsed = JSON.parse(answer.text) as { error?: { message?: unknown } };
  expect(typeof parsed.error?.message, detail).toBe('string');
  expect((parsed.error!.message as string).trim().length, detail).toBeGreaterThan(0);
}

/** The body as a JSON string literal with every invisible character (C1, bidi, zero-width) escaped, so a report can be replayed. */
const visible = (text: string) => JSON.stringify(text).replace(/[\u007f-\u00a0\u00ad\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff0-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
const describeBody = (body: FuzzBody) => `${body.contentType ?? '(no content-type)'} ${visible(body.text.length > 200 ? `${body.text.slice(0, 200)}… (${body.text.length} chars)` : body.text)}`;

describe.each(testDatabaseKinds())('fuzzing every JSON route over HTTP on %s', (kind) => {
  const share = kind === 'pglite' ? 1 : POSTGRES_SHARE;
  let t: TestApp;
  let port: number;
  let ctx: Context;
  let tables: string[];
  const headersFor: Record<Who, Record<string, string>> = { anonymous: {}, user: {}, admin: {} };

  // Undone after the file even when beforeAll stopped half-way, in reverse order.
  const cleanups: (() => Promise<void> | void)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  beforeAll(async () => {
    const chain: AppleTestChain = createAppleTestChain();
    cleanups.push(() => chain.cleanup());
    // Thousands of requests from one address: without the allowance the global brake (600 a minute)
    // would answer most of them 429, a refusal that passes expectRefusal() and tests nothing.
    t = await createTestApp({ kind, env: { APPLE_IAP_BUNDLE_ID: 'app.harbourmind.ios', APPLE_IAP_ENVIRONMENT: 'Sandbox', APPLE_ROOT_CA_FILES: chain.rootPath, GLOBAL_RATE_LIMIT_PER_MINUTE: '0' } });
    cleanups.push(() => t.close());
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = (t.app.server.address() as AddressInfo).port;
    const origin = new URL(t.config.publicUrl).origin;
    const user = await createSignedInUser(t, USER_EMAIL, PASSWORD);
    const admin = await createSignedInUser(t, ADMIN_EMAIL, PASSWORD, 'Ada Admin');
    await assignRole({ db: t.database.db, userId: admin.userId, role: 'admin', assignedBy: null });
    headersFor.anonymous = { origin };
    headersFor.user = { origin, cookie: user.cookie };
    const csrf = await send(port, 'GET', '/api/admin/csrf', { origin, cookie: admin.cookie });
    expect(csrf.status, csrf.text).toBe(200);
    headersFor.admin = { origin, cookie: admin.cookie, 'x-csrf-token': (JSON.parse(csrf.text) as { token: string }).token };
    const meditation = await buildMeditation(t.database.db, { transcript: 'Breathe in.' });
    const [role] = await queryRows<{ id: string }>(t.database.db, sql`select id from user_roles where user_id = ${admin.userId}`);
    ctx = { meditationId: meditation.id, adminRoleId: role.id, emails: [USER_EMAIL, ADMIN_EMAIL] };
    tables = await businessTables(t.database.db, LOG_TABLES);
  });


  for (const [name, route] of Object.entries(ROUTES)) {
    const runs = runsFor(route.weight, share);
    it(`${name}: ${route.method} ${typeof route.path === 'string' ? route.path : route.path(':param', { meditationId: ':id', adminRoleId: '', emails: [] })} refuses ${runs} hostile bodies with a 4xx and changes nothing`, async () => {
      const before = await fingerprint(t.database.db, tables);
      const segments = typeof route.path === 'string' ? fc.constant('') : hostileSegment;
      // The route's tables as the last body left them: nothing else writes to them between two bodies
      // (the admin reset below touches rate_limits only), so one look after each body is enough.
      let own = await fingerprint(t.database.db, route.tables);
      await fc.assert(
        fc.asyncProperty(hostileBodies(route.template), segments, async (body, segment) => {
          const value = parsedBody(body);
          fc.pre(value === UNPARSEABLE || !route.mayBeValid?.(value, ctx));
          fc.pre(!route.segmentMayBeReal?.(segment, ctx));
          // The role-change limit (10 per 15 min) and the monitor's block (refused bodies that look like
          // injections raise the address's threat score: probe-log.ts) would answer 429 before the body is read: reset them.
          await t.database.db.execute(sql`delete from rate_limits where key like 'role-change:%' or key like 'block:ip:%' or key like 'monitor:%'`);
          const path = typeof route.path === 'string' ? route.path : route.path(segment, ctx);
          const answer = await send(port, route.method, path, headersFor[route.who], body);
          // Kept before anything can fail, so that the bodies fast-check tries while shrinking are each judged on their own.
          const after = await fingerprint(t.database.db, route.tables);
          const unchanged = own;
          own = after;
          expectRefusal(answer, `${route.method} ${path} with ${describeBody(body)}`);
          expect(after, `rows changed by ${route.method} ${path} with ${describeBody(body)}`).toEqual(unchanged);
        }),
        { numRuns: runs, maxSkipsPerRun: 100 },
      );
      expect(await fingerprint(t.database.db, tables), 'some table changed during the run').toEqual(before);
    }, 240_000);
  }

  for (const query of QUERY_ROUTES) {
    const runs = runsFor(query.weight, share);
    it(`GET ${query.path(':value')} answers ${runs} hostile values without a 5xx`, async () => {
      const before = await fingerprint(t.database.db, tables);
      await fc.assert(
        fc.asyncProperty(hostileSegment, async (value) => {
          const path = query.path(value);
          const answer = await send(port, 'GET', path, headersFor[query.who]);
          if (answer.status >= 400) expectRefusal(answer, `GET ${path}`);
        }),
        { numRuns: runs },
      );
      expect(await fingerprint(t.database.db, tables)).toEqual(before);
    }, 120_000);
  }

  it('a path Fastify refuses before routing (broken percent-encoding or UTF-8, an overlong parameter) answers in the app error shape', async () => {
    for (const segment of BROKEN_SEGMENTS) {
      for (const path of [`/api/favourites/${segment}`, `/api/meditations/${segment}`]) {
        expectRefusal(await send(port, 'GET', path, headersFor.user), `GET ${path}`);
      }
    }
  });

  it('the issue 12 reproductions: a NUL in the e-mail (sign-in, sign-up) or the name (update-user) is refused with the spec message', async () => {
    const post = (path: string, who: Who, payload: object) => send(port, 'POST', path, headersFor[who], { text: JSON.stringify(payload), contentType: 'application/json' });
    const signIn = await post('/api/auth/sign-in/email', 'anonymous', { email: 'fuzz-user\u0000@example.com', password: 'whatever-1' });
    expectRefusal(signIn, 'sign-in with NUL');
    expect(JSON.parse(signIn.text).error.message).toBe('Email contains invalid characters');
    const signUp = await post('/api/auth/sign-up/email', 'anonymous', { name: 'Nul Person', email: 'nul\u0000@example.com', password: 'calm-waters-1' });
    expectRefusal(signUp, 'sign-up with NUL');
    expect(JSON.parse(signUp.text).error.message).toBe('Email contains invalid characters');
    const update = await post('/api/auth/update-user', 'user', { name: 'Sam\u0000Jones' });
    expectRefusal(update, 'update-user with NUL');
    expect(JSON.parse(update.text).error.message).toBe('Name can only contain letters, spaces, hyphens, and apostrophes');
  });
});
