/**
 * RevenueCat's webhook (issue 19, item 4): the Android app buys through Google Play with RevenueCat's
 * client, and RevenueCat tells us what happened, so web, iOS and Android share the one entitlement
 * in `subscribers` (docs/decisions/0036-revenuecat-purchases.md).
 *
 * Whose purchase is it? The app configures RevenueCat with the account's appAccountToken as its
 * appUserID (an opaque per-account UUID, the same one StoreKit signs into iOS transactions), so an
 * event's app_user_id names the account without exposing the user id. The app_user_id wins: its
 * aliases are consulted only when it names no account (a purchase made before the app signed in to
 * RevenueCat), and aliases naming two accounts are refused as ambiguous (issue 33, row 7: an alias
 * once gave another account the purchase).
 *
 * RevenueCat proves itself only by the Authorization header set in its dashboard: compared in
 * constant time, and a mismatch is recorded like a forged signature. Each event id is applied once;
 * an event older than one already applied for the account is recorded and skipped (retries can
 * arrive late and must not undo a newer state). An event without its time cannot be placed, so it
 * is refused (400) before anything is recorded.
 *
 * A failed renewal inside the store's grace period (BILLING_ISSUE with grace_period_expiration_at_ms)
 * keeps Premium until the grace ends and says the charge failed; the store then either renews
 * (RENEWAL) or gives up (EXPIRATION). A TRANSFER (the store account's purchases restored onto
 * another of our accounts) moves the store subscription to that account and ends it on the one it
 * left (issue 35, item 2).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { and, eq, gt, inArray } from 'drizzle-orm';
import { isSubscriptionActive, planFromStoreProductId, PLANS, type Provider } from '#shared/billing.ts';
import type { RevenueCatEvent } from '#shared/contracts/billing.ts';
import type { Config } from '#server/config.ts';
import type { Database } from '#server/db/client.ts';
import { AppError } from '#server/errors.ts';
import { user } from '#server/db/schema/auth.ts';
import { revenueCatEvents } from '#server/db/schema/billing.ts';
import { getSubscription, syncSubscription, type SubscriptionRow, type SubscriptionSnapshot } from '#server/features/billing/subscriptions.service.ts';

type RevenueCatConfig = NonNullable<Config['revenueCat']>;

/** What became of an event: kept in revenuecat_events.outcome. */
export type RevenueCatOutcome = 'applied' | 'no-change' | 'unknown-account' | 'ambiguous-account' | 'other-environment' | 'other-store' | 'unknown-product' | 'stale';

/** The answer to an event without `event_timestamp_ms` (RevenueCat sends it on every event). */
export const REVENUECAT_NO_TIMESTAMP = 'The event has no event_timestamp_ms, so it cannot be ordered against the events already applied. Nothing was changed.';

/** Whose event it is: an account, no account we know, or more than one (refused). */
type Owner = { userId: string } | 'unknown' | 'ambiguous';

/** The one entitlement RevenueCat's dashboard grants for our products (spec: entitlement name premium). */
const PREMIUM = 'premium';

/** The stores whose purchases we sell through RevenueCat; others (Amazon, RevenueCat's web billing …) are not ours. */
const PROVIDER_BY_STORE: Partial<Record<string, Provider>> = { APP_STORE: 'app_store', PLAY_STORE: 'play_store' };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Equal-length digests, so the comparison takes the same time whatever the header's length or content. */
const digest = (value: string) => createHash('sha256').update(value).digest();

/** Events that say the subscription is paid for (or in its trial) until expiration_at_ms. */
const GRANTING = new Set<RevenueCatEvent['type']>(['INITIAL_PURCHASE', 'RENEWAL', 'UNCANCELLATION', 'SUBSCRIPTION_EXTENDED', 'REFUND_REVERSED', 'TEMPORARY_ENTITLEMENT_GRANT']);
/** Events that change the subscription of an account (the rest are acknowledged and recorded). */
const CHANGING = new Set<RevenueCatEvent['type']>([...GRANTING, 'CANCELLATION', 'EXPIRATION', 'BILLING_ISSUE', 'PRODUCT_CHANGE', 'TRANSFER']);

/** The store's grace period after a failed renewal, if it gives one and it has not ended by the event. */
function graceEnd(event: RevenueCatEvent): Date | null {
  const end = event.grace_period_expiration_at_ms;
  return end && end > (event.event_timestamp_ms ?? 0) ? new Date(end) : null;
}

/** The later of two period ends (a grace period outlasts the period the charge was for). */
const later = (a: Date | null, b: Date | null | undefined): Date | null => (a && b ? (a > b ? a : b) : (a ?? b ?? null));

/**
 * The subscription after an event, from the account's current row (or none). Undefined: the event
 * changes nothing (a product change for an account we hold no subscription for).
 */
