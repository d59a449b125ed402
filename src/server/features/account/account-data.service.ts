/**
 * A person's data is theirs (issue 18): everything the server holds about them in one document
 * (docs/data-export.md), and deleting the account for good. Nothing here returns a secret: no
 * session token, password hash, OAuth token or App Store account token leaves in an export.
 */
import { and, desc, eq, sql } from 'drizzle-orm';
import { APP_STORE_CANCEL_PATH } from '#shared/account-messages.ts';
import type { DeletionInfoResponse } from '#shared/contracts/account.ts';
import type { Database } from '#server/db/client.ts';
import { adminAuditLog } from '#server/db/schema/admin.ts';
import { waitlistEntries } from '#server/db/schema/waitlist.ts';
import { account, session, user, userRoles } from '#server/db/schema/auth.ts';
import { securityAuditLog } from '#server/db/schema/security.ts';
import { appStoreTransactions, subscribers } from '#server/db/schema/billing.ts';
import { getSubscription } from '#server/features/billing/subscriptions.service.ts';
import { meditationPreviews } from '#server/db/schema/catalogue.ts';
import { meditationSessions, playbackPositions, practicePreferences } from '#server/db/schema/practice.ts';
import { favourites } from '#server/db/schema/favourites.ts';
import { programmeEnrolments, programmes } from '#server/db/schema/programmes.ts';
import { pushSubscriptions, reminderSettings } from '#server/db/schema/reminders.ts';
import { AppError } from '#server/errors.ts';
import { eraseAccount, ownSecurityEvents } from '#server/features/account/account-erasure.ts';
import { queueAppleRevocations, type AppleSignIn } from '#server/features/auth/apple-revocations.ts';
import { journalSummary } from '#server/features/journal/journal.service.ts';
import { sharesForExport } from '#server/features/journal/journal-share.service.ts';
import { brandedMail, type Mailer } from '#server/mail.ts';

/** The export's format version: bumped when a field changes meaning (docs/data-export.md). */
const EXPORT_FORMAT = 1;

/**
 * The App Store and RevenueCat keep an appAccountToken as the customer id: a purchase-binding secret that
 * never leaves (issue 33, row 14), whichever account's it is. A Stripe customer id is only a name at Stripe.
 */
const exportedCustomerId = (s: { provider: string; providerCustomerId: string | null }, token: string) =>
  s.provider === 'app_store' || s.provider === 'play_store' || s.providerCustomerId?.toLowerCase() === token.toLowerCase() ? null : s.providerCustomerId;

const iso = (date: Date | null | undefined) => (date ? date.toISOString() : null);


