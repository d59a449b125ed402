/**
 * Sessions and the practice summary. The server decides what a session credits (issue 20, item 3):
 * the listening the device measured, capped by the catalogue's measured length of the track (itself
 * capped at the 4-hour maximum), complete or partial by the shared rule in listening.ts. Each device
 * play id is accepted once.
 *
 * Issue 33, row 10: only what the person could play is counted (a premium track needs the subscription
 * at the time of the session; free tracks, timer sittings and breathing exercises need nothing), one session at a time (a
 * session ending at its completion time, as long as it credits, may not overlap another), and at most
 * SESSIONS_PER_DAY_MAX a day. Sessions uploaded late from an offline device are judged against every
 * session already stored, whatever order they arrive in.
 */
import { and, desc, eq, gte, isNotNull, lt, ne, sql } from 'drizzle-orm';
import { dayKey } from '#shared/days.ts';
import { creditListening, isCompleteListen } from '#shared/listening.ts';
import { computeStreaks, PRACTICE_MESSAGES, SESSION_FUTURE_SKEW_MS, SESSION_MAX_AGE_DAYS, SESSION_OVERLAP_GRACE_SECONDS, SESSIONS_PER_DAY_MAX, sessionMinutes, weekOf, type SessionKind } from '#shared/practice.ts';
import { isSubscriptionActive } from '#shared/billing.ts';
import { isStaff, type Role } from '#shared/roles.ts';
import { can } from '#shared/policies.ts';
import { MAX_AUDIO_SECONDS } from '#shared/constants.ts';
import { planBreathing } from '#shared/breathing.ts';
import type { BreathingSessionBody, GuidedSessionBody, PracticePreferencesBody, PracticePreferencesResponse, PracticeResponse, RecentSession, RecordSessionBody, RecordSessionResponse, TimerSessionBody } from '#shared/contracts/practice.ts';
import type { Database } from '#server/db/client.ts';
import { meditationPreviews } from '#server/db/schema/catalogue.ts';
import { meditationSessions, practicePreferences } from '#server/db/schema/practice.ts';
import { AppError } from '#server/errors.ts';
import { getSubscription } from '#server/features/billing/subscriptions.service.ts';

type SessionRow = typeof meditationSessions.$inferSelect;

const reply = (row: SessionRow, created: boolean): RecordSessionResponse => ({
  created,
  session: { id: row.clientId, kind: row.kind, meditationId: row.meditationId, durationMinutes: row.durationMinutes, completedAt: row.completedAt.toISOString(), complete: row.complete },
});

export async function recordSession({ db, userId, role = 'user', body, now = new Date() }: { db: Database; userId: string; role?: Role; body: RecordSessionBody; now?: Date }): Promise<RecordSessionResponse> {
  const completedAt = new Date(body.completedAt);
  if (completedAt.getTime() > now.getTime() + SESSION_FUTURE_SKEW_MS) throw new AppError('validation/invalid-input', PRACTICE_MESSAGES.sessionInFuture, 400);
  if (completedAt.getTime() < now.getTime() - SESSION_MAX_AGE_DAYS * 24 * 60 * 60 * 1000) throw new AppError('validation/invalid-input', PRACTICE_MESSAGES.sessionTooOld, 400);

  return db.transaction(async (tx) => {
    // One session at a time per account, so two uploads that overlap each other cannot both pass the checks.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`practice:${userId}`}))`);
    // A play already recorded (a retry, a second 'ended' event) answers as it was, whatever changed since.
    const known = (await tx.select().from(meditationSessions).where(and(eq(meditationSessions.userId, userId), eq(meditationSessions.clientId, body.id)))).at(0);
    if (known) return reply(known, false);

    const credited = body.kind === 'timer' ? creditTimer(body) : body.kind === 'breathing' ? creditBreathing(body) : await creditGuided(tx, body, { userId, role, completedAt, now });
    const listenedSeconds = Math.round(credited.listenedSeconds);
    await refuseBeyondOneAtATime(tx, userId, completedAt, listenedSeconds);
    const [row] = await tx
      .insert(meditationSessions)
      .values({ userId, clientId: body.id, completedAt, durationMinutes: sessionMinutes(listenedSeconds), listenedSeconds, ...credited.row })
      .returning();
    return reply(row, true);
  });
}

/**
 * Whether the person was entitled when the session ended: staff and current subscribers are; so is
 * someone whose subscription (since lapsed) covered that moment, for a session uploaded late.
 */
async function entitledAt(db: Database, userId: string, role: Role, at: Date, now: Date): Promise<boolean> {
  if (isStaff(role)) return true;
  const subscription = await getSubscription(db, userId);
  if (!subscription) return false;
  if (isSubscriptionActive(subscription, now)) return true;
  const end = subscription.currentPeriodEnd;
  return end !== null && at < end && at.getTime() >= subscription.createdAt.getTime() - SESSION_FUTURE_SKEW_MS;
}

