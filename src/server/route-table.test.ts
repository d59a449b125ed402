/**
 * The route table (src/shared/contracts) holds for every route, and the running app obeys it: each
 * route has a policy, a contract and a path whose params the contract names; each is registered; and,
 * asked through real HTTP requests, each refuses the callers its policy refuses (a visitor 401, a
 * signed-in person without the role 403) before its handler or its validation runs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { API_ROUTES } from '#shared/contracts/api-routes.ts';
import { API_SCHEMAS, contractOf } from '#shared/contracts/api-schemas.ts';
import { pathOf, type Route } from '#shared/contracts/route.ts';
import { allows, needsSession, POLICIES, type Policy } from '#shared/policies.ts';
import type { Role } from '#shared/roles.ts';
import { userRoles } from '#server/db/schema/auth.ts';
import { createSignedInUser, origin } from '#tests/setup/auth-helpers.ts';
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts';

const paramNames = (path: string) => [...path.matchAll(/:([A-Za-z]+)/g)].map((match) => match[1]).sort();
const schemaKeys = (schema: z.ZodType | undefined) => (schema && 'shape' in schema ? Object.keys(schema.shape as object).sort() : []);

describe('the route table', () => {
  it('gives every route a known policy, a contract, and the params its path names', () => {
    expect(API_ROUTES.length).toBeGreaterThan(0);
    for (const route of API_ROUTES) {
      expect(Object.keys(POLICIES), route.id).toContain(route.policy);
      const schemas = contractOf(route);
      expect(schemaKeys(schemas.params), `${route.id}: params of ${route.path}`).toEqual(paramNames(route.path));
      if (route.method === 'GET') expect(schemas.body, `${route.id}: a GET reads no body`).toBeUndefined();
    }
  });

  it('lists each route once, and every contract has its route', () => {
    const keys = API_ROUTES.map((route) => `${route.method} ${route.path}`);
    expect(new Set(keys).size).toBe(keys.length);
    const contracts = Object.entries(API_SCHEMAS).flatMap(([feature, table]) => Object.keys(table ?? {}).map((name) => `${feature}.${name}`));
    expect(API_ROUTES.map((route) => route.id).sort()).toEqual(contracts.sort());
  });

  it('decides each policy for each kind of caller', () => {
    const callers: { viewer: { role: Role } | null; allowed: Policy[] }[] = [
      { viewer: null, allowed: ['public', 'public-with-viewer'] },
      { viewer: { role: 'user' }, allowed: ['public', 'public-with-viewer', 'signed-in'] },
      { viewer: { role: 'editor' }, allowed: ['public', 'public-with-viewer', 'signed-in', 'staff'] },
      { viewer: { role: 'admin' }, allowed: ['public', 'public-with-viewer', 'signed-in', 'staff', 'admin'] },
    ];
    for (const { viewer, allowed } of callers) for (const policy of Object.keys(POLICIES) as Policy[]) expect(allows(policy, viewer), `${policy} for ${viewer?.role ?? 'a visitor'}`).toBe(allowed.includes(policy));
  });
});

/**
 * Routes under /api the table does not hold, each for a reason: not JSON (streams, files, uploads), or
 * not the web's to call (the stores' webhooks, which prove themselves by signature), or better-auth's.
 */
const OUTSIDE_THE_TABLE = [
  'GET /api/admin/meditations/:id/download', // the audio file itself
  'GET /api/admin/waitlist/export', // CSV
  'GET /api/auth/{*}', // better-auth's own handler (its endpoints the web calls are in the table, servedBy)
  'GET /api/native/apple/return', // Apple on Android: the system browser's redirects (decision 0071)
  'GET /api/native/apple/start',
  'GET /api/openapi.json', // the document drawn from the table
  'GET /api/reminders/calendar.ics', // a calendar file
  'POST /api/admin/meditations', // a multipart upload
  'POST /api/auth/{*}',
  'POST /api/billing/stripe/webhook', // Stripe's signed webhook, on the raw body
  'POST /api/iap/notifications', // Apple's signed notifications
  'POST /api/reminders/email/one-click', // RFC 8058 unsubscribe, a form post from the mail client
  'POST /api/revenuecat/webhook', // RevenueCat's webhook, proved by its shared secret
];

