/** The waitlist through the real API: validation, sanitising, honeypot, duplicates, per-IP limit, admin views. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WAITLIST, WAITLIST_MESSAGES } from '#shared/waitlist.ts';
import { ERROR_TEXT } from '#shared/messages.ts';
import { waitlistEntries } from '#server/db/schema/admin.ts';
import { assignRole } from '#server/features/admin/roles.service.ts';
import { createSignedInUser, nextIp, origin } from '#tests/setup/auth-helpers.ts';
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts';
import { testDatabaseKinds } from '#tests/setup/test-db.ts';

describe.each(testDatabaseKinds())('waitlist on %s', (kind) => {
  let t: TestApp;
  let admin: { cookie: string };
  beforeAll(async () => {
    t = await createTestApp({ kind });
    const a = await createSignedInUser(t, 'wl-admin@example.com');
    await assignRole({ db: t.database.db, userId: a.userId, role: 'admin', assignedBy: null });
    admin = a;
  });
  afterAll(() => t.close());

  const join = (payload: object, remoteAddress = nextIp()) => t.app.inject({ method: 'POST', url: '/api/waitlist', headers: origin(t), payload, remoteAddress });
  const rows = () => t.database.db.select().from(waitlistEntries);

  it('adds a sanitised entry; an empty reason is stored as null', async () => {
    const res = await join({ name: "  Siobhán O'Brien ", email: '  Siobhan.OBrien@Example.com ', reason: '  ' });
    expect(res.statusCode).toBe(201);
    const [row] = (await rows()).filter((r) => r.email === 'siobhan.obrien@example.com');
    expect(row).toMatchObject({ name: 'Siobhán O&#x27;Brien', reason: null });
    const listed = (await t.app.inject({ method: 'GET', url: '/api/admin/waitlist', headers: { cookie: admin.cookie } })).json().entries;
    expect(listed.find((e: { email: string }) => e.email === 'siobhan.obrien@example.com').name).toBe("Siobhán O'Brien");
  });

  it('refuses a second sign-up for the same address in any case (the 23505 path)', async () => {
    await join({ name: 'Ada Lovelace', email: 'ada@example.com' });
    const again = await join({ name: 'Ada L', email: 'ADA@Example.COM' });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toMatchObject({ code: 'database/duplicate-email', message: ERROR_TEXT['database/duplicate-email'], details: { sqlstate: '23505' } });
    expect((await rows()).filter((r) => r.email.toLowerCase() === 'ada@example.com')).toHaveLength(1);
  });

  it('gives each field the spec message and stores nothing for bad input', async () => {
    const before = (await rows()).length;
    const cases: [object, Record<string, string>][] = [
      [{ name: 'A', email: 'a@example.com' }, { name: WAITLIST_MESSAGES.name }],
      [{ name: 'x'.repeat(101), email: 'a@example.com' }, { name: WAITLIST_MESSAGES.name }],
      [{ name: 'R2D2', email: 'a@example.com' }, { name: WAITLIST_MESSAGES.name }],
      [{ name: 'Bob <script>', email: 'a@example.com' }, { name: WAITLIST_MESSAGES.name }],
      [{ name: 'Bob Smith', email: 'not-an-email' }, { email: WAITLIST_MESSAGES.email }],
      [{ name: 'Bob Smith', email: `${'a'.repeat(250)}@example.com` }, { email: WAITLIST_MESSAGES.email }],
      [{ name: 'Bob Smith', email: 'bob@example.com', reason: 'r'.repeat(500) }, { reason: WAITLIST_MESSAGES.reason }],
      [{ name: 'Bob Smith', email: 'bob@example.com', reason: '<img src=x onerror=alert(1)>' }, { reason: WAITLIST_MESSAGES.reason }],
      [{}, { name: WAITLIST_MESSAGES.name, email: WAITLIST_MESSAGES.email }],
    ];
    for (const [payload, fields] of cases) {
      const res = await join(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error.message).toBe(WAITLIST_MESSAGES.invalidBody);
      expect(res.json().error.details.fields).toEqual(fields);
    }
    expect((await rows()).length).toBe(before);
  });

  it('quietly refuses a filled honeypot', async () => {
    const res = await join({ name: 'Bot Person', email: 'bot@example.com', website: 'http://spam.example' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe(WAITLIST_MESSAGES.honeypotBody);
    expect((await rows()).some((r) => r.email === 'bot@example.com')).toBe(false);
  });

  it('limits sign-ups per IP in a 24-hour window (the 42501 path)', async () => {
    const ip = '203.0.113.77';
    for (let i = 0; i < WAITLIST.perIpLimit; i++) expect((await join({ name: 'Rate Tester', email: `rate${i}@example.com` }, ip)).statusCode).toBe(201);
    const limited = await join({ name: 'Rate Tester', email: 'rate-over@example.com' }, ip);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().error).toMatchObject({ code: 'rate-limit/exceeded', message: WAITLIST_MESSAGES.rateLimitBody, details: { sqlstate: '42501' } });
    expect((await join({ name: 'Other Person', email: 'other-ip@example.com' }, '203.0.113.78')).statusCode).toBe(201);
  });

  it('exports a CSV that spreadsheets cannot run, then clears everything', async () => {
    await join({ name: 'Formula Fan', email: 'formula@example.com', reason: '=HYPERLINK("http://evil.example","x")' });
    const csv = await t.app.inject({ method: 'GET', url: '/api/admin/waitlist/export', headers: { cookie: admin.cookie } });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toMatch(/text\/csv/);
    expect(csv.headers['content-disposition']).toMatch(/attachment; filename="waitlist-entries-\d{4}-\d{2}-\d{2}\.csv"/);
    const lines = csv.body.replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(lines[0]).toBe('Name,Email,Reason,Sign-up Date');
    const formula = lines.find((l) => l.includes('formula@example.com'))!;
    expect(formula).toContain(`"'=HYPERLINK(""http://evil.example"",""x"")"`);
    expect(lines.find((l) => l.includes('siobhan'))).toContain("Siobhán O'Brien");

    const cleared = await t.app.inject({ method: 'DELETE', url: '/api/admin/waitlist', headers: { cookie: admin.cookie, ...origin(t) } });
    expect(cleared.json().deleted).toBeGreaterThan(5);
    expect(await rows()).toHaveLength(0);
    const test = await t.app.inject({ method: 'POST', url: '/api/admin/waitlist/test-data', headers: { cookie: admin.cookie, ...origin(t) } });
    expect(test.json().inserted).toBe(5);
    expect((await t.app.inject({ method: 'POST', url: '/api/admin/waitlist/test-data', headers: { cookie: admin.cookie, ...origin(t) } })).json().inserted).toBe(0);
  });
});
