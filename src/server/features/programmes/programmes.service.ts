/**
 * Programmes for listeners (decision 0051): the published courses, and each person's enrolments with
 * progress derived from their complete sessions (src/shared/programmes.ts), never stored, so every
 * device sees the same day and a restart or a late offline upload needs no bookkeeping.
 */
import { and, asc, desc, eq, gte, inArray, isNotNull } from 'drizzle-orm';
import type { ProgrammeDay, ProgrammeDetail, ProgrammeProgressView, ProgrammeSummary } from '#shared/contracts/programmes.ts';
import { PROGRAMME_MESSAGES as M, programmeProgress } from '#shared/programmes.ts';
import type { Database } from '#server/db/client.ts';
import { meditationPreviews } from '#server/db/schema/catalogue.ts';
import { meditationSessions } from '#server/db/schema/practice.ts';
import { programmeDays, programmeEnrolments, programmes } from '#server/db/schema/programmes.ts';
import { AppError } from '#server/errors.ts';

type ProgrammeRow = typeof programmes.$inferSelect;

/** The days of these programmes whose meditation is still in the catalogue, in order, numbered from 1. */
async function daysOf(db: Database, programmeIds: string[]): Promise<Map<string, ProgrammeDay[]>> {
  const byProgramme = new Map<string, ProgrammeDay[]>(programmeIds.map((id) => [id, []]));
  if (programmeIds.length === 0) return byProgramme;
  const rows = await db
    .select({
      programmeId: programmeDays.programmeId,
      reflection: programmeDays.reflection,
      id: meditationPreviews.id,
      title: meditationPreviews.title,
      duration: meditationPreviews.duration,
      durationSeconds: meditationPreviews.durationSeconds,
      free: meditationPreviews.free,
    })
    .from(programmeDays)
    .innerJoin(meditationPreviews, eq(meditationPreviews.id, programmeDays.meditationId))
    .where(inArray(programmeDays.programmeId, programmeIds))
    .orderBy(asc(programmeDays.programmeId), asc(programmeDays.dayNumber));
  for (const { programmeId, reflection, ...meditation } of rows) {
    const days = byProgramme.get(programmeId);
    days?.push({ number: days.length + 1, meditation, reflection });
  }
  return byProgramme;
}

const summaryOf = (row: ProgrammeRow, dayCount: number): ProgrammeSummary => ({ id: row.id, slug: row.slug, title: row.title, description: row.description, cover: row.cover, dayCount });

/** Published programmes in the admin's order. */
export async function listProgrammes({ db }: { db: Database }): Promise<ProgrammeSummary[]> {
  const rows = await db.select().from(programmes).where(eq(programmes.published, true)).orderBy(asc(programmes.position), asc(programmes.createdAt));
  const days = await daysOf(db, rows.map((r) => r.id));
  return rows.map((row) => summaryOf(row, days.get(row.id)?.length ?? 0));
}

async function findPublished(db: Database, slug: string): Promise<ProgrammeRow> {
  const row = (await db.select().from(programmes).where(and(eq(programmes.slug, slug), eq(programmes.published, true)))).at(0);
  if (!row) throw new AppError('not-found', M.notFound);
  return row;
}

/** One published programme with its days; 'not-found' for an unknown or unpublished one. */
export async function getProgramme({ db, slug }: { db: Database; slug: string }): Promise<ProgrammeDetail> {
  const row = await findPublished(db, slug);
  const days = (await daysOf(db, [row.id])).get(row.id) ?? [];
  return { ...summaryOf(row, days.length), days };
}

