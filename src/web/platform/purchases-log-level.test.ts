/**
 * The purchase SDK's log level (consumer document §9 'Purchase SDK log level debug'; issue 33): debug in
 * development builds, set before the SDK is configured; store builds leave the SDK at its release level.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PurchasesPluginLike } from '#web/platform/store-purchases.ts';
import { createNativePurchases } from '#web/platform/store-purchases.ts';
import { fakeRevenueCat } from '#tests/fakes/revenuecat.ts';

/** The plugin the app's own wiring (appPurchases) loads, in place of RevenueCat's native one. */
const current = vi.hoisted(() => ({ plugin: undefined as PurchasesPluginLike | undefined }));
vi.mock('#web/platform/native-store-plugins.ts', () => ({
  loadRevenueCat: () => Promise.resolve(current.plugin),
  loadStoreKit: () => Promise.reject(new Error('unused')),
}));
afterEach(() => vi.unstubAllEnvs());

const noWait = () => Promise.resolve();
const server = { appAccountToken: () => Promise.reject(new Error('unused')), validateReceipt: () => Promise.reject(new Error('unused')) };

function purchasesWith(debugLog: boolean | undefined) {
  const rc = fakeRevenueCat();
  const purchases = createNativePurchases({ kind: 'ios', apiKey: 'appl_test', loadPurchases: () => Promise.resolve(rc.plugin), loadStoreKit: () => Promise.reject(new Error('unused')), server, sandbox: false, debugLog, wait: noWait });
  return { rc, purchases };
}

describe('purchase SDK log level', () => {
  it('is debug in a development build, set once, before configure', async () => {
    const { rc, purchases } = purchasesWith(true);
    await purchases.products();
    await purchases.products();
    expect(rc.methods().filter((m) => m === 'setLogLevel' || m === 'configure')).toEqual(['setLogLevel', 'configure']);
    expect(rc.calls.find((c) => c.method === 'setLogLevel')?.options).toEqual({ level: 'DEBUG' });
  });

  it('is left at the SDK release level in a store build', async () => {
    for (const debugLog of [false, undefined]) {
      const { rc, purchases } = purchasesWith(debugLog);
      await purchases.products();
      expect(rc.methods()).not.toContain('setLogLevel');
      expect(rc.methods()).toContain('configure');
    }
  });

  it('follows the build: debug when Vite marks it a development build (import.meta.env.DEV), not otherwise', async () => {
    for (const dev of [true, false]) {
      const rc = fakeRevenueCat();
      current.plugin = rc.plugin;
      vi.stubEnv('DEV', dev);
      vi.stubEnv('VITE_REVENUECAT_IOS_KEY', 'appl_test');
      vi.resetModules();
      const { appPurchases } = await import('#web/platform/store-purchases.ts');
      void appPurchases('ios', 'https://harbour.example').products();
      await vi.waitFor(() => expect(rc.methods()).toContain('configure'), { timeout: 10_000 });
      expect(rc.methods().includes('setLogLevel'), `DEV=${String(dev)}`).toBe(dev);
    }
  });
});
