/**
 * Issue 33, row 3: a subscriber stored unlimited journal records (160 000 base64 characters × 30 in
 * 1.3 s, nothing capped). Each account's journal is capped in records and in sealed characters
 * (JOURNAL_STORAGE, decision 0044); a new record past a cap is refused with the journal's words and
 * nothing is stored, while edits and deletions of what is there stay possible.
 */
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOURNAL_LOCK_MESSAGES, JOURNAL_STORAGE } from '#shared/journal-keys.ts';
import { subscribers } from '#server/db/schema/billing.ts';
import { journalRecords } from '#server/db/schema/journal.ts';
import { writeRecord } from '#server/features/journal/journal.service.ts';
import { createSignedInUser, origin } from '#tests/setup/auth-helpers.ts';
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts';
import { testDatabaseKinds } from '#tests/setup/test-db.ts';

const b64 = (bytes: number, fill = 1) => Buffer.alloc(bytes, fill).toString('base64');
/** A sealed record of `bytes` bytes (a tombstone is 272: one padded block and the tag). */
const sealed = (bytes = 272, fill = 5) => ({ iv: b64(12, fill), data: b64(bytes, fill) });

/**
 * Filling a journal to the real cap over HTTP means 40 000 rows: ~1 s on PostgreSQL, ~15 s on PGlite on a
 * loaded machine. That test runs on one engine (PostgreSQL when it answers); the rules themselves, with
 * small caps, run on both.
 */
const FULL_SIZE_KIND = testDatabaseKinds().at(-1);

describe.each(testDatabaseKinds())('the journal’s caps per account on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ kind });
  });
  afterAll(() => t.close());

  async function subscriber(email: string) {
    const person = await createSignedInUser(t, email);
    await t.database.db.insert(subscribers).values({ userId: person.userId, status: 'active', plan: 'monthly', provider: 'sandbox', providerSubscriptionId: `sandbox_${randomUUID()}`, currentPeriodEnd: new Date(Date.now() + 30 * 86_400_000) });
    return person;
  }
  const put = (cookie: string, id: string, body: object) => t.app.inject({ method: 'PUT', url: `/api/journal/records/${id}`, headers: { ...origin(t), cookie }, payload: body });
  const count = async (userId: string) => (await t.database.db.select({ n: sql<number>`count(*)::int` }).from(journalRecords).where(eq(journalRecords.userId, userId)))[0].n;

  it.runIf(kind === FULL_SIZE_KIND)('refuses a new record once the account holds the most records a journal may, and still takes edits and deletions', async () => {
    const person = await subscriber(`journal-cap-${kind}@example.com`);
    const mine = randomUUID();
    const first = await put(person.cookie, mine, { ...sealed(1024), baseSeq: null });
    expect(first.statusCode).toBe(200);
    // The rest of a full journal, made in the database (as many small records as the cap allows, less one).
    await t.database.db.execute(
      sql`insert into journal_records (user_id, id, iv, data) select ${person.userId}, gen_random_uuid(), ${sealed().iv}, ${sealed().data} from generate_series(1, ${JOURNAL_STORAGE.recordsMax - 2})`,
    );
    // The last record the cap allows is taken; parallel new records past it are all refused.
    expect((await put(person.cookie, randomUUID(), { ...sealed(), baseSeq: null })).statusCode).toBe(200);
    const refused = await Promise.all(Array.from({ length: 4 }, () => put(person.cookie, randomUUID(), { ...sealed(), baseSeq: null })));
    for (const res of refused) {
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toEqual({ code: 'journal/full', message: JOURNAL_LOCK_MESSAGES.recordsFull, details: { limit: 'records' } });
    }
    expect(await count(person.userId)).toBe(JOURNAL_STORAGE.recordsMax);

    // An edit of a record already there, and a deletion (a smaller sealed marker), are taken at the cap.
    const edit = await put(person.cookie, mine, { ...sealed(1024, 7), baseSeq: first.json().seq });
    expect(edit.statusCode).toBe(200);
    expect((await put(person.cookie, mine, { ...sealed(272, 8), baseSeq: edit.json().seq })).statusCode).toBe(200);
    // A conflict is still a conflict, with the current version, not a refusal for the cap.
    expect((await put(person.cookie, mine, { ...sealed(), baseSeq: null })).statusCode).toBe(409);
    expect(await count(person.userId)).toBe(JOURNAL_STORAGE.recordsMax);
  });

  it('refuses what would take the account past its sealed characters, and takes a change that does not grow it', async () => {
    const person = await subscriber(`journal-bytes-${kind}@example.com`);
    const db = t.database.db;
    const limits = { recordsMax: 100, charsMax: 4000 };
    const a = randomUUID();
    const written = await writeRecord(db, person.userId, a, { ...sealed(1500), baseSeq: null }, limits); // 2 000 characters
    expect(written).toMatchObject({ ok: true });
    const seqA = (written as { seq: number }).seq;
    expect(await writeRecord(db, person.userId, randomUUID(), { ...sealed(1500), baseSeq: null }, limits)).toMatchObject({ ok: true }); // 4 000: full
    expect(await writeRecord(db, person.userId, randomUUID(), { ...sealed(3), baseSeq: null }, limits)).toEqual({ ok: false, full: 'bytes' });
    // Growing an entry past the cap is refused; the same size, or smaller, is taken.
    expect(await writeRecord(db, person.userId, a, { ...sealed(1503), baseSeq: seqA }, limits)).toEqual({ ok: false, full: 'bytes' });
    const same = await writeRecord(db, person.userId, a, { ...sealed(1500, 9), baseSeq: seqA }, limits);
    expect(same).toMatchObject({ ok: true });
    expect(await writeRecord(db, person.userId, a, { ...sealed(272), baseSeq: (same as { seq: number }).seq }, limits)).toMatchObject({ ok: true });
    // The deletion made room.
    expect(await writeRecord(db, person.userId, randomUUID(), { ...sealed(900), baseSeq: null }, limits)).toMatchObject({ ok: true });
    expect(await count(person.userId)).toBe(3);
  });

  it('lets one of several parallel new records through at the last place, and counts each account apart', async () => {
    const person = await subscriber(`journal-parallel-${kind}@example.com`);
    const other = await subscriber(`journal-parallel-other-${kind}@example.com`);
    const limits = { recordsMax: 3, charsMax: 1_000_000 };
    for (let i = 0; i < 2; i += 1) expect(await writeRecord(t.database.db, person.userId, randomUUID(), { ...sealed(), baseSeq: null }, limits)).toMatchObject({ ok: true });
    const results = await Promise.all(Array.from({ length: 5 }, () => writeRecord(t.database.db, person.userId, randomUUID(), { ...sealed(), baseSeq: null }, limits)));
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok)).toEqual(Array.from({ length: 4 }, () => ({ ok: false, full: 'records' })));
    expect(await count(person.userId)).toBe(3);
    expect(await writeRecord(t.database.db, other.userId, randomUUID(), { ...sealed(), baseSeq: null }, limits)).toMatchObject({ ok: true });
  });
});
