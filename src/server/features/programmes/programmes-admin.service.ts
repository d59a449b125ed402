/**
 * Programmes for the admin dashboard (decision 0051): create, edit, publish, order and delete, each
 * with its audit row in the same transaction. The one rule beyond shape: day 1 must be a meditation
 * marked free to try, so "day 1 is free" needs no new hole in the playback check.
 */
import { and, asc, count, eq, inArray } from 'drizzle-orm';
import type { AdminProgramme, ProgrammeBody } from '#shared/contracts/programmes.ts';
import { PROGRAMME_LIMITS, PROGRAMME_MESSAGES as M } from '#shared/programmes.ts';
import type { Database } from '#server/db/client.ts';
import { isUniqueViolation } from '#server/db/errors.ts';
import { meditationPreviews } from '#server/db/schema/catalogue.ts';
import { programmeDays, programmes } from '#server/db/schema/programmes.ts';
import { AppError } from '#server/errors.ts';
import { logAdminAction, type AuditContext } from '#server/features/admin/admin-audit.service.ts';

const invalid = (message: string) => new AppError('validation/invalid-input', message, 400);

/** Every programme, published or not, in the list's order, with each day's meditation (null once deleted). */
export async function listAdminProgrammes({ db, ids }: { db: Database; ids?: string[] }): Promise<AdminProgramme[]> {
  const rows = await db
    .select()
    .from(programmes)
    .where(ids ? inArray(programmes.id, ids) : undefined)
    .orderBy(asc(programmes.position), asc(programmes.createdAt));
  if (rows.length === 0) return [];
  const days = await db
    .select({ programmeId: programmeDays.programmeId, number: programmeDays.dayNumber, meditationId: programmeDays.meditationId, reflection: programmeDays.reflection, title: meditationPreviews.title, free: meditationPreviews.free })
    .from(programmeDays)
    .leftJoin(meditationPreviews, eq(meditationPreviews.id, programmeDays.meditationId))
    .where(inArray(programmeDays.programmeId, rows.map((r) => r.id)))
    .orderBy(asc(programmeDays.dayNumber));
  return rows.map((row) => {
    const own = days.filter((d) => d.programmeId === row.id).map(({ programmeId: _, free, title, ...day }) => ({ ...day, title: title ?? null, free: free ?? false }));
    return {
      id: row.id,
      slug: row.slug,
      title: row.title,
      description: row.description,
      cover: row.cover,
      published: row.published,
      position: row.position,
      updatedAt: row.updatedAt.toISOString(),
      dayCount: own.filter((d) => d.meditationId !== null).length,
      days: own,
    };
  });
}

async function adminProgramme(db: Database, id: string): Promise<AdminProgramme> {
  const found = (await listAdminProgrammes({ db, ids: [id] })).at(0);
  if (!found) throw new AppError('not-found', M.notFound);
  return found;
}

/** Whether the meditation is day 1 of a published programme (so it must stay free to try: decision 0051). */
export async function isDayOneOfPublished(db: Database, meditationId: string): Promise<boolean> {
  const rows = await db
    .select({ id: programmes.id })
    .from(programmeDays)
    .innerJoin(programmes, eq(programmes.id, programmeDays.programmeId))
    .where(and(eq(programmeDays.meditationId, meditationId), eq(programmeDays.dayNumber, 1), eq(programmes.published, true)))
    .limit(1);
  return rows.length > 0;
}

/** Every day names a catalogue meditation, and day 1's is free to try. */
async function checkDays(db: Database, days: ProgrammeBody['days']): Promise<void> {
  const ids = [...new Set(days.map((d) => d.meditationId))];
  const found = await db.select({ id: meditationPreviews.id, free: meditationPreviews.free }).from(meditationPreviews).where(inArray(meditationPreviews.id, ids));
  if (found.length !== ids.length) throw invalid(M.unknownMeditation);
  if (!found.find((m) => m.id === days[0].meditationId)?.free) throw invalid(M.dayOneNotFree);
}

const dayRows = (programmeId: string, days: ProgrammeBody['days']) => days.map((d, i) => ({ programmeId, dayNumber: i + 1, meditationId: d.meditationId, reflection: d.reflection ?? null }));

function slugTaken(error: unknown): unknown {
  return isUniqueViolation(error) ? new AppError('database/constraint-violation', M.slugTaken, 409) : error;
}

