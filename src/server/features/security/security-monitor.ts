/**
 * The spec's security monitor, run on the server (the spec ran it in the browser, where an attacker
 * simply does not run it). Every security event goes through `logSecurityEvent()`, which hands it here:
 *
 * - failed logins per account and per IP in the hour: alert above 5;
 * - rate-limit violations per IP in the hour: alert above 10;
 * - threat score per IP = 0.3 × failed logins + 0.4 × rate-limit violations + 0.5 × suspicious activity:
 *   alert above 10, and the IP is blocked for 30 minutes;
 * - one event type more than 5 times per user in 5 minutes: a critical 'suspicious pattern' alert;
 * - wrong admin setup tokens from one IP above 5 in the hour: critical alert and a 30-minute block;
 * - the probe events (admin_privilege_escalation, injection_attempt, data_exfiltration_attempt): the spec
 *   calls log_security_alert on each; here the first of each type in the hour raises the critical alert
 *   (its details name the source), and every one counts as suspicious activity in the IP's threat score.
 *
 * Counters live in `rate_limits` (atomic upserts, so every process on the database shares them), and so do
 * blocks (`blocked_until`, `ip_address`), always in the database even when Redis holds the request limits:
 * blocks are rare and the admin's Blocked IPs card reads them there. An alert is a `security_alert` event
 * with severity critical (the spec's log_security_alert); each fires once per threshold crossing per window.
 */
import { and, eq, gt, inArray, isNotNull, sql } from 'drizzle-orm';
import { PROBE_EVENT_TYPES, SECURITY_MONITOR as S, type ProbeEventType, type SecurityEventType, type Severity } from '#shared/admin.ts';
import type { Database } from '#server/db/client.ts';
import { rateLimits } from '#server/db/schema/auth.ts';
import { securityAuditLog } from '#server/db/schema/security.ts';
import { createDatabaseRateLimitStore } from '#server/features/security/rate-limit-store.ts';

export type MonitoredEvent = {
  eventType: SecurityEventType;
  severity: Severity;
  userId?: string | null;
  userEmail?: string | null;
  ipAddress?: string | null;
  details?: Record<string, unknown>;
};

/** Events that are always recorded as critical, whatever severity the caller passed. */
export const CRITICAL_EVENT_TYPES: ReadonlySet<SecurityEventType> = new Set(['lockout_bypass_attempt', 'webhook_forged']);

/** 'Suspicious activity' in the threat score: refusals that only a forged or probing request causes. */
const SUSPICIOUS_EVENT_TYPES: ReadonlySet<SecurityEventType> = new Set([
  'csrf_rejected',
  'lockout_bypass_attempt',
  'webhook_forged',
  'admin_setup_failed',
  'upload_rejected',
  ...PROBE_EVENT_TYPES,
]);

const isProbe = (eventType: SecurityEventType): eventType is ProbeEventType => (PROBE_EVENT_TYPES as readonly SecurityEventType[]).includes(eventType);

/**
 * Left out of the per-user pattern rule: routine events (six sign-ins in five minutes from a family's devices
 * are not an attack), events with their own thresholds above, and the monitor's own output.
 */
const PATTERN_EXEMPT: ReadonlySet<SecurityEventType> = new Set([
  'user_login',
  'user_logout',
  'user_signup',
  'failed_login',
  'rate_limit_exceeded',
  'admin_setup_failed',
  'security_alert',
  'ip_blocked',
  // Their own critical alert below; a burst of them is already one row with a count.
  ...PROBE_EVENT_TYPES,
]);

type AlertType = 'excessive_failed_logins' | 'excessive_rate_limit_violations' | 'high_threat_score' | 'suspicious_pattern' | 'setup_token_guessing' | ProbeEventType;

type Logger = { warn(object: object, message: string): void };
type MonitorOptions = { now: () => number; log: Logger };

const defaults: MonitorOptions = {
  now: Date.now,
  log: { warn: (object, message) => console.warn(message, object) },
};
const options = new WeakMap<Database, MonitorOptions>();

/** Sets the logger (the app's) and, for tests, the clock the monitor uses for one database. */
export function configureSecurityMonitor(db: Database, overrides: Partial<MonitorOptions>): void {
  options.set(db, { ...(options.get(db) ?? defaults), ...overrides });
}

const optionsFor = (db: Database) => options.get(db) ?? defaults;

/** The monitor's clock for this database (Date.now unless a test moved it). */
export const monitorNow = (db: Database): number => optionsFor(db).now();

const key = {
  failedLoginsByIp: (ip: string) => `monitor:failed-login:ip:${ip}`,
  failedLoginsByAccount: (account: string) => `monitor:failed-login:account:${account}`,
  rateLimitByIp: (ip: string) => `monitor:rate-limit:ip:${ip}`,
  suspiciousByIp: (ip: string) => `monitor:suspicious:ip:${ip}`,
  setupGuessesByIp: (ip: string) => `monitor:setup-guess:ip:${ip}`,
  pattern: (eventType: string, who: string) => `monitor:pattern:${eventType}:${who}`,
  alerted: (alert: AlertType, subject: string) => `monitor:alerted:${alert}:${subject}`,
  block: (ip: string) => `block:ip:${ip}`,
};