export async function exportAccountData({ db, userId, now = new Date() }: { db: Database; userId: string; now?: Date }) {
  const person = (await db.select().from(user).where(eq(user.id, userId))).at(0);
  if (!person) throw new AppError('auth/unauthenticated', 'User not authenticated', 401);
  const [methods, sessions, subscription, purchases, saved, practice, positions, preferences, reminder, devices, waitlist, role, security, adminActions, journal, sharedJournalLinks, enrolments] = await Promise.all([
    db.select({ provider: account.providerId, createdAt: account.createdAt }).from(account).where(eq(account.userId, userId)),
    db.select({ signedInAt: session.createdAt, expiresAt: session.expiresAt, ipAddress: session.ipAddress, userAgent: session.userAgent }).from(session).where(eq(session.userId, userId)).orderBy(desc(session.createdAt)),
    db
      .select({
        provider: subscribers.provider,
        plan: subscribers.plan,
        status: subscribers.status,
        providerCustomerId: subscribers.providerCustomerId,
        providerSubscriptionId: subscribers.providerSubscriptionId,
        currentPeriodEnd: subscribers.currentPeriodEnd,
        trialStart: subscribers.trialStart,
        trialEnd: subscribers.trialEnd,
        cancelAtPeriodEnd: subscribers.cancelAtPeriodEnd,
        createdAt: subscribers.createdAt,
        updatedAt: subscribers.updatedAt,
      })
      .from(subscribers)
      .where(eq(subscribers.userId, userId)),
    db.select({ originalTransactionId: appStoreTransactions.originalTransactionId, createdAt: appStoreTransactions.createdAt }).from(appStoreTransactions).where(eq(appStoreTransactions.userId, userId)),
    db
      .select({ meditationId: favourites.meditationId, title: meditationPreviews.title, savedAt: favourites.savedAt })
      .from(favourites)
      .leftJoin(meditationPreviews, eq(meditationPreviews.id, favourites.meditationId))
      .where(eq(favourites.userId, userId))
      .orderBy(desc(favourites.savedAt)),
    db
      .select({ meditationId: meditationSessions.meditationId, title: meditationPreviews.title, minutes: meditationSessions.durationMinutes, completedAt: meditationSessions.completedAt, complete: meditationSessions.complete })
      .from(meditationSessions)
      .leftJoin(meditationPreviews, eq(meditationPreviews.id, meditationSessions.meditationId))
      .where(eq(meditationSessions.userId, userId))
      .orderBy(desc(meditationSessions.completedAt)),
    db
      .select({ meditationId: playbackPositions.meditationId, title: meditationPreviews.title, positionSeconds: playbackPositions.positionSeconds, updatedAt: playbackPositions.updatedAt })
      .from(playbackPositions)
      .leftJoin(meditationPreviews, eq(meditationPreviews.id, playbackPositions.meditationId))
      .where(eq(playbackPositions.userId, userId))
      .orderBy(desc(playbackPositions.updatedAt)),
    db.select({ showStreaks: practicePreferences.showStreaks, focus: practicePreferences.focus }).from(practicePreferences).where(eq(practicePreferences.userId, userId)),
    db.select({ enabled: reminderSettings.enabled, time: reminderSettings.time, days: reminderSettings.days, timeZone: reminderSettings.timeZone }).from(reminderSettings).where(eq(reminderSettings.userId, userId)),
    db.select({ endpoint: pushSubscriptions.endpoint, addedAt: pushSubscriptions.createdAt, lastSentAt: pushSubscriptions.lastSentAt }).from(pushSubscriptions).where(eq(pushSubscriptions.userId, userId)).orderBy(desc(pushSubscriptions.createdAt)),
    db.select({ name: waitlistEntries.name, email: waitlistEntries.email, reason: waitlistEntries.reason, joinedAt: waitlistEntries.createdAt }).from(waitlistEntries).where(eq(sql`lower(${waitlistEntries.email})`, person.email.toLowerCase())),
    db.select({ role: userRoles.role, assignedAt: userRoles.assignedAt }).from(userRoles).where(eq(userRoles.userId, userId)),
    db
      .select({ type: securityAuditLog.eventType, severity: securityAuditLog.severity, ipAddress: securityAuditLog.ipAddress, details: securityAuditLog.details, at: securityAuditLog.createdAt })
      .from(securityAuditLog)
      .where(ownSecurityEvents(userId, person.email))
      .orderBy(desc(securityAuditLog.createdAt)),
    db
      .select({ action: adminAuditLog.action, resource: adminAuditLog.targetResource, targetId: adminAuditLog.targetId, severity: adminAuditLog.severity, at: adminAuditLog.createdAt })
      .from(adminAuditLog)
      .where(eq(adminAuditLog.adminUserId, userId))
      .orderBy(desc(adminAuditLog.createdAt)),
    journalSummary(db, userId),
    sharesForExport(db, userId),
    db
      .select({ slug: programmes.slug, title: programmes.title, startedAt: programmeEnrolments.startedAt, timeZone: programmeEnrolments.timeZone, openedEarly: programmeEnrolments.openedEarly })
      .from(programmeEnrolments)
      .innerJoin(programmes, eq(programmes.id, programmeEnrolments.programmeId))
      .where(eq(programmeEnrolments.userId, userId))
      .orderBy(desc(programmeEnrolments.startedAt)),
  ]);

  return {
    format: EXPORT_FORMAT,
    exportedAt: now.toISOString(),
    profile: { id: person.id, name: person.name, email: person.email, emailVerified: person.emailVerified, createdAt: iso(person.createdAt), updatedAt: iso(person.updatedAt) },
    signInMethods: methods.map((m) => ({ provider: m.provider === 'credential' ? 'email and password' : m.provider, since: iso(m.createdAt) })),
    sessions: sessions.map((s) => ({ signedInAt: iso(s.signedInAt), expiresAt: iso(s.expiresAt), ipAddress: s.ipAddress, device: s.userAgent })),
    role: role.at(0)?.role ?? 'user',
    subscription: subscription.map((s) => ({ ...s, providerCustomerId: exportedCustomerId(s, person.appAccountToken), currentPeriodEnd: iso(s.currentPeriodEnd), trialStart: iso(s.trialStart), trialEnd: iso(s.trialEnd), createdAt: iso(s.createdAt), updatedAt: iso(s.updatedAt) })).at(0) ?? null,
    appStorePurchases: purchases.map((p) => ({ originalTransactionId: p.originalTransactionId, linkedAt: iso(p.createdAt) })),
    favourites: saved.map((f) => ({ meditationId: f.meditationId, title: f.title, savedAt: iso(f.savedAt) })),
    completedSessions: practice.map((p) => ({ meditationId: p.meditationId, title: p.title, minutes: p.minutes, completedAt: iso(p.completedAt), complete: p.complete })),
    playbackPositions: positions.map((p) => ({ meditationId: p.meditationId, title: p.title, positionSeconds: p.positionSeconds, updatedAt: iso(p.updatedAt) })),
    practicePreferences: preferences.at(0) ?? { showStreaks: true, focus: null },
    // A push address is a capability (whoever holds it can reach the browser through its push service): only its service is shown.
    reminders: { settings: reminder.at(0) ?? null, devices: devices.map((d) => ({ pushService: new URL(d.endpoint).host, addedAt: iso(d.addedAt), lastSentAt: d.lastSentAt ? iso(d.lastSentAt) : null })) },
    waitlist: waitlist.map((w) => ({ ...w, joinedAt: iso(w.joinedAt) })).at(0) ?? null,
    securityEvents: security.map((e) => ({ type: e.type, severity: e.severity, ipAddress: e.ipAddress, details: e.details, at: iso(e.at) })),
    adminActions: adminActions.map((a) => ({ action: a.action, resource: a.resource, targetId: a.targetId, severity: a.severity, at: iso(a.at) })),
    // Sealed on the person's devices: the server can say only how much it holds (decision 0031).
    journal,
    // Links to single entries, sealed under keys only the links hold (decision 0050): what the server knows of them.
    sharedJournalLinks,
    programmes: enrolments.map((e) => ({ ...e, startedAt: iso(e.startedAt) })),
  };
}