export async function createProgramme({ db, by, input }: { db: Database; by: AuditContext; input: ProgrammeBody }): Promise<AdminProgramme> {
  await checkDays(db, input.days);
  const id = await db
    .transaction(async (tx) => {
      const [{ n }] = await tx.select({ n: count() }).from(programmes);
      if (n >= PROGRAMME_LIMITS.programmesMax) throw new AppError('database/constraint-violation', M.tooMany, 409);
      const [row] = await tx
        .insert(programmes)
        .values({ slug: input.slug, title: input.title, description: input.description, cover: input.cover, published: input.published ?? false, position: n })
        .returning({ id: programmes.id });
      await tx.insert(programmeDays).values(dayRows(row.id, input.days));
      await logAdminAction({ db: tx, by, entry: { action: 'programme.create', targetResource: 'programmes', targetId: row.id, changes: { slug: input.slug, days: input.days.length, published: input.published ?? false } } });
      return row.id;
    })
    .catch((error: unknown) => {
      throw slugTaken(error);
    });
  return adminProgramme(db, id);
}

/** Replaces a programme's fields and days. People already enrolled keep their start; their progress is re-derived on the new days. */
export async function updateProgramme({ db, by, id, input }: { db: Database; by: AuditContext; id: string; input: ProgrammeBody }): Promise<AdminProgramme> {
  const before = await adminProgramme(db, id);
  await checkDays(db, input.days);
  await db
    .transaction(async (tx) => {
      await tx
        .update(programmes)
        .set({ slug: input.slug, title: input.title, description: input.description, cover: input.cover, published: input.published ?? before.published, updatedAt: new Date() })
        .where(eq(programmes.id, id));
      await tx.delete(programmeDays).where(eq(programmeDays.programmeId, id));
      await tx.insert(programmeDays).values(dayRows(id, input.days));
      await logAdminAction({
        db: tx,
        by,
        entry: { action: 'programme.update', targetResource: 'programmes', targetId: id, changes: { slug: before.slug === input.slug ? undefined : { from: before.slug, to: input.slug }, days: input.days.length } },
      });
    })
    .catch((error: unknown) => {
      throw slugTaken(error);
    });
  return adminProgramme(db, id);
}

export async function setPublished({ db, by, id, published }: { db: Database; by: AuditContext; id: string; published: boolean }): Promise<AdminProgramme> {
  const before = await adminProgramme(db, id);
  // Publishing re-checks day 1: its meditation may have stopped being free since the programme was saved.
  if (published && !before.days.find((d) => d.number === 1)?.free) throw invalid(M.dayOneNotFree);
  await db.transaction(async (tx) => {
    await tx.update(programmes).set({ published, updatedAt: new Date() }).where(eq(programmes.id, id));
    await logAdminAction({ db: tx, by, entry: { action: published ? 'programme.publish' : 'programme.unpublish', targetResource: 'programmes', targetId: id } });
  });
  return adminProgramme(db, id);
}

/** Sets the list's order: `ids` must name every programme exactly once. */
export async function orderProgrammes({ db, by, ids }: { db: Database; by: AuditContext; ids: string[] }): Promise<AdminProgramme[]> {
  const existing = await db.select({ id: programmes.id }).from(programmes);
  const known = new Set(existing.map((r) => r.id));
  if (new Set(ids).size !== ids.length || ids.length !== known.size || !ids.every((id) => known.has(id))) throw invalid(M.badOrder);
  await db.transaction(async (tx) => {
    for (const [position, id] of ids.entries()) await tx.update(programmes).set({ position }).where(eq(programmes.id, id));
    await logAdminAction({ db: tx, by, entry: { action: 'programme.order', targetResource: 'programmes', changes: { ids } } });
  });
  return listAdminProgrammes({ db });
}

/** Deletes a programme; its enrolments go with it (sessions stay: they are practice). */
export async function deleteProgramme({ db, by, id }: { db: Database; by: AuditContext; id: string }): Promise<void> {
  const before = await adminProgramme(db, id);
  await db.transaction(async (tx) => {
    await tx.delete(programmes).where(eq(programmes.id, id));
    await logAdminAction({ db: tx, by, entry: { action: 'programme.delete', targetResource: 'programmes', targetId: id, changes: { slug: before.slug }, severity: 'high' } });
  });
}
