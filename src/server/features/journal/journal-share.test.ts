import { randomUUID } from 'node:crypto';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blankCbt, createEntry } from '#shared/journal.ts';
import { SHARE_CIPHERTEXT_MAX_CHARS, SHARE_LINKS_MAX, SHARE_MESSAGES, type SharedPayload } from '#shared/journal-share.ts';
import { subscribers } from '#server/db/schema/billing.ts';
import { journalShares } from '#server/db/schema/journal.ts';
import { eraseAccount } from '#server/features/account/account-erasure.ts';
import { SHARE_READS } from '#server/features/journal/journal-share.routes.ts';
import { createShare, startShareSweeper, sweepExpiredShares } from '#server/features/journal/journal-share.service.ts';
import { openShare, shareRequest } from '#web/features/journal/journal-share-crypto.ts';
import { createSignedInUser, nextIp, origin } from '#tests/setup/auth-helpers.ts';
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts';
import { testDatabaseKinds } from '#tests/setup/test-db.ts';

const WORDS = 'The meeting went badly and I am sure everyone saw me shake';
const payload: SharedPayload = {
  version: 1,
  entry: createEntry('cbt', { ...blankCbt(), thoughtPatterns: WORDS, reframe: 'My hands shook; the meeting went on.' }, new Date('2026-11-27T10:00:00Z')),
  summary: null,
};
const b64 = (bytes: number, fill = 1) => Buffer.alloc(bytes, fill).toString('base64');

