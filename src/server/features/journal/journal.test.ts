import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subscribers } from '#server/db/schema/billing.ts';
import { journalKeyrings, journalRecords, journalShares } from '#server/db/schema/journal.ts';
import { createSignedInUser, origin } from '#tests/setup/auth-helpers.ts';
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts';
import { testDatabaseKinds } from '#tests/setup/test-db.ts';

const b64 = (bytes: number, fill = 1) => Buffer.alloc(bytes, fill).toString('base64');
const keyring = (recoveryFill = 2, passphraseFill = 3) => ({
  version: 1,
  passphrase: { kdf: 'Argon2id', memoryKiB: 65_536, iterations: 3, parallelism: 4, salt: b64(16, passphraseFill), wrapped: { iv: b64(12, passphraseFill), data: b64(48, passphraseFill) } },
  recovery: { kdf: 'HKDF-SHA-256', salt: b64(16, recoveryFill), wrapped: { iv: b64(12, recoveryFill), data: b64(48, recoveryFill) } },
});
const sealed = (fill = 5) => ({ iv: b64(12, fill), data: b64(272, fill) });

describe.each(testDatabaseKinds())('encrypted journal storage (issue 18) on %s', (kind) => {
  let t: TestApp;
  let member: { cookie: string; userId: string };
  let lapsed: { cookie: string; userId: string };
  beforeAll(async () => {
    t = await createTestApp({ kind });
    member = await createSignedInUser(t, `journal-${kind}@example.com`);
    lapsed = await createSignedInUser(t, `journal-lapsed-${kind}@example.com`);
    await t.database.db.insert(subscribers).values({ userId: member.userId, status: 'active', plan: 'monthly', provider: 'sandbox', providerSubscriptionId: `sandbox_${randomUUID()}`, currentPeriodEnd: new Date(Date.now() + 30 * 86_400_000) });
  });
  afterAll(() => t.close());

  const call = (method: 'GET' | 'POST' | 'PUT', url: string, cookie: string | null, payload?: object) =>
    t.app.inject({ method, url, headers: { ...origin(t), ...(cookie ? { cookie } : {}) }, ...(payload ? { payload } : {}) });

  it('answers only the signed-in owner', async () => {
    for (const [method, url] of [['GET', '/api/journal/keyring'], ['POST', '/api/journal/keyring'], ['PUT', '/api/journal/keyring'], ['GET', '/api/journal/records'], ['PUT', `/api/journal/records/${randomUUID()}`], ['POST', '/api/journal/reset']] as const) {
      expect((await call(method, url, null, method === 'GET' ? undefined : {})).statusCode, `${method} ${url}`).toBe(401);
    }
  });

  it('keeps one keyring per account: the first set-up wins, and only the passphrase wrap may change', async () => {
    expect((await call('GET', '/api/journal/keyring', member.cookie)).json()).toEqual({ keyring: null });
    expect((await call('PUT', '/api/journal/keyring', member.cookie, { keyring: keyring() })).statusCode).toBe(404);
    expect((await call('POST', '/api/journal/keyring', member.cookie, { keyring: keyring() })).statusCode).toBe(201);
    const second = await call('POST', '/api/journal/keyring', member.cookie, { keyring: keyring(9, 9) });
    expect(second.statusCode).toBe(409);
    expect(second.json().error.message).toBe('This journal is already set up on another device: unlock it with your passphrase.');
    // A new passphrase: accepted. A new recovery wrap (someone swapping in their own keys): refused.
    expect((await call('PUT', '/api/journal/keyring', member.cookie, { keyring: keyring(2, 4) })).statusCode).toBe(200);
    expect((await call('PUT', '/api/journal/keyring', member.cookie, { keyring: keyring(8, 4) })).statusCode).toBe(409);
    expect((await call('GET', '/api/journal/keyring', member.cookie)).json().keyring).toEqual(keyring(2, 4));
    expect((await call('GET', '/api/journal/keyring', lapsed.cookie)).json()).toEqual({ keyring: null });
    // Weak settings or odd shapes are refused.
    for (const bad of [{ ...keyring(), passphrase: { ...keyring().passphrase, memoryKiB: 1024 } }, { ...keyring(), version: 2 }, { ...keyring(), recovery: { ...keyring().recovery, salt: 'not base64!' } }]) {
      expect((await call('POST', '/api/journal/keyring', lapsed.cookie, { keyring: bad })).statusCode).toBe(400);
    }
  });

  it('writes with compare-and-set, hands back the other device’s change on a conflict, and lists changes after a number', async () => {
    const id = randomUUID();
    const first = await call('PUT', `/api/journal/records/${id}`, member.cookie, { ...sealed(5), baseSeq: null });
    expect(first.statusCode).toBe(200);
    const seq1 = first.json().seq as number;
    // A second device that also thinks the record is new: refused, with what is there.
    const clash = await call('PUT', `/api/journal/records/${id}`, member.cookie, { ...sealed(6), baseSeq: null });
    expect(clash.statusCode).toBe(409);
    expect(clash.json()).toMatchObject({ error: { message: 'This entry changed on another device.', details: { current: { id, seq: seq1, ...sealed(5) } } } });
    // An edit on top of what it saw: accepted, with a new number; a stale one is refused.
    const edit = await call('PUT', `/api/journal/records/${id}`, member.cookie, { ...sealed(7), baseSeq: seq1 });
    expect(edit.statusCode).toBe(200);
    const seq2 = edit.json().seq as number;
    expect(seq2).toBeGreaterThan(seq1);
    expect((await call('PUT', `/api/journal/records/${id}`, member.cookie, { ...sealed(8), baseSeq: seq1 })).statusCode).toBe(409);

    const other = randomUUID();
    const seq3 = (await call('PUT', `/api/journal/records/${other}`, member.cookie, { ...sealed(9), baseSeq: null })).json().seq as number;
    const all = (await call('GET', '/api/journal/records', member.cookie)).json();
    expect(all.records.map((r: { id: string }) => r.id)).toEqual([id, other]);
    expect(all).toMatchObject({ last: seq3, more: false });
    expect((await call('GET', `/api/journal/records?after=${seq2}`, member.cookie)).json().records.map((r: { id: string }) => r.id)).toEqual([other]);
    const paged = (await call('GET', '/api/journal/records?limit=1', member.cookie)).json();
    expect(paged).toMatchObject({ last: seq2, more: true });
    // Another account sees none of it, and cannot write to these ids' rows.
    expect((await call('GET', '/api/journal/records', lapsed.cookie)).json().records).toEqual([]);
  });

  it('needs a subscription for a new entry, never to change or delete one already stored', async () => {
    const id = randomUUID();
    const refused = await call('PUT', `/api/journal/records/${id}`, lapsed.cookie, { ...sealed(), baseSeq: null });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.message).toBe('Saving your reflections is part of your subscription. Subscribe to keep your journaling safe.');
    // Written while subscribed (made here directly), then the subscription lapsed: edits and tombstones still go through.
    const [row] = await t.database.db.insert(journalRecords).values({ userId: lapsed.userId, id, ...sealed(3) }).returning({ seq: journalRecords.seq });
    expect((await call('PUT', `/api/journal/records/${id}`, lapsed.cookie, { ...sealed(4), baseSeq: row.seq })).statusCode).toBe(200);
  });

  it('refuses what is not a sealed record, and stores nothing then', async () => {
    const id = randomUUID();
    for (const bad of [
      { iv: 'short', data: b64(272), baseSeq: null },
      { iv: b64(12), data: 'plain text, not sealed', baseSeq: null },
      { iv: b64(12), data: 'A'.repeat(160 * 1024 + 4), baseSeq: null },
      { iv: b64(12), data: b64(272), baseSeq: 0 },
      { iv: b64(12), data: b64(272) },
    ]) {
      expect((await call('PUT', `/api/journal/records/${id}`, member.cookie, bad)).statusCode).toBe(400);
    }
    expect((await call('PUT', '/api/journal/records/not-a-uuid', member.cookie, { ...sealed(), baseSeq: null })).statusCode).toBe(400);
    expect(await t.database.db.select().from(journalRecords).where(eq(journalRecords.id, id))).toEqual([]);
  });

  it('goes with the account when it is deleted, and the export says how much was held', async () => {
    const person = await createSignedInUser(t, `journal-gone-${kind}@example.com`, 'calm-waters-1');
    await t.database.db.insert(subscribers).values({ userId: person.userId, status: 'active', plan: 'monthly', provider: 'sandbox', providerSubscriptionId: `sandbox_${randomUUID()}` });
    await call('POST', '/api/journal/keyring', person.cookie, { keyring: keyring() });
    await call('PUT', `/api/journal/records/${randomUUID()}`, person.cookie, { ...sealed(), baseSeq: null });
    expect((await call('GET', '/api/account/export', person.cookie)).json().journal).toEqual({ encryptedRecords: 1, hasKeyring: true });
    expect((await call('POST', '/api/account/delete', person.cookie, { password: 'calm-waters-1', confirmation: 'DELETE' })).statusCode).toBe(200);
    expect(await t.database.db.select().from(journalRecords).where(eq(journalRecords.userId, person.userId))).toEqual([]);
  });

  it('starts a new journal only for its owner, only with the word typed, deleting the keyring and every record and nothing else (issue 36, item 3)', async () => {
    const ann = await createSignedInUser(t, `journal-reset-${kind}@example.com`);
    const bo = await createSignedInUser(t, `journal-reset-bo-${kind}@example.com`);
    for (const person of [ann, bo]) {
      await t.database.db.insert(journalKeyrings).values({ userId: person.userId, keyring: keyring() });
      await t.database.db.insert(journalRecords).values([{ userId: person.userId, id: randomUUID(), ...sealed(1) }, { userId: person.userId, id: randomUUID(), ...sealed(2) }]);
    }
    // A link shared earlier is sealed under a key of its own: it stays until it expires or is revoked.
    await t.database.db.insert(journalShares).values({ userId: ann.userId, ...sealed(4), expiresAt: new Date(Date.now() + 86_400_000) });
    const held = async (userId: string) => ({
      keyring: (await t.database.db.select().from(journalKeyrings).where(eq(journalKeyrings.userId, userId))).length,
      records: (await t.database.db.select().from(journalRecords).where(eq(journalRecords.userId, userId))).length,
    });

    // The word must be the one the dialog asks for, exactly; nothing else is accepted, and nothing is deleted then.
    for (const bad of [{}, { confirm: 'delete' }, { confirm: ' DELETE' }, { confirm: 'yes' }, { confirm: 'DELETE', userId: bo.userId }]) {
      const refused = await call('POST', '/api/journal/reset', ann.cookie, bad);
      expect(refused.statusCode, JSON.stringify(bad)).toBe(400);
    }
    expect((await call('POST', '/api/journal/reset', ann.cookie, { confirm: 'delete' })).json().error.message).toBe('Type DELETE exactly, in capitals, to delete your journal.');
    expect(await held(ann.userId)).toEqual({ keyring: 1, records: 2 });

    const reset = await call('POST', '/api/journal/reset', ann.cookie, { confirm: 'DELETE' });
    expect(reset.statusCode).toBe(200);
    expect(reset.json()).toEqual({ deletedRecords: 2 });
    expect(await held(ann.userId)).toEqual({ keyring: 0, records: 0 });
    expect(await t.database.db.select().from(journalShares).where(eq(journalShares.userId, ann.userId))).toHaveLength(1);
    // Another account's journal is untouched.
    expect(await held(bo.userId)).toEqual({ keyring: 1, records: 2 });
    // A new journal can be set up (it answered 409 for ever before).
    expect((await call('POST', '/api/journal/keyring', ann.cookie, { keyring: keyring(7, 7) })).statusCode).toBe(201);
    // Resetting an empty journal is harmless.
    expect((await call('POST', '/api/journal/reset', bo.cookie, { confirm: 'DELETE' })).json()).toEqual({ deletedRecords: 2 });
    expect((await call('POST', '/api/journal/reset', bo.cookie, { confirm: 'DELETE' })).json()).toEqual({ deletedRecords: 0 });
  });
});