/**
 * Feeds one recorded event to the monitor. Never throws: a monitor failure is logged and the request that
 * recorded the event carries on as if there were no monitor.
 */
export async function observeSecurityEvent({ db, event }: { db: Database; event: MonitoredEvent }): Promise<void> {
  try {
    await evaluate(db, event);
  } catch (error) {
    optionsFor(db).log.warn({ err: { message: error instanceof Error ? error.message : String(error) }, eventType: event.eventType }, 'security monitor failed; event recorded without evaluation');
  }
}

async function evaluate(db: Database, event: MonitoredEvent): Promise<void> {
  const { now } = optionsFor(db);
  const store = createDatabaseRateLimitStore(db, now);
  const ip = event.ipAddress || undefined;
  const who = (event.userEmail || event.userId || '').trim().toLowerCase() || undefined;
  const hour = S.metricsWindowMs;

  if (event.eventType === 'failed_login') {
    if (who) {
      const { count } = await store.hit(key.failedLoginsByAccount(who), hour);
      if (count > S.failedLoginsAlertAbove) await alertOnce(db, 'excessive_failed_logins', `account:${who}`, { userEmail: event.userEmail, ipAddress: ip, details: { subject: 'account', count, threshold: `more than ${S.failedLoginsAlertAbove} failed logins for one account in 1 hour` } });
    }
    if (ip) {
      const { count } = await store.hit(key.failedLoginsByIp(ip), hour);
      if (count > S.failedLoginsAlertAbove) await alertOnce(db, 'excessive_failed_logins', `ip:${ip}`, { ipAddress: ip, details: { subject: 'ip', count, threshold: `more than ${S.failedLoginsAlertAbove} failed logins from one IP in 1 hour` } });
    }
  } else if (event.eventType === 'rate_limit_exceeded' && ip) {
    const { count } = await store.hit(key.rateLimitByIp(ip), hour);
    if (count > S.rateLimitViolationsAlertAbove) await alertOnce(db, 'excessive_rate_limit_violations', `ip:${ip}`, { ipAddress: ip, details: { subject: 'ip', count, threshold: `more than ${S.rateLimitViolationsAlertAbove} rate-limit violations from one IP in 1 hour` } });
  } else if (SUSPICIOUS_EVENT_TYPES.has(event.eventType) && ip) {
    await store.hit(key.suspiciousByIp(ip), hour);
  }

  if (event.eventType === 'admin_setup_failed' && event.details?.reason === 'invalid-token' && ip) {
    const { count } = await store.hit(key.setupGuessesByIp(ip), hour);
    if (count > S.setupTokenGuessesAbove) {
      await alertOnce(db, 'setup_token_guessing', `ip:${ip}`, { userId: event.userId, userEmail: event.userEmail, ipAddress: ip, details: { subject: 'ip', count, threshold: `more than ${S.setupTokenGuessesAbove} wrong admin setup tokens from one IP in 1 hour` } });
      await blockIp({ db, ip, reason: 'setup_token_guessing', userId: event.userId, userEmail: event.userEmail });
    }
  }

  if (isProbe(event.eventType)) {
    // One alert per type in the hour, whatever the number of sources: a botnet's thousand addresses are one alert.
    await alertOnce(db, event.eventType, 'any', { userId: event.userId, userEmail: event.userEmail, ipAddress: ip, details: { subject: 'type', ...event.details, threshold: `the first ${event.eventType} in 1 hour` } });
  }

  if (ip && (event.eventType === 'failed_login' || event.eventType === 'rate_limit_exceeded' || SUSPICIOUS_EVENT_TYPES.has(event.eventType))) {
    await checkThreatScore(db, ip);
  }

  if (who && !PATTERN_EXEMPT.has(event.eventType)) {
    const { count } = await store.hit(key.pattern(event.eventType, who), S.patternWindowMs);
    if (count > S.patternAlertAbove) {
      await alertOnce(db, 'suspicious_pattern', `${event.eventType}:${who}`, { userId: event.userId, userEmail: event.userEmail, ipAddress: ip, details: { subject: 'user', eventType: event.eventType, count, threshold: `more than ${S.patternAlertAbove} ${event.eventType} events for one user in 5 minutes` } }, S.patternWindowMs);
    }
  }
}