describe.each(testDatabaseKinds())('shared journal entries (issue 36, item 5) on %s', (kind) => {
  let t: TestApp;
  let owner: { cookie: string; userId: string };
  let other: { cookie: string; userId: string };
  let lapsed: { cookie: string; userId: string };
  beforeAll(async () => {
    t = await createTestApp({ kind });
    owner = await createSignedInUser(t, `share-owner-${kind}@example.com`);
    other = await createSignedInUser(t, `share-other-${kind}@example.com`);
    lapsed = await createSignedInUser(t, `share-lapsed-${kind}@example.com`);
    for (const person of [owner, other]) {
      await t.database.db.insert(subscribers).values({ userId: person.userId, status: 'active', plan: 'monthly', provider: 'sandbox', providerSubscriptionId: `sandbox_${randomUUID()}`, currentPeriodEnd: new Date(Date.now() + 30 * 86_400_000) });
    }
  });
  afterAll(() => t.close());

  const call = (method: 'GET' | 'POST' | 'DELETE', url: string, cookie: string | null, payload?: object, remoteAddress = nextIp()) =>
    t.app.inject({ method, url, remoteAddress, headers: { ...origin(t), ...(cookie ? { cookie } : {}) }, ...(payload ? { payload } : {}) });
  const rows = async () => (await t.database.db.select({ n: count() }).from(journalShares)).at(0)!.n;
  const share = async (cookie = owner.cookie, days: 1 | 7 | 30 = 7) => {
    const { body, key } = await shareRequest(payload, days);
    const res = await call('POST', '/api/journal/shares', cookie, body);
    expect(res.statusCode, res.body).toBe(201);
    return { id: res.json().id as string, key, res };
  };

  it('creates a link from sealed bytes, stores no word of the entry, and a recipient with no account opens it with the key', async () => {
    const { id, key, res } = await share(owner.cookie, 7);
    const link = res.json();
    expect(link).toMatchObject({ id, views: 0 });
    expect(new Date(link.expiresAt).getTime() - new Date(link.createdAt).getTime()).toBe(7 * 86_400_000);
    expect(res.headers['cache-control']).toBe('no-store');

    // What the server stored: ciphertext, expiry, owner, counts. Not the text, not the key.
    const [row] = await t.database.db.select().from(journalShares).where(eq(journalShares.id, id));
    const stored = JSON.stringify(row);
    for (const word of [WORDS, 'meeting', 'shook', key]) expect(stored).not.toContain(word);
    expect(row.userId).toBe(owner.userId);

    const read = await call('GET', `/api/shared/${id}`, null);
    expect(read.statusCode).toBe(200);
    expect(read.headers).toMatchObject({ 'cache-control': 'no-store', 'referrer-policy': 'no-referrer', 'x-robots-tag': 'noindex, nofollow' });
    expect(Object.keys(read.json()).sort()).toEqual(['data', 'expiresAt', 'iv']);
    expect(read.body).not.toContain(owner.userId);
    expect(await openShare(key, read.json())).toEqual(payload);
    await call('GET', `/api/shared/${id}`, null);
    const listed = (await call('GET', '/api/journal/shares', owner.cookie)).json().links;
    expect(listed.find((l: { id: string }) => l.id === id)).toMatchObject({ views: 2 });
  });

  it('lets only the signed-in owner create, list and revoke; a lapsed subscription can still list and revoke, not create', async () => {
    const id = randomUUID();
    expect((await call('POST', '/api/journal/shares', null, { iv: b64(12), data: b64(272), expiresInDays: 1 })).statusCode).toBe(401);
    expect((await call('GET', '/api/journal/shares', null)).statusCode).toBe(401);
    expect((await call('DELETE', `/api/journal/shares/${id}`, null)).statusCode).toBe(401);

    const before = await rows();
    const refused = await call('POST', '/api/journal/shares', lapsed.cookie, { iv: b64(12), data: b64(272), expiresInDays: 1 });
    expect(refused.statusCode).toBe(403);
    expect(await rows()).toBe(before);
    expect((await call('GET', '/api/journal/shares', lapsed.cookie)).json()).toEqual({ links: [] });

    const mine = await share();
    // Another account neither sees the link nor can revoke it; the link keeps working.
    expect((await call('GET', '/api/journal/shares', other.cookie)).json().links.map((l: { id: string }) => l.id)).not.toContain(mine.id);
    const theirs = await call('DELETE', `/api/journal/shares/${mine.id}`, other.cookie);
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json().error.message).toBe(SHARE_MESSAGES.unavailable);
    expect((await call('GET', `/api/shared/${mine.id}`, null)).statusCode).toBe(200);

    // The owner revokes: the row (ciphertext and all) is gone at once, and the link says so.
    expect((await call('DELETE', `/api/journal/shares/${mine.id}`, owner.cookie)).json()).toEqual({ revoked: true });
    expect(await t.database.db.select().from(journalShares).where(eq(journalShares.id, mine.id))).toEqual([]);
    const gone = await call('GET', `/api/shared/${mine.id}`, null);
    expect(gone.statusCode).toBe(404);
    expect(gone.json().error.message).toBe('This link is no longer available.');
    expect(gone.headers['referrer-policy']).toBe('no-referrer');
    expect((await call('DELETE', `/api/journal/shares/${mine.id}`, owner.cookie)).statusCode).toBe(404);
  });

  it('refuses bad input with clear words and stores nothing', async () => {
    const before = await rows();
    const cases: [object, string][] = [
      [{ iv: b64(12), data: b64(272), expiresInDays: 2 }, SHARE_MESSAGES.badExpiry],
      [{ iv: b64(12), data: b64(272), expiresInDays: '7' }, SHARE_MESSAGES.badExpiry],
      [{ iv: b64(12), data: b64(272) }, SHARE_MESSAGES.badExpiry],
      [{ iv: b64(12), data: 'A'.repeat(SHARE_CIPHERTEXT_MAX_CHARS + 4), expiresInDays: 7 }, SHARE_MESSAGES.tooLarge],
      [{ iv: b64(12), data: `${WORDS}!`, expiresInDays: 7 }, SHARE_MESSAGES.badCiphertext],
      [{ iv: 'short', data: b64(272), expiresInDays: 7 }, SHARE_MESSAGES.badCiphertext],
      [{ iv: b64(12), data: b64(272), expiresInDays: 7, text: WORDS }, SHARE_MESSAGES.extraField],
    ];
    for (const [body, message] of cases) {
      const res = await call('POST', '/api/journal/shares', owner.cookie, body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.json().error.message, JSON.stringify(body).slice(0, 80)).toBe(message);
    }
    for (const [method, url] of [['GET', '/api/shared/not-a-uuid'], ['DELETE', '/api/journal/shares/42']] as const) {
      const res = await call(method, url, owner.cookie);
      expect(res.statusCode).toBe(400);
      expect(res.json().error.message).toBe(SHARE_MESSAGES.badId);
    }
    const unknown = await call('GET', `/api/shared/${randomUUID()}`, null);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.message).toBe(SHARE_MESSAGES.unavailable);
    expect(await rows()).toBe(before);
  });

  it('stops an expired link at once, and the sweep deletes its row', async () => {
    const { id } = await share(owner.cookie, 1);
    await t.database.db.update(journalShares).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(journalShares.id, id));
    const read = await call('GET', `/api/shared/${id}`, null);
    expect(read.statusCode).toBe(404);
    expect(read.json().error.message).toBe(SHARE_MESSAGES.unavailable);
    expect((await call('GET', '/api/journal/shares', owner.cookie)).json().links.map((l: { id: string }) => l.id)).not.toContain(id);
    const live = await share(owner.cookie, 30);
    expect(await sweepExpiredShares({ db: t.database.db })).toBeGreaterThanOrEqual(1);
    expect(await t.database.db.select().from(journalShares).where(eq(journalShares.id, id))).toEqual([]);
    expect((await call('GET', `/api/shared/${live.id}`, null)).statusCode).toBe(200);
  });

  it('is swept by the job every process runs, which logs what it deleted', async () => {
    const { id } = await share(owner.cookie, 1);
    await t.database.db.update(journalShares).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(journalShares.id, id));
    const logged: object[] = [];
    const stop = startShareSweeper({ db: t.database.db, log: { info: (obj) => logged.push(obj), error: (obj) => logged.push(obj) }, firstAfterMs: 0 });
    await expect.poll(async () => (await t.database.db.select().from(journalShares).where(eq(journalShares.id, id))).length).toBe(0);
    await stop();
    expect(logged).toEqual([{ swept: expect.any(Number) as number }]);
  });

  it('limits reads per address, unknown ids included', async () => {
    const { id } = await share();
    const ip = nextIp();
    for (let i = 0; i < SHARE_READS.perWindow; i += 1) await call('GET', `/api/shared/${i % 2 ? id : randomUUID()}`, null, undefined, ip);
    const limited = await call('GET', `/api/shared/${id}`, null, undefined, ip);
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
    expect((await call('GET', `/api/shared/${id}`, null, undefined, nextIp())).statusCode).toBe(200);
  });

  it('caps the live links one account holds', async () => {
    const person = await createSignedInUser(t, `share-cap-${kind}@example.com`);
    for (let i = 0; i < SHARE_LINKS_MAX; i += 1) expect(await createShare({ db: t.database.db, userId: person.userId, iv: b64(12), data: b64(272), expiresInDays: 1 })).not.toBeNull();
    expect(await createShare({ db: t.database.db, userId: person.userId, iv: b64(12), data: b64(272), expiresInDays: 1 })).toBeNull();
  });

  it('goes with the account: in its export, and deleted with it', async () => {
    const person = await createSignedInUser(t, `share-leaving-${kind}@example.com`);
    await t.database.db.insert(subscribers).values({ userId: person.userId, status: 'active', plan: 'monthly', provider: 'sandbox', providerSubscriptionId: `sandbox_${randomUUID()}`, currentPeriodEnd: new Date(Date.now() + 30 * 86_400_000) });
    const { id } = await share(person.cookie, 30);
    const exported = (await call('GET', '/api/account/export', person.cookie)).json();
    expect(exported.sharedJournalLinks).toEqual([expect.objectContaining({ id, views: 0 })]);
    expect(JSON.stringify(exported)).not.toContain(WORDS);
    await t.database.db.transaction((tx) => eraseAccount(tx, { userId: person.userId, email: `share-leaving-${kind}@example.com`, at: new Date() }));
    expect(await t.database.db.select().from(journalShares).where(eq(journalShares.userId, person.userId))).toEqual([]);
    expect((await call('GET', `/api/shared/${id}`, null)).statusCode).toBe(404);
  });
});
