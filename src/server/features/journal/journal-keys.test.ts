/**
 * The journal's keyring rules on the server (issue 36, items 2 and 3; decision 0061): which KDFs and
 * parameters it takes, a passphrase upgrade that keeps the KDF's name and parameters, a rotation to exactly the
 * next generation, and no record write under an older key once it has happened.
 */
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { subscribers } from '#server/db/schema/billing.ts';
import { journalKeyrings, journalRecords } from '#server/db/schema/journal.ts';
import { createSignedInUser, origin } from '#tests/setup/auth-helpers.ts';
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts';
import { testDatabaseKinds } from '#tests/setup/test-db.ts';

const b64 = (bytes: number, fill = 1) => Buffer.alloc(bytes, fill).toString('base64');
const wrapped = (fill: number) => ({ iv: b64(12, fill), data: b64(48, fill) });
const argon2id = (fill = 3, params: Partial<{ memoryKiB: number; iterations: number; parallelism: number }> = {}) => ({ kdf: 'Argon2id', memoryKiB: 65_536, iterations: 3, parallelism: 4, ...params, salt: b64(16, fill), wrapped: wrapped(fill) });
const pbkdf2 = (fill = 3) => ({ kdf: 'PBKDF2-SHA-256', iterations: 600_000, salt: b64(16, fill), wrapped: wrapped(fill) });
const recovery = (fill = 2) => ({ kdf: 'HKDF-SHA-256', salt: b64(16, fill), wrapped: wrapped(fill) });
const keyring = (passphrase: object, extra: object = {}) => ({ version: 1, passphrase, recovery: recovery(), ...extra });
const sealed = (fill = 5) => ({ iv: b64(12, fill), data: b64(272, fill) });