function snapshotAfter(event: RevenueCatEvent, provider: Provider, row: SubscriptionRow | undefined): SubscriptionSnapshot | undefined {
  const plan = planFromStoreProductId(event.type === 'PRODUCT_CHANGE' ? (event.new_product_id ?? event.product_id) : event.product_id);
  if (!plan) return undefined;
  const end = event.expiration_at_ms ? new Date(event.expiration_at_ms) : null;
  const base: SubscriptionSnapshot = {
    provider,
    plan,
    status: row?.status ?? 'active',
    providerCustomerId: event.app_user_id ?? null,
    providerSubscriptionId: event.original_transaction_id ?? row?.providerSubscriptionId ?? null,
    currentPeriodEnd: end ?? row?.currentPeriodEnd ?? null,
    trialStart: row?.trialStart ?? null,
    trialEnd: row?.trialEnd ?? null,
    cancelAtPeriodEnd: row?.cancelAtPeriodEnd ?? false,
    environment: event.environment,
  };
  if (GRANTING.has(event.type)) {
    const trial = event.period_type === 'TRIAL';
    return {
      ...base,
      status: trial ? 'trialing' : 'active',
      currentPeriodEnd: end,
      trialStart: trial && event.purchased_at_ms ? new Date(event.purchased_at_ms) : base.trialStart,
      trialEnd: trial ? end : base.trialEnd,
      cancelAtPeriodEnd: false,
    };
  }
  switch (event.type) {
    // Auto-renew turned off: paid until the end of the period. CUSTOMER_SUPPORT is RevenueCat's word for a refund: over now.
    // A failed charge also arrives as a CANCELLATION (BILLING_ERROR) beside the BILLING_ISSUE: it keeps
    // a grace period already granted, and the reason.
    case 'CANCELLATION':
      if (event.cancel_reason === 'CUSTOMER_SUPPORT') return { ...base, status: 'canceled', cancelAtPeriodEnd: false };
      if (event.cancel_reason === 'BILLING_ERROR') return { ...base, currentPeriodEnd: later(end, row?.currentPeriodEnd), cancelAtPeriodEnd: true, paymentError: 'payment-failed' };
      return { ...base, cancelAtPeriodEnd: true };
    case 'EXPIRATION':
      return { ...base, status: 'expired', cancelAtPeriodEnd: false };
    // The store could not charge. Inside its grace period Premium stays until the grace ends; without
    // one, no entitlement until it can (as a Stripe past_due). Either way the reason is shown.
    case 'BILLING_ISSUE': {
      const grace = graceEnd(event);
      return grace ? { ...base, status: 'active', currentPeriodEnd: grace, paymentError: 'payment-failed' } : { ...base, status: 'past_due', paymentError: 'payment-failed' };
    }
    // The new product takes effect on the store's schedule; the plan shown is the one chosen.
    case 'PRODUCT_CHANGE':
      return row ? base : undefined;
    default:
      return undefined;
  }
}

