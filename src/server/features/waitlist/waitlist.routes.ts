/**
 * The beta waitlist: a public sign-up (validated, sanitised, honeypot, per-IP limit, unique
 * e-mail enforced by the database) and the admin views of it (list, clear, CSV export, sandbox
 * test data).
 */
import { desc } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ADMIN_MESSAGES, toCsv, validateWaitlist, WAITLIST, WAITLIST_CSV_HEADER, WAITLIST_MESSAGES, waitlistCsvName } from '#shared/admin.ts';
import { ERROR_TEXT } from '#shared/messages.ts';
import { sanitizeEmail, sanitizeText, unescapeText } from '#shared/validation.ts';
import { requireRole, type Auth } from '#server/auth.ts';
import type { Database } from '#server/db/client.ts';
import { waitlistEntries } from '#server/db/schema/admin.ts';
import { AppError } from '#server/errors.ts';
import { logAdminAction } from '#server/features/admin/admin-audit.service.ts';
import type { RateLimitStore } from '#server/features/security/rate-limit-store.ts';
import { logSecurityEvent } from '#server/features/security/security-audit.service.ts';

const body = z.object({
  name: z.string().max(1000).default(''),
  email: z.string().max(1000).default(''),
  reason: z.string().max(5000).nullish(),
  website: z.string().max(1000).nullish(),
});

/** Postgres (and PGlite) report unique violations as SQLSTATE 23505, possibly wrapped by drizzle. */
export function isUniqueViolation(error: unknown): boolean {
  for (let e = error as { code?: string; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (e.code === '23505') return true;
  }
  return false;
}

export type WaitlistEntryView = { id: string; name: string; email: string; reason: string | null; createdAt: string };

const SAMPLE = [
  { name: 'Amara Okafor', email: 'amara.okafor@example.com', reason: 'Evening wind-down for better sleep.' },
  { name: "Seán O'Neill", email: 'sean.oneill@example.com', reason: 'Living with fibromyalgia and looking for gentle support.' },
  { name: 'Priya Shah', email: 'priya.shah@example.com', reason: null },
  { name: 'Tom Whitaker', email: 'tom.whitaker@example.com', reason: 'Starting the day with intention.' },
  { name: 'Lena Berg', email: 'lena.berg@example.com', reason: '=HYPERLINK("http://evil.example","click") (a CSV-injection test row)' },
];

export function waitlistRoutes(app: FastifyInstance, { auth, db, limits, sandbox }: { auth: Auth; db: Database; limits: RateLimitStore; sandbox: boolean }): void {
  app.post('/api/waitlist', async (request, reply) => {
    const input = body.parse(request.body ?? {});
    // A filled honeypot is a bot: refuse without saying why.
    if (input.website?.trim()) {
      await logSecurityEvent({ db, eventType: 'rate_limit_exceeded', severity: 'low', ipAddress: request.ip, details: { reason: 'waitlist honeypot' } });
      throw new AppError('validation/invalid-input', WAITLIST_MESSAGES.honeypotBody, 400, { honeypot: true });
    }
    const { count } = await limits.hit(`waitlist:${request.ip}`, WAITLIST.windowMs, request.ip);
    if (count > WAITLIST.perIpLimit) {
      await logSecurityEvent({ db, eventType: 'rate_limit_exceeded', severity: 'medium', ipAddress: request.ip, details: { action: 'waitlist' } });
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
      return reply.status(201).send({ id: row!.id, createdAt: row!.createdAt.toISOString() });
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError('database/duplicate-email', ERROR_TEXT['database/duplicate-email'], 409, { sqlstate: '23505' });
      throw error;
    }
  });

  const admin = { preHandler: requireRole(auth, db, ['admin']) };

  const list = async (): Promise<WaitlistEntryView[]> =>
    (await db.select().from(waitlistEntries).orderBy(desc(waitlistEntries.createdAt))).map((e) => ({
      id: e.id,
      name: unescapeText(e.name),
      email: e.email,
      reason: e.reason === null ? null : unescapeText(e.reason),
      createdAt: e.createdAt.toISOString(),
    }));

  app.get('/api/admin/waitlist', admin, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return { entries: await list() };
  });

  app.get('/api/admin/waitlist/export', admin, async (request, reply) => {
    const entries = await list();
    await logAdminAction(db, request, { action: 'waitlist.export', targetResource: 'waitlist_entries', metadata: { rows: entries.length } });
    const now = new Date();
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${waitlistCsvName(now)}"`)
      .header('cache-control', 'no-store')
      .send('\uFEFF' + toCsv(WAITLIST_CSV_HEADER, entries.map((e) => [e.name, e.email, e.reason ?? '', e.createdAt])));
  });

  app.delete('/api/admin/waitlist', admin, async (request) => {
    const deleted = await db.delete(waitlistEntries).returning({ id: waitlistEntries.id });
    await logAdminAction(db, request, { action: 'waitlist.clear', targetResource: 'waitlist_entries', changes: { deleted: deleted.length }, severity: 'high' });
    return { deleted: deleted.length };
  });

  app.post('/api/admin/waitlist/test-data', admin, async (request) => {
    if (!sandbox) throw new AppError('auth/forbidden', ADMIN_MESSAGES.sandboxOnly, 403);
    const inserted = await db
      .insert(waitlistEntries)
      .values(SAMPLE.map((s) => ({ name: sanitizeText(s.name, WAITLIST.nameMax), email: s.email, reason: s.reason ? sanitizeText(s.reason, WAITLIST.reasonMax) : null })))
      .onConflictDoNothing()
      .returning({ id: waitlistEntries.id });
    await logAdminAction(db, request, { action: 'waitlist.test-data', targetResource: 'waitlist_entries', changes: { inserted: inserted.length }, severity: 'low' });
    return { inserted: inserted.length };
  });
}
