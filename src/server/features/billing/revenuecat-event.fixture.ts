/** RevenueCat's webhook events as RevenueCat sends them, for the webhook's tests (issue 19, item 4). */

const DAY = 24 * 60 * 60 * 1000;

/**
 * A Google Play subscription's event (product:base-plan) sent at `at`: a monthly plan bought the day
 * before and paid for 29 days more. `fields` name the event's id, accounts and anything that differs.
 */
export function revenueCatEvent<Fields extends Record<string, unknown>>(type: string, at: number, fields: Fields) {
  return {
    type,
    product_id: 'hm_plus_monthly:monthly',
    entitlement_ids: ['premium'],
    period_type: 'NORMAL',
    purchased_at_ms: at - DAY,
    expiration_at_ms: at + 29 * DAY,
    event_timestamp_ms: at,
    environment: 'PRODUCTION',
    store: 'PLAY_STORE',
    ...fields,
  };
}
