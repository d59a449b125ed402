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
  const ask = (route: Route, cookie?: string) => t.app.inject({ method: route.method, url: sample(route), headers: { ...origin(t), ...(cookie ? { cookie } : {}) }, ...(route.method === 'GET' ? {} : { payload: {} }) });

  it('registers every route of the table', () => {
    expect(API_ROUTES.filter((route) => !registered.has(route.id)).map((route) => route.id)).toEqual([]);
  });

  it('refuses a visitor every route that needs a session, with 401', async () => {
    for (const route of API_ROUTES.filter((r) => needsSession(r.policy))) expect((await ask(route)).statusCode, route.id).toBe(401);
  });

  it('refuses a signed-in person without the role every staff and admin route, with 403; and lets the role in', async () => {
    for (const route of API_ROUTES.filter((r) => r.policy === 'staff' || r.policy === 'admin')) {
      expect((await ask(route, cookies.user)).statusCode, `${route.id} for a user`).toBe(403);
      expect((await ask(route, cookies.editor)).statusCode, `${route.id} for an editor`).toBe(route.policy === 'staff' ? expect.not.toBeOneOf([401, 403]) : 403);
      expect([401, 403], `${route.id} for an admin`).not.toContain((await ask(route, cookies.admin)).statusCode);
    }
  });

  it('lets in the callers its policy allows (the handler or its validation answers, never 401 or 403 from the policy)', async () => {
    for (const route of API_ROUTES.filter((r) => r.policy === 'signed-in')) expect([401, 403], route.id).not.toContain((await ask(route, cookies.user)).statusCode);
  });

  it('marks the answers the table calls no-store', async () => {
    for (const route of API_ROUTES.filter((r) => r.cache === 'no-store' && r.method === 'GET' && r.policy === 'signed-in')) {
      const answer = await ask(route, cookies.user);
      if (answer.statusCode < 400) expect(answer.headers['cache-control'], route.id).toBe('no-store');
    }
  });
});