export function createRevenueCatBilling({ config, db }: { config: RevenueCatConfig; db: Database }) {
  const expected = digest(config.webhookAuth);

  /** The accounts whose appAccountToken is one of `ids` (RevenueCat ids that are not UUIDs name none). */
  async function accountsOf(ids: readonly (string | null | undefined)[]): Promise<string[]> {
    const tokens = [...new Set(ids.filter((id): id is string => Boolean(id && UUID.test(id))).map((id) => id.toLowerCase()))];
    if (tokens.length === 0) return [];
    return (await db.select({ id: user.id }).from(user).where(inArray(user.appAccountToken, tokens))).map((row) => row.id);
  }

  /** The one account `ids` name; 'ambiguous' when they name more than one. */
  async function oneAccountOf(ids: readonly (string | null | undefined)[]): Promise<Owner> {
    const accounts = [...new Set(await accountsOf(ids))];
    if (accounts.length > 1) return 'ambiguous';
    return accounts.length === 1 ? { userId: accounts[0] } : 'unknown';
  }

  /**
   * The account an event is for: its app_user_id's; else the one account its other ids name, if
   * exactly one. A TRANSFER's is the account the purchases went to.
   */
  async function ownerOf(event: RevenueCatEvent): Promise<Owner> {
    if (event.type === 'TRANSFER') return oneAccountOf(event.transferred_to ?? []);
    const [direct] = await accountsOf([event.app_user_id]);
    if (direct) return { userId: direct };
    const others = await accountsOf([event.original_app_user_id, ...(event.aliases ?? [])]);
    if (others.length > 1) return 'ambiguous';
    return others.length === 1 ? { userId: others[0] } : 'unknown';
  }

  /** Whether a newer event was applied to this account already. */
  async function isStale(userId: string, eventAt: Date): Promise<boolean> {
    const newer = await db
      .select({ id: revenueCatEvents.id })
      .from(revenueCatEvents)
      .where(and(eq(revenueCatEvents.userId, userId), eq(revenueCatEvents.outcome, 'applied'), gt(revenueCatEvents.eventAt, eventAt)))
      .limit(1);
    return newer.length > 0;
  }

  /** What an event does, short of recording it. */
  async function apply(event: RevenueCatEvent, owner: Owner, eventAt: Date): Promise<RevenueCatOutcome> {
    if (!CHANGING.has(event.type)) return 'no-change';
    if (event.environment !== config.environment) return 'other-environment';
    const provider = PROVIDER_BY_STORE[event.store ?? ''];
    if (!provider) return 'other-store';
    if (event.entitlement_ids && !event.entitlement_ids.includes(PREMIUM)) return 'unknown-product';
    if (owner === 'ambiguous') return 'ambiguous-account';
    if (owner === 'unknown') return 'unknown-account';
    const { userId } = owner;
    if (await isStale(userId, eventAt)) return 'stale';
    if (event.type === 'TRANSFER') return transfer(event, provider, userId);
    const snapshot = snapshotAfter(event, provider, await getSubscription(db, userId));
    if (!snapshot) return planFromStoreProductId(event.new_product_id ?? event.product_id) ? 'no-change' : 'unknown-product';
    await syncSubscription({ db, userId, snapshot });
    return 'applied';
  }

  /**
   * The store subscription of the account(s) the purchases left moves to `toUserId`; the account it
   * left keeps its row, ended (so its trial stays used). An account subscribed some other way (the
   * web, comped) keeps that: the store's is then ended on the old account only.
   */
  async function transfer(event: RevenueCatEvent, provider: Provider, toUserId: string): Promise<RevenueCatOutcome> {
    const from = await oneAccountOf(event.transferred_from ?? []);
    if (from === 'ambiguous') return 'ambiguous-account';
    if (from === 'unknown' || from.userId === toUserId) return 'no-change';
    const moving = await getSubscription(db, from.userId);
    const plan = PLANS.find((known) => known === moving?.plan);
    if (!moving || moving.provider !== provider || !plan) return 'no-change';
    const kept: SubscriptionSnapshot = {
      provider,
      status: moving.status,
      plan,
      providerCustomerId: event.transferred_to?.[0] ?? moving.providerCustomerId,
      providerSubscriptionId: moving.providerSubscriptionId,
      currentPeriodEnd: moving.currentPeriodEnd,
      trialStart: moving.trialStart,
      trialEnd: moving.trialEnd,
      cancelAtPeriodEnd: moving.cancelAtPeriodEnd,
      environment: moving.environment,
      paymentError: moving.paymentError,
    };
    const current = await getSubscription(db, toUserId);
    const keepsOwn = current !== undefined && current.provider !== provider && isSubscriptionActive(current);
    // Both rows or neither: the store's subscription id is unique, so it leaves the old row first.
    await db.transaction(async (tx) => {
      await syncSubscription({ db: tx, userId: from.userId, snapshot: { ...kept, providerCustomerId: moving.providerCustomerId, providerSubscriptionId: null, status: 'expired', cancelAtPeriodEnd: false } });
      if (!keepsOwn) await syncSubscription({ db: tx, userId: toUserId, snapshot: kept });
    });
    return 'applied';
  }

  return {
    /** The Authorization header RevenueCat sends is exactly the value set in its dashboard. */
    authorized(header: string | undefined): boolean {
      return typeof header === 'string' && timingSafeEqual(digest(header), expected);
    },

    /**
     * POST /api/revenuecat/webhook, once authorised. Claims the event id first, so a replay (or the
     * same event delivered twice at once) does nothing; an event we cannot use is still acknowledged,
     * or RevenueCat would retry it for days.
     */
    async handleEvent(event: RevenueCatEvent): Promise<{ received: true; handled: boolean; type: string; outcome: RevenueCatOutcome | 'duplicate' }> {
      if (event.event_timestamp_ms == null) throw new AppError('validation/invalid-input', REVENUECAT_NO_TIMESTAMP, 400);
      const eventAt = new Date(event.event_timestamp_ms);
      const claimed = await db
        .insert(revenueCatEvents)
        .values({ id: event.id, type: event.type, appUserId: event.app_user_id ?? null, outcome: 'received', eventAt })
        .onConflictDoNothing()
        .returning({ id: revenueCatEvents.id });
      if (claimed.length === 0) return { received: true, handled: false, type: event.type, outcome: 'duplicate' };
      const owner = await ownerOf(event);
      const userId = typeof owner === 'object' ? owner.userId : undefined;
      let outcome: RevenueCatOutcome;
      try {
        outcome = await apply(event, owner, eventAt);
      } catch (error) {
        // Not applied: free the id so RevenueCat's retry can apply it.
        await db.delete(revenueCatEvents).where(eq(revenueCatEvents.id, event.id));
        throw error;
      }
      await db.update(revenueCatEvents).set({ outcome, userId: userId ?? null }).where(eq(revenueCatEvents.id, event.id));
      return { received: true, handled: outcome === 'applied', type: event.type, outcome };
    },
  };
}

export type RevenueCatBilling = ReturnType<typeof createRevenueCatBilling>;
