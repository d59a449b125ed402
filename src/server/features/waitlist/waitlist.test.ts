/** The waitlist through the real API: validation, sanitising, honeypot, duplicates, per-IP limit, admin views. */
import { readFileSync } from 'node:fs';
import { join as joinPath } from 'node:path';
import { count, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { WAITLIST, WAITLIST_MESSAGES } from '#shared/waitlist.ts';
import type { WaitlistEntriesResponse } from '#shared/contracts/waitlist.ts';
import { ERROR_TEXT } from '#shared/error-text.ts';
import { MIGRATIONS_DIR } from '#server/db/client.ts';
import { waitlistEntries } from '#server/db/schema/waitlist.ts';
import { nextIp, origin, createSignedInStaff } from '#tests/setup/auth-helpers.ts';
import { openForSuite } from '#tests/setup/suite-resource.ts';
import { createTestApp } from '#tests/setup/test-app.ts';
import { testDatabaseKinds } from '#tests/setup/test-db.ts';

describe.each(testDatabaseKinds())('waitlist on %s', (kind) => {
  const t = openForSuite(() => createTestApp({ kind }));
  let admin: { cookie: string };
  beforeAll(async () => {
    admin = await createSignedInStaff(t, 'wl-admin@example.com', 'admin');
  });

  const join = (payload: object, remoteAddress = nextIp()) => t.app.inject({ method: 'POST', url: '/api/waitlist', headers: origin(t), payload, remoteAddress });
  const rows = () => t.database.db.select().from(waitlistEntries);

  it('adds a sanitised entry; an empty reason is stored as null', async () => {
    const res = await join({ name: "  Siobhán O'Brien ", email: '  Siobhan.OBrien@Example.com ', reason: '  ' });
    expect(res.statusCode).toBe(201);
    const [row] = (await rows()).filter((r) => r.email === 'siobhan.obrien@example.com');
    // Stored as typed (decision 0017): React and the CSV writer escape on output.
    expect(row).toMatchObject({ name: "Siobhán O'Brien", reason: null });
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
  it('pages the admin table newest first, every entry once, ties in time broken by id; the CSV streams them all', async () => {
    // Start empty, then 2.5 pages of rows, most sharing one timestamp (as a batch insert makes them).
    // eslint-disable-next-line drizzle/enforce-delete-with-where -- the test owns the table
    await t.database.db.delete(waitlistEntries);
    const at = new Date('2026-01-01T10:00:00Z');
    const count = WAITLIST.pageSize * 2 + 50;
    await t.database.db.insert(waitlistEntries).values(Array.from({ length: count }, (_, i) => ({ name: `Person ${i}`, email: `p${i}@example.com`, createdAt: i < 10 ? new Date(at.getTime() + 1000) : at })));
    const get = (query = '') => t.app.inject({ method: 'GET', url: `/api/admin/waitlist${query}`, headers: { cookie: admin.cookie } });

    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await get(cursor ? `?after=${cursor}` : '');
      expect(res.statusCode).toBe(200);
      const page = res.json<WaitlistEntriesResponse>();
      expect(page.total).toBe(count);
      expect(page.entries.length).toBeLessThanOrEqual(WAITLIST.pageSize);
      seen.push(...page.entries.map((e) => e.email));
      if (pages === 0) expect(page.entries.slice(0, 10).every((e) => e.createdAt === '2026-01-01T10:00:01.000Z')).toBe(true);
      cursor = page.nextCursor;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toHaveLength(count);
    expect(new Set(seen).size).toBe(count);

    expect((await get('?limit=7')).json().entries).toHaveLength(7);
    expect((await get('?after=not-a-cursor')).statusCode).toBe(400);
    expect((await get(`?limit=${WAITLIST.pageMax + 1}`)).statusCode).toBe(400);
    // A cursor whose entry is gone (the list was cleared meanwhile) ends the list.
    expect((await get('?after=00000000-0000-4000-8000-000000000000')).json()).toMatchObject({ entries: [], nextCursor: null });

    // More rows than one export batch, so the CSV is written in several reads.
    const extra = WAITLIST.exportBatch + 5 - count;
    await t.database.db.insert(waitlistEntries).values(Array.from({ length: extra }, (_, i) => ({ name: `Extra ${i}`, email: `x${i}@example.com`, createdAt: at })));
    const csv = await t.app.inject({ method: 'GET', url: '/api/admin/waitlist/export', headers: { cookie: admin.cookie } });
    const lines = csv.body.replace(/^\uFEFF/, '').trim().split('\r\n');
    expect(lines[0]).toBe('Name,Email,Reason,Sign-up Date');
    expect(lines).toHaveLength(WAITLIST.exportBatch + 6);
    expect(new Set(lines.slice(1).map((l) => l.split(',')[1])).size).toBe(WAITLIST.exportBatch + 5);
  });
  it('gives the total as an estimate once the list is large, and says so', async () => {
    const rowsWanted = WAITLIST.exactCountBelow + 1000;
    await t.database.db.execute(sql`insert into waitlist_entries (name, email) select 'Bulk ' || i, 'bulk' || i || '@example.com' from generate_series(1, ${rowsWanted}) i`);
    await t.database.db.execute(sql`analyze waitlist_entries`);
    const [{ exact }] = await t.database.db.select({ exact: count() }).from(waitlistEntries);
    const page = (await t.app.inject({ method: 'GET', url: '/api/admin/waitlist', headers: { cookie: admin.cookie } })).json();
    expect(page.totalIsEstimate).toBe(true);
    expect(Math.abs(page.total - exact) / exact).toBeLessThan(0.1);
    expect(page.entries).toHaveLength(WAITLIST.pageSize);
  });
  it('keeps text and addresses as typed: a lone "<", an ampersand, a + tag (the spec\'s sanitisers destroyed them)', async () => {
    const res = await join({ name: 'Ada Beta', email: 'Ada+Beta@Example.com', reason: 'I <3 mornings & tea, <b>really</b>' });
    expect(res.statusCode).toBe(201);
    const [row] = (await rows()).filter((r) => r.email.startsWith('ada+beta'));
    expect(row).toMatchObject({ email: 'ada+beta@example.com', reason: 'I <3 mornings & tea, really' });
    // Another mailbox than ada+beta@, so not a duplicate of it.
    expect((await join({ name: 'Ada Beta', email: 'adabeta@example.com' })).statusCode).toBe(201);
  });

  it('migration 0008 turns text escaped at rest back into what people typed', async () => {
    const escaped = [
      { name: 'Siobhán O&#x27;Brien', email: 'esc1@example.com', reason: 'Tea &amp; calm &lt;3 &quot;quietly&quot; 1&#x2F;2' },
      { name: 'Amp Person', email: 'esc2@example.com', reason: 'I typed &amp;lt; on purpose' },
    ];
    await t.database.db.insert(waitlistEntries).values(escaped);
    const migration = readFileSync(joinPath(MIGRATIONS_DIR, '0008_waitlist_text_as_typed.sql'), 'utf8');
    await t.database.db.execute(sql.raw(migration));
    const after = (await rows()).filter((r) => r.email.startsWith('esc'));
    expect(after.find((r) => r.email === 'esc1@example.com')).toMatchObject({ name: "Siobhán O'Brien", reason: 'Tea & calm <3 "quietly" 1/2' });
    expect(after.find((r) => r.email === 'esc2@example.com')?.reason).toBe('I typed &lt; on purpose');
  });
});
