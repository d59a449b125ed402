/**
 * Sessions and the practice summary. The server decides what a session credits (issue 20, item 3):
 * the listening the device measured, capped by the catalogue's measured length of the track (itself
 * capped at the 4-hour maximum), complete or partial by the shared rule in listening.ts. Each device
 * play id is accepted once.
 */
import { and, desc, eq, isNotNull, sql } from 'drizzle-orm';
import { dayKey } from '#shared/days.ts';
import { creditListening, isCompleteListen } from '#shared/listening.ts';
import { computeStreaks, PRACTICE_MESSAGES, SESSION_FUTURE_SKEW_MS, SESSION_MAX_AGE_DAYS, sessionMinutes, weekOf, type SessionKind } from '#shared/practice.ts';
import { MAX_AUDIO_SECONDS } from '#shared/constants.ts';
import type { GuidedSessionBody, PracticePreferencesBody, PracticePreferencesResponse, PracticeResponse, RecentSession, RecordSessionBody, RecordSessionResponse, TimerSessionBody } from '#shared/contracts/practice.ts';
import type { Database } from '#server/db/client.ts';
import { meditationPreviews } from '#server/db/schema/catalogue.ts';
import { meditationSessions, practicePreferences } from '#server/db/schema/practice.ts';
import { AppError } from '#server/errors.ts';

export async function recordSession({ db, userId, body, now = new Date() }: { db: Database; userId: string; body: RecordSessionBody; now?: Date }): Promise<RecordSessionResponse> {
  const completedAt = new Date(body.completedAt);
  if (completedAt.getTime() > now.getTime() + SESSION_FUTURE_SKEW_MS) throw new AppError('validation/invalid-input', PRACTICE_MESSAGES.sessionInFuture, 400);
  if (completedAt.getTime() < now.getTime() - SESSION_MAX_AGE_DAYS * 24 * 60 * 60 * 1000) throw new AppError('validation/invalid-input', PRACTICE_MESSAGES.sessionTooOld, 400);

  const credited = body.kind === 'timer' ? creditTimer(body) : await creditGuided(db, body);
  const listenedSeconds = Math.round(credited.listenedSeconds);
  const inserted = await db
    .insert(meditationSessions)
    .values({ userId, clientId: body.id, completedAt, durationMinutes: sessionMinutes(listenedSeconds), listenedSeconds, ...credited.row })
    .onConflictDoNothing({ target: [meditationSessions.userId, meditationSessions.clientId] })
    .returning();
  const row = inserted[0] ?? (await db.select().from(meditationSessions).where(and(eq(meditationSessions.userId, userId), eq(meditationSessions.clientId, body.id))))[0];
  return {
    created: inserted.length > 0,
    session: { id: row.clientId, kind: row.kind, meditationId: row.meditationId, durationMinutes: row.durationMinutes, completedAt: row.completedAt.toISOString(), complete: row.complete },
  };
}

type Credited = { listenedSeconds: number; row: { kind: SessionKind; meditationId: string | null; plannedSeconds: number | null; complete: boolean } };

/** A guided play: what was heard of the track, against the catalogue's length of it. */
async function creditGuided(db: Database, body: GuidedSessionBody): Promise<Credited> {
  const meditation = (await db.select({ durationSeconds: meditationPreviews.durationSeconds }).from(meditationPreviews).where(eq(meditationPreviews.id, body.meditationId))).at(0);
  if (!meditation) throw new AppError('not-found', PRACTICE_MESSAGES.meditationNotFound);
  const credit = creditListening({ ranges: body.listened.ranges, listenedSeconds: body.listened.seconds, trackSeconds: trackLength(meditation.durationSeconds) });
  return { listenedSeconds: credit.listenedSeconds, row: { kind: 'guided', meditationId: body.meditationId, plannedSeconds: null, complete: credit.complete } };
}

/**
 * A timer sitting: the time sat (the contract caps it at the length chosen), complete by the same
 * rule as a guided track, with the chosen length standing for the track's.
 */
function creditTimer(body: TimerSessionBody): Credited {
  const { plannedSeconds, satSeconds } = body.timer;
  return { listenedSeconds: satSeconds, row: { kind: 'timer', meditationId: null, plannedSeconds, complete: isCompleteListen(satSeconds, plannedSeconds) } };
}

/**
 * The track's real length for crediting: the catalogue's measured duration, never more than the
 * longest meditation there can be. Rows stored before uploads were cross-checked may hold a length
 * a crafted header made up (1.8 million minutes). Unknown length credits nothing: 0.
 */
function trackLength(durationSeconds: number | null): number {
  return durationSeconds == null ? 0 : Math.min(durationSeconds, MAX_AUDIO_SECONDS);
}

/** The same cap on read, so sessions recorded before it cannot poison the totals. */
const MAX_SESSION_MINUTES = Math.round(MAX_AUDIO_SECONDS / 60);

async function getPreferences(db: Database, userId: string): Promise<PracticePreferencesResponse> {
  const prefs = (await db.select({ showStreaks: practicePreferences.showStreaks, focus: practicePreferences.focus }).from(practicePreferences).where(eq(practicePreferences.userId, userId))).at(0);
  return { showStreaks: prefs?.showStreaks ?? true, focus: prefs?.focus ?? null };
}

