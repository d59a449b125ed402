/**
 * The beta waitlist: the public sign-up (honeypot, per-IP limit, the spec's validation, sanitised
 * storage, one entry per address enforced by the database) and the admin's list, CSV export, clear
 * and sandbox sample rows. Admin changes write their audit row in the same transaction.
 */
import { desc } from 'drizzle-orm';
import type { JoinWaitlistBody, WaitlistEntry } from '#shared/contracts/waitlist.ts';
import { toCsv } from '#shared/csv.ts';
import { ERROR_TEXT } from '#shared/messages.ts';
import { sanitizeEmail, sanitizeText, unescapeText } from '#shared/validation.ts';
import { validateWaitlist, WAITLIST, WAITLIST_CSV_HEADER, WAITLIST_MESSAGES, waitlistCsvName } from '#shared/waitlist.ts';
import type { Database } from '#server/db/client.ts';
import { isUniqueViolation } from '#server/db/errors.ts';
import { waitlistEntries } from '#server/db/schema/admin.ts';
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
      .values({ name: sanitizeText(input.name, WAITLIST.nameMax), email: sanitizeEmail(input.email.trim()), reason })
      .returning({ id: waitlistEntries.id, createdAt: waitlistEntries.createdAt });
    return { id: row.id, createdAt: row.createdAt.toISOString() };
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('database/duplicate-email', ERROR_TEXT['database/duplicate-email'], 409, { sqlstate: '23505' });
    throw error;
  }
}

/** Every entry, newest first, as typed (stored text is HTML-escaped; React escapes again when it renders). */
export async function listWaitlist(db: Database): Promise<WaitlistEntry[]> {
  const rows = await db.select().from(waitlistEntries).orderBy(desc(waitlistEntries.createdAt));
  return rows.map((e) => ({
    id: e.id,
    name: unescapeText(e.name),
    email: e.email,
    reason: e.reason === null ? null : unescapeText(e.reason),
    createdAt: e.createdAt.toISOString(),
  }));
}

/** The CSV download (with a BOM so spreadsheets read UTF-8), recorded in the audit log. */
export async function exportWaitlistCsv({ db, by, now = new Date() }: { db: Database; by: AuditContext; now?: Date }) {
  const entries = await listWaitlist(db);
  await logAdminAction({ db, by, entry: { action: 'waitlist.export', targetResource: 'waitlist_entries', metadata: { rows: entries.length } } });
  return { fileName: waitlistCsvName(now), body: '\uFEFF' + toCsv(WAITLIST_CSV_HEADER, entries.map((e) => [e.name, e.email, e.reason ?? '', e.createdAt])) };
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