/** Refuses a session that overlaps another of the person's (beyond the grace), or one past the day's bound. */
async function refuseBeyondOneAtATime(db: Database, userId: string, completedAt: Date, listenedSeconds: number): Promise<void> {
  const dayStart = new Date(Date.UTC(completedAt.getUTCFullYear(), completedAt.getUTCMonth(), completedAt.getUTCDate()));
  const [{ count }] = await db
    .select({ count: sql<number | string>`count(*)::int` })
    .from(meditationSessions)
    .where(and(eq(meditationSessions.userId, userId), gte(meditationSessions.completedAt, dayStart), lt(meditationSessions.completedAt, new Date(dayStart.getTime() + 86_400_000))));
  if (Number(count) >= SESSIONS_PER_DAY_MAX) throw new AppError('database/constraint-violation', PRACTICE_MESSAGES.tooManySessions, 409);

  // A stored session [end − listened, end] overlaps this one [start, completedAt] by more than the grace.
  const start = new Date(completedAt.getTime() - listenedSeconds * 1000);
  const grace = SESSION_OVERLAP_GRACE_SECONDS;
  if (listenedSeconds <= grace) return;
  const storedStart = sql`${meditationSessions.completedAt} - make_interval(secs => coalesce(${meditationSessions.listenedSeconds}, 0))`;
  const overlapping = await db
    .select({ id: meditationSessions.id })
    .from(meditationSessions)
    .where(
      and(
        eq(meditationSessions.userId, userId),
        // Bounds on the indexed column first: a stored session ends after this one starts and starts (at most 4 hours before its end) before this one ends.
        gte(meditationSessions.completedAt, new Date(start.getTime() + grace * 1000)),
        lt(meditationSessions.completedAt, new Date(completedAt.getTime() + MAX_AUDIO_SECONDS * 1000)),
        sql`extract(epoch from least(${meditationSessions.completedAt}, ${completedAt}::timestamptz) - greatest(${storedStart}, ${start}::timestamptz)) > ${grace}`,
        ne(meditationSessions.listenedSeconds, 0),
      ),
    )
    .limit(1);
  if (overlapping.length > 0) throw new AppError('database/constraint-violation', PRACTICE_MESSAGES.sessionOverlaps, 409);
}

type Credited = { listenedSeconds: number; row: { kind: SessionKind; meditationId: string | null; plannedSeconds: number | null; complete: boolean } };

/** A guided play: what was heard of the track, against the catalogue's length of it; a premium track only for someone who could play it then. */
async function creditGuided(db: Database, body: GuidedSessionBody, who: { userId: string; role: Role; completedAt: Date; now: Date }): Promise<Credited> {
  const meditation = (await db.select({ durationSeconds: meditationPreviews.durationSeconds, free: meditationPreviews.free }).from(meditationPreviews).where(eq(meditationPreviews.id, body.meditationId))).at(0);
  if (!meditation) throw new AppError('not-found', PRACTICE_MESSAGES.meditationNotFound);
  // Asked only for a premium track: a free one needs no look-up.
  if (!can({ subscribed: meditation.free || (await entitledAt(db, who.userId, who.role, who.completedAt, who.now)) }, 'listen', meditation)) throw new AppError('subscription/required', PRACTICE_MESSAGES.needsSubscription, 403);
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
 * A breathing exercise (issue 37, item 1): the seconds breathed (the contract caps them at the
 * exercise's length), complete by the timer's rule, the length being the one the shared schedule
 * makes of the pattern and length chosen.
 */
function creditBreathing(body: BreathingSessionBody): Credited {
  const { breathedSeconds } = body.breathing;
  const plannedSeconds = Math.round(planBreathing(body.breathing).totalSeconds);
  return { listenedSeconds: breathedSeconds, row: { kind: 'breathing', meditationId: null, plannedSeconds, complete: isCompleteListen(breathedSeconds, plannedSeconds) } };
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
      // Seconds, summed before any rounding (issue 38); rows from before listening was measured count their minutes.
      seconds: sql<number | string>`coalesce(sum(least(coalesce(${meditationSessions.listenedSeconds}, ${meditationSessions.durationMinutes} * 60), ${MAX_SESSION_MINUTES * 60}::int)), 0)::int`,
    })
    .from(meditationSessions)
    .where(eq(meditationSessions.userId, userId))
    .groupBy(sql`1`); // positional: the timezone is a bound parameter, so the expression is not textually equal
  const today = dayKey(now, timezone);
  const totals = rows.map((r) => ({ date: r.date, sessions: Number(r.sessions), minutes: sessionMinutes(Number(r.seconds)) ?? 0 }));
  const totalSeconds = rows.reduce((n, r) => n + Number(r.seconds), 0);
  const streaks = computeStreaks(totals.filter((t) => t.sessions > 0).map((t) => t.date), today);
  const [{ showStreaks, focus }, lastMeditationId, recent] = await Promise.all([getPreferences(db, userId), lastMeditation(db, userId), recentSessions(db, userId)]);
  return {
    totalSessions: totals.reduce((n, t) => n + t.sessions, 0),
    totalMinutes: sessionMinutes(totalSeconds) ?? 0,
    totalSeconds,
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
    // A timer or breathing session's length is the one chosen; a guided one's, its track's.
    const length = row.kind === 'guided' ? trackSeconds : plannedSeconds;
    return {
      ...row,
      completedAt: completedAt.toISOString(),
      minutes: minutes == null ? null : Math.min(minutes, MAX_SESSION_MINUTES),
      trackMinutes: sessionMinutes(length == null ? null : Math.min(length, MAX_AUDIO_SECONDS)),
    };
  });
}