/** The meditation of the latest session, partial ones too (where they left off), when it is still in the catalogue. */
async function lastMeditation(db: Database, userId: string): Promise<string | null> {
  const row = (
    await db
      .select({ id: meditationSessions.meditationId })
      .from(meditationSessions)
      .where(and(eq(meditationSessions.userId, userId), isNotNull(meditationSessions.meditationId)))
      .orderBy(desc(meditationSessions.completedAt))
      .limit(1)
  ).at(0);
  return row?.id ?? null;
}

/** The distinct meditations this user has completed (still in the catalogue); a partial listen is not 'Played'. */
export async function listPlayed({ db, userId }: { db: Database; userId: string }): Promise<string[]> {
  const rows = await db
    .selectDistinct({ id: meditationSessions.meditationId })
    .from(meditationSessions)
    .where(and(eq(meditationSessions.userId, userId), isNotNull(meditationSessions.meditationId), eq(meditationSessions.complete, true)));
  return rows.flatMap((r) => (r.id ? [r.id] : []));
}

/** Changes what the body names and keeps the rest; answers with both preferences as stored. */
export async function setPreferences(db: Database, userId: string, body: PracticePreferencesBody): Promise<PracticePreferencesResponse> {
  const changes = { ...(body.showStreaks === undefined ? {} : { showStreaks: body.showStreaks }), ...(body.focus === undefined ? {} : { focus: body.focus }) };
  const [row] = await db
    .insert(practicePreferences)
    .values({ userId, ...changes })
    .onConflictDoUpdate({ target: practicePreferences.userId, set: { ...changes, updatedAt: new Date() } })
    .returning({ showStreaks: practicePreferences.showStreaks, focus: practicePreferences.focus });
  return row;
}

export async function getPractice({ db, userId, timezone, now = new Date() }: { db: Database; userId: string; timezone: string; now?: Date }): Promise<PracticeResponse> {
  // Days are counted in the user's timezone by the database, so the work stays one grouped query.
  // Counts are typed as the drivers may hand them over (a string for wider integers), and converted below.
  const day = sql<string>`to_char(${meditationSessions.completedAt} at time zone ${timezone}, 'YYYY-MM-DD')`;
  // Only complete sessions count as sessions and streak days; every session's listened minutes count (decision 0034).
  const rows = await db
    .select({
      date: day,
      sessions: sql<number | string>`count(*) filter (where ${meditationSessions.complete})::int`,
      minutes: sql<number | string>`coalesce(sum(least(${meditationSessions.durationMinutes}, ${MAX_SESSION_MINUTES}::int)), 0)::int`,
    })
    .from(meditationSessions)
    .where(eq(meditationSessions.userId, userId))
    .groupBy(sql`1`); // positional: the timezone is a bound parameter, so the expression is not textually equal
  const today = dayKey(now, timezone);
  const totals = rows.map((r) => ({ date: r.date, sessions: Number(r.sessions), minutes: Number(r.minutes) }));
  const streaks = computeStreaks(totals.filter((t) => t.sessions > 0).map((t) => t.date), today);
  const [{ showStreaks, focus }, lastMeditationId, recent] = await Promise.all([getPreferences(db, userId), lastMeditation(db, userId), recentSessions(db, userId)]);
  return {
    totalSessions: totals.reduce((n, t) => n + t.sessions, 0),
    totalMinutes: totals.reduce((n, t) => n + t.minutes, 0),
    currentStreak: showStreaks ? streaks.current : null,
    longestStreak: showStreaks ? streaks.longest : null,
    showStreaks,
    timezone,
    today,
    week: weekOf(today, totals),
    focus,
    lastMeditationId,
    recent,
  };
}

/** How many of the latest sessions the practice card lists. */
const RECENT_SESSIONS = 10;

/** The latest sessions, newest first, with the track's title and length (null once it left the catalogue). */
async function recentSessions(db: Database, userId: string): Promise<RecentSession[]> {
  const rows = await db
    .select({
      id: meditationSessions.clientId,
      kind: meditationSessions.kind,
      meditationId: meditationSessions.meditationId,
      title: meditationPreviews.title,
      completedAt: meditationSessions.completedAt,
      minutes: meditationSessions.durationMinutes,
      trackSeconds: meditationPreviews.durationSeconds,
      plannedSeconds: meditationSessions.plannedSeconds,
      complete: meditationSessions.complete,
    })
    .from(meditationSessions)
    .leftJoin(meditationPreviews, eq(meditationPreviews.id, meditationSessions.meditationId))
    .where(eq(meditationSessions.userId, userId))
    .orderBy(desc(meditationSessions.completedAt))
    .limit(RECENT_SESSIONS);
  return rows.map(({ trackSeconds, plannedSeconds, completedAt, minutes, ...row }) => {
    // A timer session's length is the one chosen; a guided one's, its track's.
    const length = row.kind === 'timer' ? plannedSeconds : trackSeconds;
    return {
      ...row,
      completedAt: completedAt.toISOString(),
      minutes: minutes == null ? null : Math.min(minutes, MAX_SESSION_MINUTES),
      trackMinutes: sessionMinutes(length == null ? null : Math.min(length, MAX_AUDIO_SECONDS)),
    };
  });
}
