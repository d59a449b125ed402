/**
 * The beta waitlist: the public sign-up (honeypot, per-IP limit, the spec's validation, sanitised
 * storage, one entry per address enforced by the database) and the admin's list, CSV export, clear
 * and sandbox sample rows. Admin changes write their audit row in the same transaction.
 */
import { Readable } from 'node:stream';
import { count, desc, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { JoinWaitlistBody, WaitlistEntriesResponse, WaitlistEntry } from '#shared/contracts/waitlist.ts';
import { toCsv, toCsvRows } from '#shared/csv.ts';
import { ERROR_TEXT } from '#shared/error-text.ts';
import { sanitizeEmail, sanitizeText } from '#shared/validation.ts';
import { validateWaitlist, WAITLIST, WAITLIST_CSV_HEADER, WAITLIST_MESSAGES, waitlistCsvName } from '#shared/waitlist.ts';
import type { Database } from '#server/db/client.ts';
import { isUniqueViolation } from '#server/db/errors.ts';
import { waitlistEntries } from '#server/db/schema/waitlist.ts';
import { AppError } from '#server/errors.ts';
import { logAdminAction, type AuditContext } from '#server/features/admin/admin-audit.service.ts';
import type { RateLimitStore } from '#server/features/security/rate-limit-store.ts';
import { logSecurityEvent } from '#server/features/security/security-audit.service.ts';

const SAMPLE = [
  { name: 'Amara Okafor', email: 'amara.okafor@example.com', reason: 'Evening wind-down for better sleep.' },
  { name: "Seán O'Neill", email: 'sean.oneill@example.com', reason: 'Living with fibromyalgia and looking for gentle support.' },
  { name: 'Priya Shah', email: 'priya.shah@example.com', reason: null },
  { name: 'Tom Whitaker', email: 'tom.whitaker@example.com', reason: 'Starting the day with intention.' },
  { name: 'Lena Berg', email: 'lena.berg@example.com', reason: '=HYPERLINK("http://evil.example","click") (a CSV-injection test row)' },
];

export async function joinWaitlist({ db, limits, ip, input }: { db: Database; limits: RateLimitStore; ip: string; input: JoinWaitlistBody }) {
  // A filled honeypot is a bot: refuse without saying why.
  if (input.website?.trim()) {
    await logSecurityEvent({ db, eventType: 'rate_limit_exceeded', severity: 'low', ipAddress: ip, details: { reason: 'waitlist honeypot' } });
    throw new AppError('validation/invalid-input', WAITLIST_MESSAGES.honeypotBody, 400, { honeypot: true });
  }
  const { count } = await limits.hit(`waitlist:${ip}`, WAITLIST.windowMs, ip);
  if (count > WAITLIST.perIpLimit) {
    await logSecurityEvent({ db, eventType: 'rate_limit_exceeded', severity: 'medium', ipAddress: ip, details: { action: 'waitlist' } });
    // The spec's 42501 path: a refusal by policy, reported as a rate limit.
    throw new AppError('rate-limit/exceeded', WAITLIST_MESSAGES.rateLimitBody, 429, { sqlstate: '42501' });
  }
  const check = validateWaitlist(input);
  if (!check.valid) throw new AppError('validation/invalid-input', WAITLIST_MESSAGES.invalidBody, 400, { fields: check.errors });
  const reason = input.reason?.trim() ? sanitizeText(input.reason, WAITLIST.reasonMax) : null;
  try {
    const [row] = await db
      .insert(waitlistEntries)
      .values({ name: sanitizeText(input.name, WAITLIST.nameMax), email: sanitizeEmail(input.email), reason })
      .returning({ id: waitlistEntries.id, createdAt: waitlistEntries.createdAt });
    return { id: row.id, createdAt: row.createdAt.toISOString() };
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('database/duplicate-email', ERROR_TEXT['database/duplicate-email'], 409, { sqlstate: '23505' });
    throw error;
  }
}

type WaitlistRow = typeof waitlistEntries.$inferSelect;

/** A stored row as the API shows it: text as typed (React and the CSV writer escape on output). */
function toEntry(e: WaitlistRow): WaitlistEntry {
  return { id: e.id, name: e.name, email: e.email, reason: e.reason, createdAt: e.createdAt.toISOString() };
}

/**
 * One page of entries, newest first, after the entry `after` (keyset paging on (created_at, id),
 * served by waitlist_entries_created_id_idx: a page costs the same on the first page as on the
 * thousandth, and nothing reads the whole table). The cursor is an entry's id; one that no longer
 * exists (the list was cleared) ends the list.
 */
async function waitlistRows(db: Database, { after, limit }: { after?: string; limit: number }): Promise<WaitlistRow[]> {
  const newestFirst = [desc(waitlistEntries.createdAt), desc(waitlistEntries.id)] as const;
  if (!after) return db.select().from(waitlistEntries).orderBy(...newestFirst).limit(limit);
  const cursor = db.select({ createdAt: waitlistEntries.createdAt, id: waitlistEntries.id }).from(waitlistEntries).where(eq(waitlistEntries.id, after));
  return db
    .select()
    .from(waitlistEntries)
    .where(sql`(${waitlistEntries.createdAt}, ${waitlistEntries.id}) < (select "created_at", "id" from (${cursor}) as cursor)`)
    .orderBy(...newestFirst)
    .limit(limit);
}

// Raw query results are typed `unknown` by the driver-neutral database type: read them through a schema.
const plannerEstimate = z.object({ rows: z.array(z.object({ estimate: z.coerce.number() })) });

/**
 * How many entries there are: counted while the list is small, the planner's estimate once it is
 * large (an exact count reads the whole index: 14 ms at 200 000 rows, on every 30 s refresh).
 * A table never analysed reports -1 and is counted.
 */
async function waitlistTotal(db: Database): Promise<{ total: number; totalIsEstimate: boolean }> {
  const estimated = plannerEstimate.parse(await db.execute(sql`select reltuples::float8 as estimate from pg_class where oid = 'waitlist_entries'::regclass`));
  const estimate = estimated.rows.at(0)?.estimate ?? -1;
  if (estimate >= WAITLIST.exactCountBelow) return { total: Math.round(estimate), totalIsEstimate: true };
  const [{ total }] = await db.select({ total: count() }).from(waitlistEntries);
  return { total, totalIsEstimate: false };
}

/** The admin's table: a page of entries, the cursor of the next page, and how many there are in all. */
export async function listWaitlist({ db, after, limit = WAITLIST.pageSize }: { db: Database; after?: string; limit?: number }): Promise<WaitlistEntriesResponse> {
  const [rows, total] = await Promise.all([waitlistRows(db, { after, limit: limit + 1 }), waitlistTotal(db)]);
  const page = rows.slice(0, limit);
  return { entries: page.map(toEntry), ...total, nextCursor: rows.length > limit ? (page.at(-1)?.id ?? null) : null };
}

/**
 * The CSV download (with a BOM so spreadsheets read UTF-8), recorded in the audit log before the
 * first byte leaves. Streamed a page of rows at a time: memory stays flat at any list size.
 */
export async function exportWaitlistCsv({ db, by, now = new Date() }: { db: Database; by: AuditContext; now?: Date }) {
  const [{ rows }] = await db.select({ rows: count() }).from(waitlistEntries);
  await logAdminAction({ db, by, entry: { action: 'waitlist.export', targetResource: 'waitlist_entries', metadata: { rows } } });
  async function* csv(): AsyncGenerator<string> {
    yield '\uFEFF' + toCsv(WAITLIST_CSV_HEADER, []);
    let after: string | undefined;
    for (;;) {
      const page = await waitlistRows(db, { after, limit: WAITLIST.exportBatch });
      if (page.length === 0) return;
      yield toCsvRows(page.map(toEntry).map((e) => [e.name, e.email, e.reason ?? '', e.createdAt]));
      if (page.length < WAITLIST.exportBatch) return;
      after = page.at(-1)?.id;
    }
  }
  return { fileName: waitlistCsvName(now), rows, body: Readable.from(csv()) };
}

/** Deletes every entry (the admin's 'Clear Data'). */
export async function clearWaitlist({ db, by }: { db: Database; by: AuditContext }) {
  return db.transaction(async (tx) => {
    // eslint-disable-next-line drizzle/enforce-delete-with-where -- clearing the whole list is this action
    const deleted = await tx.delete(waitlistEntries).returning({ id: waitlistEntries.id });
    await logAdminAction({ db: tx, by, entry: { action: 'waitlist.clear', targetResource: 'waitlist_entries', changes: { deleted: deleted.length }, severity: 'high' } });
    return { deleted: deleted.length };
  });
}

/** Sandbox sample rows (one of them a CSV-injection probe); addresses already listed are skipped. */
export async function addWaitlistTestData({ db, by }: { db: Database; by: AuditContext }) {
  return db.transaction(async (tx) => {
    const inserted = await tx
      .insert(waitlistEntries)
      .values(SAMPLE.map((s) => ({ name: sanitizeText(s.name, WAITLIST.nameMax), email: s.email, reason: s.reason ? sanitizeText(s.reason, WAITLIST.reasonMax) : null })))
      .onConflictDoNothing()
      .returning({ id: waitlistEntries.id });
    await logAdminAction({ db: tx, by, entry: { action: 'waitlist.test-data', targetResource: 'waitlist_entries', changes: { inserted: inserted.length }, severity: 'low' } });
    return { inserted: inserted.length };
  });
}
