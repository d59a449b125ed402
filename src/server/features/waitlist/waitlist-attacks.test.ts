/**
 * Issue 33 row 13: addresses that look like someone else's. The waitlist took e-mail addresses holding
 * a right-to-left override, zero-width characters or fullwidth letters, which sign-up refuses, and the
 * admin's table and CSV then showed them spoofed ('evil\u202Emoc.elpmaxe@…' reads as another domain).
 * Both doors now answer with the same rules (validateEmail), and the CSV never hands a spreadsheet a formula.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { WAITLIST_MESSAGES } from '#shared/waitlist.ts';
import { waitlistEntries } from '#server/db/schema/waitlist.ts';
import { user } from '#server/db/schema/auth.ts';
import { nextIp, origin, signUp, createSignedInStaff } from '#tests/setup/auth-helpers.ts';
import { openForSuite } from '#tests/setup/suite-resource.ts';
import { createTestApp } from '#tests/setup/test-app.ts';
import { PGLITE_ONLY } from '#tests/setup/test-db.ts';

/** Addresses an attacker would use to pass for someone else in a list of addresses. */
const SPOOFED = {
  'right-to-left override': 'evil\u202Emoc.elpmaxe@example.com',
  'left-to-right isolate': 'ada\u2066@example.com',
  'zero-width space': 'ad\u200Ba@example.com',
  'zero-width joiner': 'ada\u200D@example.com',
  'byte order mark inside': 'ada\uFEFF@example.com',
  'soft hyphen': 'ad\u00ADa@example.com',
  'fullwidth local part': '\uFF41\uFF44\uFF41@example.com',
  'fullwidth domain': 'ada@\uFF45xample.com',
  'fullwidth at sign': 'ada\uFF20example.com',
  'cyrillic look-alike': 'ad\u0430@example.com',
};

describe.each(PGLITE_ONLY)('waitlist attacks (%s)', (kind) => {
  const t = openForSuite(() => createTestApp({ kind }));
  let admin: { cookie: string };
  beforeAll(async () => {
    admin = await createSignedInStaff(t, 'wl-attack-admin@example.com', 'admin');
  });

  const join = (payload: object) => t.app.inject({ method: 'POST', url: '/api/waitlist', headers: origin(t), payload, remoteAddress: nextIp() });

  it('refuses spoofing characters in a waitlist address, as sign-up does, and stores nothing', async () => {
    for (const [label, email] of Object.entries(SPOOFED)) {
      const res = await join({ name: 'Spoof Tester', email });
      expect(res.statusCode, label).toBe(400);
      expect(res.json().error.message, label).toBe(WAITLIST_MESSAGES.invalidBody);
      expect(res.json().error.details.fields, label).toEqual({ email: WAITLIST_MESSAGES.email });

      // The same address at sign-up: refused too (the rule both doors share).
      const signUpRes = await signUp(t, { name: 'Spoof Tester', email, password: 'calm-waters-1' });
      expect(signUpRes.statusCode, label).toBe(400);
    }
    expect(await t.database.db.select().from(waitlistEntries)).toHaveLength(0);
    const accounts = await t.database.db.select({ email: user.email }).from(user);
    expect(accounts.map((a) => a.email)).toEqual(['wl-attack-admin@example.com']);
  });

  it('still takes plain addresses, tags and all', async () => {
    expect((await join({ name: 'Plain Person', email: 'plain.person+beta@example.co.uk' })).statusCode).toBe(201);
  });

  it('hands the CSV no formula at the start of any cell (=, +, -, @, tab, carriage return)', async () => {
    const people = [
      { name: 'Minus Person', email: '-cmd@example.com', reason: '-2+3+cmd|" /C calc"!A0' },
      { name: 'Plus Person', email: '+1@example.com', reason: '+SUM(1,2)' },
      { name: 'Equals Person', email: '=1@example.com', reason: '=HYPERLINK("http://evil.example","x")' },
      { name: 'At Person', email: 'at@example.com', reason: '@SUM(1,2)' },
    ];
    for (const p of people) expect((await join(p)).statusCode, p.email).toBe(201);
    const csv = await t.app.inject({ method: 'GET', url: '/api/admin/waitlist/export', headers: { cookie: admin.cookie } });
    expect(csv.statusCode).toBe(200);
    const cells = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n')
      .slice(1)
      .flatMap((line) => line.match(/("([^"]|"")*"|[^,]*)(,|$)/g) ?? [])
      .map((cell) => cell.replace(/,$/, '').replace(/^"(.*)"$/s, '$1'));
    expect(cells.length).toBeGreaterThan(people.length * 4 - 1);
    for (const cell of cells) expect(cell, cell).not.toMatch(/^[=+\-@\t\r]/);
    expect(csv.body).toContain("'-cmd@example.com");
    expect(csv.body).toContain("'=1@example.com");
  });
});
