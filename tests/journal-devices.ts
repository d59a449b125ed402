/**
 * Simulated browsers for the journal's engine tests (decision 0032): the real server (Fastify + PGlite) and,
 * per device, a spec-complete IndexedDB (fake-indexeddb) and a fresh copy of the web modules, as two browsers
 * are. Call at a test file's top level; the file mocks the idle watch itself (vi.mock is hoisted per file).
 */
import { randomUUID } from 'node:crypto';
import { IDBFactory } from 'fake-indexeddb';
import { afterAll, beforeAll, vi } from 'vitest';
import { subscribers } from '#server/db/schema/billing.ts';
import { urlOf, type Route } from '#shared/contracts/route.ts';
import { createSignedInUser, origin } from '#tests/setup/auth-helpers.ts';
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts';

export function journalTestDevices() {
  const suite = {} as { t: TestApp };
  beforeAll(async () => {
    suite.t = await createTestApp({ kind: 'pglite' });
  });
  afterAll(() => suite.t.close());

  async function subscriber(email: string) {
    const person = await createSignedInUser(suite.t, email);
    await suite.t.database.db.insert(subscribers).values({ userId: person.userId, status: 'active', plan: 'monthly', provider: 'sandbox', providerSubscriptionId: `sandbox_${randomUUID()}`, currentPeriodEnd: new Date(Date.now() + 30 * 86_400_000) });
    return person;
  }

  /** One browser: its own IndexedDB and its own copy of the journal's modules, signed in as `cookie`. */
  async function device(cookie: string) {
    const t = suite.t;
    globalThis.indexedDB = new IDBFactory();
    vi.resetModules();
    const access = await import('#web/features/journal/journal-access.ts');
    const { JournalSync } = await import('#web/features/journal/journal-sync.ts');
    const store = await import('#web/features/journal/journal-store.ts');
    const lock = await import('#web/features/journal/journal-lock.ts');
    const { ApiError } = await import('#web/lib/api.ts');
    const { checkReply } = await import('#web/lib/reply-check.ts');
    // Opens this device's database now, while its own IndexedDB is the global one.
    await store.loadDevice('none');
    let online = true;
    // As call() does it (src/web/lib/call.ts): the route's method and path, the input's query and body, the reply checked against the contract.
    const request = (async (route: Route, input?: { params?: unknown; query?: unknown; body?: unknown }) => {
      if (!online) throw new ApiError(0, 'network', 'Unable to reach Harbour Mind. Please check your connection.');
      const response = await t.app.inject({ method: route.method, url: urlOf(route, input), headers: { ...origin(t), cookie }, ...(input?.body === undefined ? {} : { payload: input.body as object }) });
      const data = response.json();
      if (response.statusCode >= 400) throw new ApiError(response.statusCode, data.error.code, data.error.message, undefined, data.error.details);
      checkReply(route, data);
      return data;
    }) as Parameters<typeof JournalSync.open>[1];
    /** This device's journal as the page opens it: the keys this "page" holds in memory. */
    const opened = async (accountId: string) => ({ ...(await store.loadDevice(accountId))!, dataKey: lock.heldKey(accountId)!, previousKeys: lock.heldPreviousKeys(accountId) });
    return {
      access,
      store,
      request,
      setOnline: (value: boolean) => (online = value),
      lock,
      opened,
      open: async (accountId: string) => JournalSync.open(await opened(accountId), request),
    };
  }

  type Person = { cookie: string; userId: string };

  /** The first device: `person` sets the journal up on it with `passphrase`; and the journal it opens. */
  async function firstDevice(person: Person, passphrase: string) {
    const browser = await device(person.cookie);
    const { recoveryKey } = await browser.access.setUpJournal(person.userId, passphrase, browser.request);
    return { browser, journal: await browser.open(person.userId), recoveryKey };
  }

  /** Another device of `person`, unlocked with `passphrase`; and its journal, synced with what the others sent. */
  async function otherDevice(person: Person, passphrase: string) {
    const browser = await device(person.cookie);
    await browser.access.unlockJournal(person.userId, passphrase, browser.request);
    const journal = await browser.open(person.userId);
    await journal.sync();
    return { browser, journal };
  }

  return {
    get t() {
      return suite.t;
    },
    subscriber,
    device,
    firstDevice,
    otherDevice,
  };
}
