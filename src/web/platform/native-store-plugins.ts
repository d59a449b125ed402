/**
 * The store plugins the apps' purchases use (store-purchases.ts), in the native chunk the web never
 * fetches: RevenueCat's, and the app's own StoreKit 2 bridge (ios/App/App/HarbourStoreKit.swift).
 */
import { pluginMethods } from '#web/platform/plugin-methods.ts';
import type { Purchases, PurchasesPluginLike, StoreKitLike } from '#web/platform/store-purchases.ts';

/**
 * The apps' purchases, for the platform's lazy shell: reached through this file, which is in the
 * native chunk the shell already knows, so the web's first download names no purchase chunk at all.
 */
export async function loadPurchases(kind: 'ios' | 'android', server: string): Promise<Purchases> {
  return (await import('#web/platform/store-purchases.ts')).appPurchases(kind, server);
}

/** The real plugins, wrapped (pluginMethods: a plugin object must never be what a promise resolves to): RevenueCat's, and the app's own StoreKit bridge. */
export async function loadRevenueCat(): Promise<PurchasesPluginLike> {
  const { Purchases } = await import('@revenuecat/purchases-capacitor');
  return pluginMethods(Purchases, ['setLogLevel', 'configure', 'logIn', 'getOfferings', 'purchasePackage', 'restorePurchases']);
}

export async function loadStoreKit(): Promise<StoreKitLike> {
  const { registerPlugin } = await import('@capacitor/core');
  const plugin = registerPlugin<StoreKitLike>('HarbourStoreKit');
  return pluginMethods(plugin, ['signedTransaction', 'finishTransaction']);
}
