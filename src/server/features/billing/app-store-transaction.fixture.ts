/** StoreKit 2 transactions as Apple signs them, for the App Store tests of the server and of the apps' purchases. */

/** An auto-renewable subscription bought in the UK's Sandbox storefront, signed at `signedDate`; `fields` name the product, the account and the dates. */
export function appStoreTransaction<Fields extends Record<string, unknown>>(signedDate: number, fields: Fields) {
  return {
    quantity: 1,
    type: 'Auto-Renewable Subscription',
    inAppOwnershipType: 'PURCHASED',
    signedDate,
    environment: 'Sandbox',
    transactionReason: 'PURCHASE',
    storefront: 'GBR',
    currency: 'GBP',
    ...fields,
  };
}