describe('the running app against its table', () => {
  let t: TestApp;
  const cookies: Partial<Record<Role, string>> = {};
  const registered = new Set<string>();

  beforeAll(async () => {
    t = await createTestApp();
    for (const role of ['user', 'editor', 'admin'] as const) {
      const { cookie, userId } = await createSignedInUser(t, `${role}@example.com`);
      if (role !== 'user') await t.database.db.insert(userRoles).values({ userId, role }).onConflictDoUpdate({ target: userRoles.userId, set: { role } });
      cookies[role] = cookie;
    }
    for (const route of API_ROUTES) if (t.app.hasRoute({ method: route.method, url: route.servedBy === 'better-auth' ? '/api/auth/*' : route.path })) registered.add(route.id);
  });
  afterAll(() => t.close());

  /** Fills each param with a well-formed value, so a refusal is the policy's and not the params' 400. */
  const sample = (route: Route) => pathOf(route, Object.fromEntries(paramNames(route.path).map((name) => [name, name === 'slug' ? 'a-programme' : '00000000-0000-4000-8000-000000000000'])));
  /**
   * better-auth reads the body before the session: its signed-in endpoints are asked with a well-formed
   * one, so a visitor's 401 is the session check's. The table's own routes check the policy first.
   */
  const BETTER_AUTH_BODIES: Record<string, object> = {
    'auth.changePassword': { currentPassword: 'calm-waters-1', newPassword: 'calm-waters-2' },
    'auth.updateUser': { name: 'Sam' },
  };
  const ask = (route: Route, cookie?: string) =>
    t.app.inject({ method: route.method, url: sample(route), headers: { ...origin(t), ...(cookie ? { cookie } : {}) }, ...(route.method === 'GET' ? {} : { payload: BETTER_AUTH_BODIES[route.id] ?? {} }) });
  /** The policy's own refusals: 401 for no session, 403 with its words for a missing role (a route's later checks, such as a CSRF token, say other words). */
  const refusedByPolicy = (answer: { statusCode: number; json(): unknown }) =>
    answer.statusCode === 401 || (answer.statusCode === 403 && (answer.json() as { error?: { message?: string } }).error?.message === 'Access denied. Admin privileges required.');

  it('serves every route under /api through the table, but the few outside JSON named here', () => {
    const document = t.app.swagger() as { paths?: Record<string, Record<string, unknown>> };
    const inTable = new Set(API_ROUTES.filter((route) => !route.servedBy).map((route) => `${route.method} ${route.path}`));
    const registered = Object.entries(document.paths ?? {}).flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`));
    expect(registered.filter((key) => key.includes(' /api/') && !inTable.has(key)).sort()).toEqual(OUTSIDE_THE_TABLE);
  });

  it('registers every route of the table', () => {
    expect(API_ROUTES.filter((route) => !registered.has(route.id)).map((route) => route.id)).toEqual([]);
  });

  it('refuses a visitor every route that needs a session, with 401', async () => {
    for (const route of API_ROUTES.filter((r) => needsSession(r.policy))) expect((await ask(route)).statusCode, route.id).toBe(401);
  });

  it('refuses a signed-in person without the role every staff and admin route, with 403; and lets the role in', async () => {
    for (const route of API_ROUTES.filter((r) => r.policy === 'staff' || r.policy === 'admin')) {
      const forUser = await ask(route, cookies.user);
      expect([forUser.statusCode, refusedByPolicy(forUser)], `${route.id} for a user`).toEqual([403, true]);
      expect(refusedByPolicy(await ask(route, cookies.editor)), `${route.id} for an editor`).toBe(route.policy === 'admin');
      expect(refusedByPolicy(await ask(route, cookies.admin)), `${route.id} for an admin`).toBe(false);
    }
  });

  it('lets in the callers its policy allows (the handler or its validation answers, never 401 or 403 from the policy)', async () => {
    for (const route of API_ROUTES.filter((r) => r.policy === 'signed-in')) expect(refusedByPolicy(await ask(route, cookies.user)), route.id).toBe(false);
  });

  it('marks the answers the table calls no-store', async () => {
    for (const route of API_ROUTES.filter((r) => r.cache === 'no-store' && r.method === 'GET' && r.policy === 'signed-in')) {
      const answer = await ask(route, cookies.user);
      if (answer.statusCode < 400) expect(answer.headers['cache-control'], route.id).toBe('no-store');
    }
  });
});