/** The IP's threat score from its hourly counters (0 for counters whose window has passed). */
export async function threatScore({ db, ip }: { db: Database; ip: string }): Promise<{ score: number; failedLogins: number; rateLimitViolations: number; suspiciousActivity: number }> {
  const now = optionsFor(db).now();
  const keys = [key.failedLoginsByIp(ip), key.rateLimitByIp(ip), key.suspiciousByIp(ip)];
  const rows = await db.select({ key: rateLimits.key, count: rateLimits.count, resetAt: rateLimits.resetAt }).from(rateLimits).where(inArray(rateLimits.key, keys));
  const current = (k: string) => {
    const row = rows.find((r) => r.key === k);
    return row && row.resetAt.getTime() > now ? row.count : 0;
  };
  const failedLogins = current(keys[0]);
  const rateLimitViolations = current(keys[1]);
  const suspiciousActivity = current(keys[2]);
  const w = S.threatWeights;
  // Rounded to tenths so 0.1-steps of floating point never decide a crossing.
  const score = Math.round((w.failedLogins * failedLogins + w.rateLimitViolations * rateLimitViolations + w.suspiciousActivity * suspiciousActivity) * 10) / 10;
  return { score, failedLogins, rateLimitViolations, suspiciousActivity };
}

async function checkThreatScore(db: Database, ip: string): Promise<void> {
  const threat = await threatScore({ db, ip });
  if (threat.score <= S.threatScoreAlertAbove) return;
  await alertOnce(db, 'high_threat_score', `ip:${ip}`, { ipAddress: ip, details: { subject: 'ip', ...threat, threshold: `threat score above ${S.threatScoreAlertAbove}` } });
  // Blocking again is a no-op while the block lasts, and re-blocks an IP that keeps going after it ends.
  await blockIp({ db, ip, reason: 'high_threat_score' });
}

/** Records a critical security_alert the first time `subject` crosses `alert` in the window. */
async function alertOnce(
  db: Database,
  alert: AlertType,
  subject: string,
  { userId, userEmail, ipAddress, details }: { userId?: string | null; userEmail?: string | null; ipAddress?: string; details: Record<string, unknown> },
  windowMs: number = S.metricsWindowMs,
): Promise<boolean> {
  const { now } = optionsFor(db);
  const { count } = await createDatabaseRateLimitStore(db, now).hit(key.alerted(alert, subject), windowMs);
  if (count !== 1) return false;
  await db.insert(securityAuditLog).values({
    eventType: 'security_alert',
    severity: 'critical',
    userId: userId ?? null,
    userEmail: userEmail ?? null,
    ipAddress: ipAddress ?? null,
    details: { alertType: alert, ...details },
  });
  return true;
}

/**
 * Blocks an IP from the sensitive actions (sign-in, sign-up, admin setup, role changes) for 30 minutes
 * (spec rate-limit defaults). Records an `ip_blocked` event when a block starts; blocking an IP that is
 * already blocked changes nothing.
 */
export async function blockIp({
  db,
  ip,
  reason,
  durationMs = S.blockMs,
  userId,
  userEmail,
}: {
  db: Database;
  ip: string;
  reason: string;
  durationMs?: number;
  userId?: string | null;
  userEmail?: string | null;
}): Promise<{ started: boolean; blockedUntil: Date }> {
  const { now } = optionsFor(db);
  const current = new Date(now());
  const until = new Date(now() + durationMs);
  const started = await db
    .insert(rateLimits)
    .values({ key: key.block(ip), count: 1, resetAt: until, blockedUntil: until, ipAddress: ip })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: { count: sql`${rateLimits.count} + 1`, resetAt: until, blockedUntil: until, ipAddress: ip },
      setWhere: sql`${rateLimits.blockedUntil} is null or ${rateLimits.blockedUntil} <= ${current.toISOString()}::timestamptz`,
    })
    .returning({ key: rateLimits.key });
  if (started.length === 0) return { started: false, blockedUntil: (await ipBlockedUntil({ db, ip })) ?? until };
  await db.insert(securityAuditLog).values({
    eventType: 'ip_blocked',
    severity: 'high',
    userId: userId ?? null,
    userEmail: userEmail ?? null,
    ipAddress: ip,
    details: { reason, blockedUntil: until.toISOString(), minutes: Math.round(durationMs / 60_000) },
  });
  return { started: true, blockedUntil: until };
}

/** When the IP's block ends, or null when it is not blocked. */
export async function ipBlockedUntil({ db, ip }: { db: Database; ip: string }): Promise<Date | null> {
  const now = new Date(optionsFor(db).now());
  const rows = await db
    .select({ blockedUntil: rateLimits.blockedUntil })
    .from(rateLimits)
    .where(and(eq(rateLimits.key, key.block(ip)), gt(rateLimits.blockedUntil, now)));
  return rows.at(0)?.blockedUntil ?? null;
}

/** Distinct IPs blocked now (the Security Log's Blocked IPs card; spec: rate_limits where blocked_until is set). */
export async function countBlockedIps({ db }: { db: Database }): Promise<number> {
  const now = new Date(optionsFor(db).now());
  const rows = await db
    .select({ n: sql<number>`count(distinct ${rateLimits.ipAddress})::int` })
    .from(rateLimits)
    .where(and(isNotNull(rateLimits.ipAddress), isNotNull(rateLimits.blockedUntil), gt(rateLimits.blockedUntil, now)));
  return rows.at(0)?.n ?? 0;
}