/** The person's enrolments in published programmes (one, with `slug`), most recently started first, with progress as of `now`. */
export async function listProgress({ db, userId, slug, now = new Date() }: { db: Database; userId: string; slug?: string; now?: Date }): Promise<ProgrammeProgressView[]> {
  const rows = await db
    .select({ enrolment: programmeEnrolments, programme: programmes })
    .from(programmeEnrolments)
    .innerJoin(programmes, eq(programmes.id, programmeEnrolments.programmeId))
    .where(and(eq(programmeEnrolments.userId, userId), eq(programmes.published, true), slug === undefined ? undefined : eq(programmes.slug, slug)))
    .orderBy(desc(programmeEnrolments.startedAt));
  if (rows.length === 0) return [];
  const days = await daysOf(db, rows.map((r) => r.programme.id));
  const meditationIds = [...new Set([...days.values()].flat().map((d) => d.meditation.id))];
  const earliest = new Date(Math.min(...rows.map((r) => r.enrolment.startedAt.getTime())));
  // Complete guided sessions of the programmes' meditations since the earliest enrolment: the only ones that can count.
  const sessions =
    meditationIds.length === 0
      ? []
      : await db
          .select({ meditationId: meditationSessions.meditationId, completedAt: meditationSessions.completedAt })
          .from(meditationSessions)
          .where(
            and(
              eq(meditationSessions.userId, userId),
              eq(meditationSessions.complete, true),
              isNotNull(meditationSessions.meditationId),
              inArray(meditationSessions.meditationId, meditationIds),
              gte(meditationSessions.completedAt, earliest),
            ),
          );
  const counted = sessions.flatMap((s) => (s.meditationId ? [{ meditationId: s.meditationId, completedAt: s.completedAt }] : []));
  return rows.map(({ enrolment, programme }) => {
    const programmeDaysList = days.get(programme.id) ?? [];
    const progress = programmeProgress({ days: programmeDaysList.map((d) => d.meditation.id), enrolment, sessions: counted, now });
    return {
      slug: programme.slug,
      title: programme.title,
      dayCount: programmeDaysList.length,
      startedAt: enrolment.startedAt.toISOString(),
      timeZone: enrolment.timeZone,
      doneCount: progress.doneCount,
      current: progress.current,
      opensOn: progress.opensOn,
      finished: progress.finished,
      days: progress.days.map((d) => ({ number: d.number, state: d.state, doneAt: d.doneAt?.toISOString() ?? null })),
    };
  });
}

async function progressOf(db: Database, userId: string, slug: string, now: Date): Promise<ProgrammeProgressView> {
  const progress = (await listProgress({ db, userId, slug, now })).at(0);
  if (!progress) throw new AppError('not-found', M.notEnrolled);
  return progress;
}

/**
 * Starts a published programme (day 1 opens now), or with `restart` starts it again from day 1.
 * Starting one already started changes nothing (a second device pressing "Start programme" must not
 * wipe the first one's progress).
 */
export async function enrol({ db, userId, slug, timeZone, restart = false, now = new Date() }: { db: Database; userId: string; slug: string; timeZone: string; restart?: boolean; now?: Date }): Promise<ProgrammeProgressView> {
  const programme = await findPublished(db, slug);
  const values = { userId, programmeId: programme.id, startedAt: now, timeZone, openedEarly: 0, updatedAt: now };
  const insert = db.insert(programmeEnrolments).values(values);
  await (restart
    ? insert.onConflictDoUpdate({ target: [programmeEnrolments.userId, programmeEnrolments.programmeId], set: { startedAt: now, timeZone, openedEarly: 0, updatedAt: now } })
    : insert.onConflictDoNothing());
  return progressOf(db, userId, slug, now);
}

/** Leaves a programme: the enrolment goes, the sessions stay (they are practice). False when not enrolled. */
export async function leave({ db, userId, slug }: { db: Database; userId: string; slug: string }): Promise<boolean> {
  const programme = await findPublished(db, slug);
  const removed = await db
    .delete(programmeEnrolments)
    .where(and(eq(programmeEnrolments.userId, userId), eq(programmeEnrolments.programmeId, programme.id)))
    .returning({ userId: programmeEnrolments.userId });
  return removed.length > 0;
}

/** "Don't wait": opens the day waiting for tomorrow now. 409 when no day is waiting. */
export async function openNextDay({ db, userId, slug, now = new Date() }: { db: Database; userId: string; slug: string; now?: Date }): Promise<ProgrammeProgressView> {
  const progress = await progressOf(db, userId, slug, now);
  if (progress.opensOn === null || progress.current === null) throw new AppError('database/constraint-violation', M.nothingToOpen, 409);
  const programme = await findPublished(db, slug);
  await db
    .update(programmeEnrolments)
    .set({ openedEarly: progress.current, updatedAt: now })
    .where(and(eq(programmeEnrolments.userId, userId), eq(programmeEnrolments.programmeId, programme.id)));
  return progressOf(db, userId, slug, now);
}