/** Statuses under which a subscription can still charge the person (past_due: a retry is coming). */
const CHARGEABLE: ReadonlySet<string> = new Set(['active', 'trialing', 'past_due']);

/** The subscription that could still charge the person, if any (one read, shared by the dialog and the deletion). */
async function chargeableSubscription(db: Database, userId: string) {
  const row = await getSubscription(db, userId);
  return row && CHARGEABLE.has(row.status) ? row : undefined;
}

export async function deletionInfo(db: Database, userId: string): Promise<DeletionInfoResponse> {
  const [credential, live] = await Promise.all([
    db.select({ password: account.password }).from(account).where(and(eq(account.userId, userId), eq(account.providerId, 'credential'))),
    chargeableSubscription(db, userId),
  ]);
  const provider = live?.provider;
  return { hasPassword: Boolean(credential.at(0)?.password), subscription: provider === 'stripe' || provider === 'sandbox' || provider === 'app_store' || provider === 'play_store' ? provider : 'none' };
}

const CANCEL_FAILED = 'Your subscription could not be cancelled just now, so nothing was deleted. Please try again in a few minutes.';

/** How recent a sign-in must be for an Apple or Google account (no password to ask for) to delete itself. */
const FRESH_SIGN_IN_MS = 10 * 60 * 1000;

type Deletion = {
  db: Database;
  userId: string;
  sessionId: string;
  /** Checks a password against the account's stored hash (better-auth's own hashing). */
  verifyPassword: (hash: string, password: string) => Promise<boolean>;
  /** Ends a Stripe subscription at once; absent outside Stripe mode. */
  cancelStripe?: (subscriptionId: string) => Promise<unknown>;
  password: string | undefined;
  /** Sign in with Apple, when configured: the person's Apple tokens are owed a revocation (decision 0064). */
  apple?: AppleSignIn;
  now?: Date;
};

/**
 * Proves it is the person (their password, or a sign-in within 10 minutes for an account without
 * one), refuses to remove the last admin, ends a web subscription at once, then removes the account
 * and everything tied to it in one transaction. Logs that name the person lose their name, e-mail and
 * address; the audit log records that a deletion happened, and nothing about whom.
 */