describe.each(testDatabaseKinds())('journal keyrings: KDFs and rotation (decision 0061) on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ kind });
  });
  afterAll(() => t.close());

  const call = (method: 'GET' | 'POST' | 'PUT', url: string, cookie: string, payload?: object) => t.app.inject({ method, url, headers: { ...origin(t), cookie }, ...(payload ? { payload } : {}) });
  async function person(name: string) {
    const signedIn = await createSignedInUser(t, `${name}-${kind}-${randomUUID().slice(0, 8)}@example.com`);
    await t.database.db.insert(subscribers).values({ userId: signedIn.userId, status: 'active', plan: 'monthly', provider: 'sandbox', providerSubscriptionId: `sandbox_${randomUUID()}`, currentPeriodEnd: new Date(Date.now() + 30 * 86_400_000) });
    return signedIn;
  }
  const stored = async (userId: string) => (await t.database.db.select({ keyring: journalKeyrings.keyring }).from(journalKeyrings).where(eq(journalKeyrings.userId, userId)))[0]?.keyring;

  it('takes new keyrings under Argon2id at Bitwarden’s defaults or above, and refuses unknown KDFs, weaker parameters and PBKDF2', async () => {
    const ann = await person('ann');
    for (const bad of [
      keyring(argon2id(3, { memoryKiB: 65_535 })),
      keyring(argon2id(3, { iterations: 2 })),
      keyring(argon2id(3, { parallelism: 3 })),
      keyring({ ...argon2id(), kdf: 'scrypt' }),
      keyring({ ...argon2id(), kdf: 'Argon2i' }),
      // PBKDF2 is read (keyrings made before) but never taken anew: nothing can move a keyring back to it.
      keyring(pbkdf2()),
      keyring(argon2id(), { generation: 0 }),
    ]) {
      const refused = await call('POST', '/api/journal/keyring', ann.cookie, { keyring: bad });
      expect(refused.statusCode, JSON.stringify(bad.passphrase)).toBe(400);
    }
    expect(await stored(ann.userId)).toBeUndefined();
    const strong = keyring(argon2id(3, { memoryKiB: 131_072, iterations: 4 }), { generation: 1 });
    expect((await call('POST', '/api/journal/keyring', ann.cookie, { keyring: strong })).statusCode).toBe(201);
    expect(await stored(ann.userId)).toEqual(strong);
  });

  it('upgrades a PBKDF2 keyring to Argon2id with the same recovery wrap, keeping the KDF’s name and parameters; never back', async () => {
    const bo = await person('bo');
    // Made before Argon2id: straight into the table, as the server held it.
    await t.database.db.insert(journalKeyrings).values({ userId: bo.userId, keyring: keyring(pbkdf2()) });
    expect((await call('GET', '/api/journal/keyring', bo.cookie)).json().keyring.passphrase).toEqual(pbkdf2());
    const upgraded = keyring(argon2id(4));
    expect((await call('PUT', '/api/journal/keyring', bo.cookie, { keyring: upgraded })).statusCode).toBe(200);
    expect((await stored(bo.userId)).passphrase).toEqual({ kdf: 'Argon2id', memoryKiB: 65_536, iterations: 3, parallelism: 4, salt: b64(16, 4), wrapped: wrapped(4) });
    expect((await call('PUT', '/api/journal/keyring', bo.cookie, { keyring: keyring(pbkdf2(5)) })).statusCode).toBe(400);
    // A passphrase change may not slip in a generation or earlier keys of its own.
    expect((await call('PUT', '/api/journal/keyring', bo.cookie, { keyring: keyring(argon2id(6), { generation: 2 }) })).statusCode).toBe(409);
    expect((await call('PUT', '/api/journal/keyring', bo.cookie, { keyring: keyring(argon2id(6), { previous: [{ generation: 1, ...wrapped(7) }] }) })).statusCode).toBe(409);
    expect(await stored(bo.userId)).toEqual(upgraded);
  });

  it('rotates to exactly the next generation, replacing the recovery wrap; then refuses writes under any older key', async () => {
    const cy = await person('cy');
    expect((await call('POST', '/api/journal/keyring', cy.cookie, { keyring: keyring(argon2id()) })).statusCode).toBe(201);
    const id = randomUUID();
    const first = await call('PUT', `/api/journal/records/${id}`, cy.cookie, { ...sealed(5), baseSeq: null });
    expect(first.statusCode).toBe(200);
    // No generation said (an app from before rotation): generation 1, the keyring's: taken.
    const seq = first.json().seq as number;

    const rotated = { version: 1, generation: 2, passphrase: argon2id(8), recovery: recovery(9), previous: [{ generation: 1, ...wrapped(10) }] };
    // A rotation must be the next generation: not the same one, not one ahead of it.
    for (const generation of [1, 3]) expect((await call('POST', '/api/journal/keyring/rotation', cy.cookie, { keyring: { ...rotated, generation } })).statusCode).toBe(generation === 1 ? 400 : 409);
    const done = await call('POST', '/api/journal/keyring/rotation', cy.cookie, { keyring: rotated });
    expect(done.statusCode).toBe(200);
    expect(await stored(cy.userId)).toEqual(rotated);
    // A second device rotating from the same generation at the same time: told the key changed.
    const late = await call('POST', '/api/journal/keyring/rotation', cy.cookie, { keyring: { ...rotated, recovery: recovery(11) } });
    expect(late.statusCode).toBe(409);
    expect(late.json().error.code).toBe('journal/key-replaced');

    // The device that has not seen the rotation (generation 1, or none said) cannot write, new or changed.
    for (const body of [{ ...sealed(6), baseSeq: seq, generation: 1 }, { ...sealed(6), baseSeq: seq }, { ...sealed(6), baseSeq: null, generation: 1 }]) {
      const refused = await call('PUT', `/api/journal/records/${body.baseSeq === null ? randomUUID() : id}`, cy.cookie, body);
      expect(refused.statusCode).toBe(409);
      expect(refused.json().error).toMatchObject({ code: 'journal/key-replaced', message: 'Your journal\'s key was replaced on another device. Unlock your journal again to keep writing.', details: { generation: 2 } });
    }
    // Nor under a generation the keyring has never had.
    expect((await call('PUT', `/api/journal/records/${id}`, cy.cookie, { ...sealed(6), baseSeq: seq, generation: 3 })).statusCode).toBe(409);
    expect((await t.database.db.select({ data: journalRecords.data }).from(journalRecords).where(eq(journalRecords.userId, cy.userId))).map((r) => r.data)).toEqual([sealed(5).data]);
    // Under the new key: taken.
    expect((await call('PUT', `/api/journal/records/${id}`, cy.cookie, { ...sealed(7), baseSeq: seq, generation: 2 })).statusCode).toBe(200);
    // And the passphrase of the rotated keyring can change, keeping its generation and earlier keys.
    expect((await call('PUT', '/api/journal/keyring', cy.cookie, { keyring: { ...rotated, passphrase: argon2id(12) } })).statusCode).toBe(200);
  });

  it('refuses a rotation of a journal that is not set up, and keeps other accounts’ writes apart', async () => {
    const di = await person('di');
    const ed = await person('ed');
    expect((await call('POST', '/api/journal/keyring/rotation', di.cookie, { keyring: { version: 1, generation: 2, passphrase: argon2id(), recovery: recovery() } })).statusCode).toBe(404);
    await call('POST', '/api/journal/keyring', di.cookie, { keyring: keyring(argon2id()) });
    await call('POST', '/api/journal/keyring', ed.cookie, { keyring: keyring(argon2id()) });
    expect((await call('POST', '/api/journal/keyring/rotation', di.cookie, { keyring: { version: 1, generation: 2, passphrase: argon2id(), recovery: recovery(4) } })).statusCode).toBe(200);
    // Ed's journal is still at generation 1: his writes go through.
    expect((await call('PUT', `/api/journal/records/${randomUUID()}`, ed.cookie, { ...sealed(), baseSeq: null, generation: 1 })).statusCode).toBe(200);
  });
});