export async function deleteAccount({ db, userId, sessionId, verifyPassword, cancelStripe, password, apple, now = new Date() }: Deletion) {
  const person = (await db.select({ email: user.email, name: user.name }).from(user).where(eq(user.id, userId))).at(0);
  if (!person) throw new AppError('auth/unauthenticated', 'User not authenticated', 401);

  const credential = (await db.select({ hash: account.password }).from(account).where(and(eq(account.userId, userId), eq(account.providerId, 'credential')))).at(0);
  if (credential?.hash) {
    if (!password) throw new AppError('validation/invalid-input', 'Please enter your password.', 400);
    if (!(await verifyPassword(credential.hash, password))) throw new AppError('auth/wrong-password', 'Your password is not correct.', 401);
  } else {
    const current = (await db.select({ createdAt: session.createdAt }).from(session).where(eq(session.id, sessionId))).at(0);
    if (!current || now.getTime() - current.createdAt.getTime() > FRESH_SIGN_IN_MS) throw new AppError('account/reauth-required');
  }

  const role = (await db.select({ role: userRoles.role }).from(userRoles).where(eq(userRoles.userId, userId))).at(0)?.role;
  // Asked here so nothing is cancelled for nothing; asked again under a lock in the transaction below.
  if (role === 'admin') await refuseLastAdmin(db);

  // A web subscription ends now, before the account goes, so nobody is charged for an account that no longer exists.
  // If Stripe cannot be reached, nothing is deleted and the person can try again.
  const live = await chargeableSubscription(db, userId);
  if (live?.provider === 'stripe' && live.providerSubscriptionId) {
    if (!cancelStripe) throw new AppError('billing/unavailable', CANCEL_FAILED);
    try {
      await cancelStripe(live.providerSubscriptionId);
    } catch (error) {
      // Stripe no longer knows the subscription: there is nothing left to charge, so the deletion goes on.
      if ((error as { code?: string }).code !== 'resource_missing') throw new AppError('billing/unavailable', CANCEL_FAILED);
    }
  }

  const appleRevocations = await db.transaction(async (tx) => {
    // Two admins deleting their accounts at the same moment must not both pass the check above: the
    // admin rows are locked, so the second waits, then sees it is the last one.
    if (role === 'admin') await refuseLastAdmin(tx, { lock: true });
    // Apple's tokens are read before their rows go, and owed to Apple whatever happens next: the
    // revocation is a row of this transaction, sent after it and retried by a job (decision 0064).
    const owed = apple ? await queueAppleRevocations(tx, { userId, apple, now }) : [];
    // Logs lose who it was, the account and everything hanging off it go, the id joins the deletion ledger
    // (a restore deletes it again). A second request for the same deletion (two tabs, a retry) finds nothing
    // left and changes nothing: no second audit row, no second e-mail.
    if (!(await eraseAccount(tx, { userId, email: person.email, at: now }))) throw new AppError('auth/unauthenticated', 'User not authenticated', 401);
    await tx.insert(adminAuditLog).values({
      adminUserId: null,
      adminEmail: null,
      action: 'account.delete',
      targetResource: 'user',
      targetId: null,
      changes: {},
      // What law may ask later (a web subscription ended with the account), with nothing that identifies the person.
      metadata: { subscription: live?.provider ?? 'none' },
      userAgent: null,
      severity: 'medium',
    });
    return owed;
  });
  return { email: person.email, name: person.name, appStoreSubscription: live?.provider === 'app_store', appleRevocations };
}

/** Refuses when no other admin would be left. `lock`: holds the admin rows until the transaction ends. */
async function refuseLastAdmin(db: Pick<Database, 'select'>, { lock = false } = {}) {
  const query = db.select({ userId: userRoles.userId }).from(userRoles).where(eq(userRoles.role, 'admin'));
  const admins = lock ? await query.for('update') : await query;
  if (admins.length <= 1) throw new AppError('account/last-admin');
}

export function accountDeletedMail({ to, name, appStoreSubscription, publicUrl }: { to: string; name: string; appStoreSubscription: boolean; publicUrl: string }) {
  const firstName = name.trim().split(/\s+/)[0] ?? '';
  return brandedMail({
    to,
    subject: 'Your Harbour Mind account has been deleted',
    greeting: firstName ? `Hello ${firstName},` : 'Hello,',
    body: [
      'As you asked, your Harbour Mind account has been deleted, with your practice, favourites, sessions, settings and encrypted journal. You can no longer sign in with it.',
      appStoreSubscription
        ? `Your App Store subscription is managed by Apple and keeps running until you cancel it: on your iPhone, go to ${APP_STORE_CANCEL_PATH}.`
        : 'Any web subscription has been cancelled, and nothing more will be charged.',
      'Any journal export or recovery key you kept is yours to keep or delete.',
    ],
    action: { label: 'Visit Harbour Mind', url: publicUrl },
    footer: 'If you did not ask for this, reply to this e-mail straight away.',
  });
}

/** Sends the confirmation; a mail failure does not undo a deletion that already happened. */
export async function sendDeletedMail(mailer: Mailer, mail: ReturnType<typeof accountDeletedMail>, log: { error(obj: object, msg: string): void }) {
  try {
    await mailer.send(mail);
  } catch (error) {
    log.error({ err: { message: error instanceof Error ? error.message : String(error) } }, 'account deletion mail failed');
  }
}
