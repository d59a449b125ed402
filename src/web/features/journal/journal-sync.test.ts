/**
 * The journal's sync engine against the real server (Fastify + PGlite) and a spec-complete
 * IndexedDB per device (fake-indexeddb; decision 0032): set-up and unlock, offline-first saving,
 * two devices converging through conflicts and deletions, the subscription rule, and damaged rows.
 * Each "device" is a fresh copy of the web modules bound to its own IndexedDB, as two browsers are.
 */
import 'fake-indexeddb/auto';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { subscribers } from '#server/db/schema/billing.ts';
import { journalRecords } from '#server/db/schema/journal.ts';
import type { Route } from '#shared/contracts/route.ts';
import type { JournalEntry } from '#shared/journal.ts';
import { journalTestDevices } from '#tests/journal-devices.ts';

// The idle lock needs a page to watch; its own tests (journal-lock.test.ts) run in one.
vi.mock('#web/lib/idle-watch.ts', () => ({ watchIdle: () => () => undefined }));

const devices = journalTestDevices();
const { subscriber, device, firstDevice, otherDevice } = devices;

const entry = (id: string, words: string): JournalEntry => ({ id, type: 'cbt', date: '2026-11-26', timeOfDay: 'evening', content: { thoughtPatterns: words, cognitiveDistortions: [], reframe: '' } });
const words = (entries: readonly JournalEntry[]) => entries.map((e) => (e.type === 'cbt' ? e.content.thoughtPatterns : e.type));

/** Two devices of a new subscriber, both holding entry 1 (`first`), then both offline: the start of every conflict. */
async function twoDevicesOffline(email: string, passphrase: string, first: string) {
  const person = await subscriber(email);
  const { browser: one, journal: a } = await firstDevice(person, passphrase);
  await a.add([entry('1', first)]);
  await a.sync();
  const { browser: two, journal: b } = await otherDevice(person, passphrase);
  one.setOnline(false);
  two.setOnline(false);
  return { one, a, two, b };
}

// Every passphrase here goes through Argon2id at the journal's own parameters (64 MiB, three passes,
// about a CPU-second each, several a test): on two cores shared with the rest of npm test a test
// took more than the default 30 s (a full run under load). The engine's checks stay as they are.
describe('the journal sync engine (issue 18)', { timeout: 120_000 }, () => {
  it('sets up on one device, unlocks on another, and converges through edits, conflicts and deletions', async () => {
    const person = await subscriber('sync-two@example.com');
    const laptop = await device(person.cookie);
    const { recoveryKey } = await laptop.access.setUpJournal(person.userId, 'harbour lights at dusk', laptop.request);
    const a = await laptop.open(person.userId);
    await a.add([entry('1', 'first worry'), entry('2', 'second worry')]);
    await a.sync();
    expect(a.state).toBe('synced');
    expect(a.pendingCount()).toBe(0);

    // The server holds only sealed rows: no word of an entry, no date.
    const rows = await devices.t.database.db.select().from(journalRecords).where(eq(journalRecords.userId, person.userId));
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      for (const text of [row.iv, row.data, Buffer.from(row.data, 'base64').toString('latin1')]) expect(text).not.toMatch(/first worry|second worry|2026-11-26|thoughtPatterns/);
    }

    const phone = await device(person.cookie);
    await expect(phone.access.unlockJournal(person.userId, 'the wrong passphrase', phone.request)).rejects.toThrow('That passphrase does not open this journal.');
    expect(await phone.store.loadDevice(person.userId)).toBeUndefined();
    await phone.access.unlockJournal(person.userId, 'harbour lights at dusk', phone.request);
    const b = await phone.open(person.userId);
    await b.sync();
    expect(words(b.entries())).toEqual(['second worry', 'first worry']);

    // Both edit at once: the phone deletes entry 1 while the laptop (not yet aware) adds a third.
    await b.remove('1');
    await a.add([entry('3', 'third worry')]);
    await Promise.all([a.sync(), b.sync()]);
    await Promise.all([a.sync(), b.sync()]);
    expect(words(a.entries())).toEqual(['third worry', 'second worry']);
    expect(words(b.entries())).toEqual(words(a.entries()));

    // A recovery key opens it on a third device and sets a new passphrase; the old one stops working.
    const tablet = await device(person.cookie);
    await tablet.access.recoverJournal(person.userId, recoveryKey.toLowerCase(), 'a brand new passphrase', tablet.request);
    const c = await tablet.open(person.userId);
    await c.sync();
    expect(words(c.entries())).toEqual(['third worry', 'second worry']);
    const fourth = await device(person.cookie);
    await expect(fourth.access.unlockJournal(person.userId, 'harbour lights at dusk', fourth.request)).rejects.toThrow('That passphrase does not open this journal.');
    await fourth.access.unlockJournal(person.userId, 'a brand new passphrase', fourth.request);
  });

  it('settles a true conflict the same way on both devices: the later edit wins, and the loser learns it', async () => {
    // Both go offline and delete-then-rewrite differently; the phone's change is made later.
    const { one, a, two, b } = await twoDevicesOffline('sync-conflict@example.com', 'quiet water, still mind', 'original');
    await a.remove('1');
    await new Promise((resolve) => setTimeout(resolve, 5));
    await b.removeAll();
    await b.add([entry('9', 'written later')]);
    expect(a.state).toBe('offline');
    expect(b.pendingCount()).toBe(2);
    one.setOnline(true);
    two.setOnline(true);
    await a.sync();
    await b.sync(); // its write of record 1 loses the race (409), it merges, and its newer tombstone is written again
    await a.sync();
    expect(words(a.entries())).toEqual(['written later']);
    expect(words(b.entries())).toEqual(['written later']);
    expect(a.pendingCount() + b.pendingCount()).toBe(0);
  });

  it('keeps a change made offline on the device, across a reload, until it can be sent', async () => {
    const person = await subscriber('sync-offline@example.com');
    const { browser, journal: first } = await firstDevice(person, 'ten characters at least');
    browser.setOnline(false);
    await first.add([entry('1', 'written on the train')]);
    await first.sync();
    expect(first.state).toBe('offline');
    expect(await devices.t.database.db.select().from(journalRecords).where(eq(journalRecords.userId, person.userId))).toEqual([]);

    // The page is reloaded (a new engine from the same device): the entry is still there, still waiting.
    const reloaded = await browser.open(person.userId);
    expect(words(reloaded.entries())).toEqual(['written on the train']);
    expect(reloaded.pendingCount()).toBe(1);
    browser.setOnline(true);
    await reloaded.sync();
    expect(reloaded.state).toBe('synced');
    expect(await devices.t.database.db.select().from(journalRecords).where(eq(journalRecords.userId, person.userId))).toHaveLength(1);
  });

  it('keeps new entries on the device when the subscription has lapsed, and still syncs deletions', async () => {
    const person = await subscriber('sync-lapsed@example.com');
    const { journal } = await firstDevice(person, 'ten characters at least');
    await journal.add([entry('1', 'kept')]);
    await journal.sync();
    await devices.t.database.db.delete(subscribers).where(eq(subscribers.userId, person.userId));

    await journal.add([entry('2', 'new after lapse')]);
    await journal.sync();
    expect(journal.state).toBe('needs-subscription');
    expect(words(journal.entries())).toEqual(['new after lapse', 'kept']);
    // Deleting what is already stored is never held back.
    await journal.remove('1');
    await journal.sync();
    const { journal: elsewhere } = await otherDevice(person, 'ten characters at least');
    expect(elsewhere.entries()).toEqual([]);
  });

  it('keeps a new entry on the device and says why when the journal is full on the server, and still syncs deletions (issue 33, row 3)', async () => {
    const person = await subscriber('sync-full@example.com');
    const { browser, journal } = await firstDevice(person, 'ten characters at least');
    await journal.add([entry('1', 'kept')]);
    await journal.sync();
    expect(journal.state).toBe('synced');
    // The server answers every new record as it does at the cap: with the journal's own words, which the page shows for this state.
    const { JOURNAL_LOCK_MESSAGES } = await import('#shared/journal-keys.ts');
    const { journalApi } = await import('#shared/contracts/journal.routes.ts');
    const full = (async (route: Route, input?: { body?: { baseSeq?: number | null } }) => {
      if (route.id === journalApi.saveRecord.id && input?.body?.baseSeq === null) {
        const { ApiError } = await import('#web/lib/api.ts');
        throw new ApiError(403, 'journal/full', JOURNAL_LOCK_MESSAGES.recordsFull, undefined, { limit: 'records' });
      }
      return (browser.request as (route: Route, input?: object) => Promise<unknown>)(route, input);
    }) as typeof browser.request;
    const atCap = await (await import('#web/features/journal/journal-sync.ts')).JournalSync.open(await browser.opened(person.userId), full);
    await atCap.sync();
    await atCap.add([entry('2', 'written at the cap')]);
    await atCap.sync();
    expect(atCap.state).toBe('records-full');
    expect(words(atCap.entries())).toEqual(['written at the cap', 'kept']);
    expect(atCap.pendingCount()).toBe(1);
    // Deleting what is stored is still sent; the new entry stays pending on this device.
    await atCap.remove('1');
    await atCap.sync();
    expect(atCap.state).toBe('records-full');
    expect(words(atCap.entries())).toEqual(['written at the cap']);
    expect(atCap.pendingCount()).toBe(1);
    const { journal: elsewhere } = await otherDevice(person, 'ten characters at least');
    expect(elsewhere.entries()).toEqual([]);
  });

  it('leaves out a row it cannot open (damaged, or moved from another account) and says how many', async () => {
    const person = await subscriber('sync-damaged@example.com');
    const { journal } = await firstDevice(person, 'ten characters at least');
    await journal.add([entry('1', 'safe'), entry('2', 'tampered')]);
    await journal.sync();
    const [row] = await devices.t.database.db.select().from(journalRecords).where(eq(journalRecords.userId, person.userId)).limit(1);
    const bytes = Buffer.from(row.data, 'base64');
    bytes[20] ^= 1;
    await devices.t.database.db.update(journalRecords).set({ data: bytes.toString('base64') }).where(eq(journalRecords.id, row.id));

    const { journal: fresh } = await otherDevice(person, 'ten characters at least');
    expect(fresh.entries()).toHaveLength(1);
    expect(fresh.unreadable.size).toBe(1);
  });

  it('forgets an account on this device: key and records, and nothing of another account', async () => {
    const ann = await subscriber('sync-ann@example.com');
    const { browser, journal } = await firstDevice(ann, 'ten characters at least');
    await journal.add([entry('1', 'ann private')]);
    // Locking lets go of the page's copy first, so a sync still in flight cannot write it back.
    journal.close();
    await browser.store.saveDevice({ accountId: 'someone-else', device: 'x', cursor: 0, keyring: null });
    expect(await browser.store.otherAccounts(ann.userId)).toEqual(['someone-else']);
    await browser.store.forgetAccount(ann.userId);
    expect(await browser.store.loadDevice(ann.userId)).toBeUndefined();
    expect(await browser.store.loadRecords(ann.userId)).toEqual([]);
    expect(await browser.store.loadDevice('someone-else')).toBeDefined();
  });

  it('keeps no key on the device: locking lets go of it, the sealed records stay, and the kept keyring unlocks offline (issue 36, item 1)', async () => {
    const person = await subscriber('sync-lock@example.com');
    const { browser, journal } = await firstDevice(person, 'ten characters at least');
    await journal.add([entry('1', 'kept sealed')]);
    await journal.sync();
    // What the device stores for the journal: no key of any kind, as stored (not only as loadDevice shows it).
    const { openDB } = await import('idb');
    const raw = await openDB('harbour-mind-journal');
    const stored = await raw.get('devices', person.userId);
    raw.close();
    expect(Object.keys(stored).sort()).toEqual(['accountId', 'cursor', 'device', 'keyring']);
    expect(Object.values(stored).some((value) => value instanceof CryptoKey)).toBe(false);

    journal.close();
    browser.lock.lockJournal();
    expect(browser.lock.heldKey(person.userId)).toBeNull();
    expect(await browser.store.loadRecords(person.userId)).toHaveLength(1);
    // Offline, the keyring kept on the device opens it; a wrong passphrase still does not.
    browser.setOnline(false);
    await expect(browser.access.unlockJournal(person.userId, 'not the passphrase', browser.request)).rejects.toThrow('That passphrase does not open this journal.');
    expect(browser.lock.heldKey(person.userId)).toBeNull();
    await browser.access.unlockJournal(person.userId, 'ten characters at least', browser.request);
    const again = await browser.open(person.userId);
    expect(words(again.entries())).toEqual(['kept sealed']);
    expect(again.pendingCount()).toBe(0);

    // A new passphrase set here is the one the kept keyring takes, offline too.
    browser.setOnline(true);
    await browser.access.replaceJournalPassphrase(person.userId, 'ten characters at least', 'another long passphrase', browser.request);
    again.close();
    browser.lock.lockJournal();
    browser.setOnline(false);
    await expect(browser.access.unlockJournal(person.userId, 'ten characters at least', browser.request)).rejects.toThrow('That passphrase does not open this journal.');
    await browser.access.unlockJournal(person.userId, 'another long passphrase', browser.request);
  });

  it('erases a key an earlier version stored on the device, keeping that journal open for this page only', async () => {
    const person = await subscriber('sync-upgrade@example.com');
    const browser = await device(person.cookie);
    const { device: opened } = await browser.access.setUpJournal(person.userId, 'ten characters at least', browser.request);
    // As the device record was before issue 36: the opened key stored beside it.
    const { openDB } = await import('idb');
    const raw = await openDB('harbour-mind-journal');
    await raw.put('devices', { accountId: person.userId, device: opened.device, cursor: 0, dataKey: opened.dataKey });
    browser.lock.lockJournal();
    const loaded = await browser.store.loadDevice(person.userId);
    // The same key (it opens what the original sealed), handed over once.
    const crypto = await import('#web/features/journal/journal-crypto.ts');
    const sealed = await crypto.sealRecord(opened.dataKey, person.userId, 'r1', { words: 'same key' });
    expect(await crypto.openRecord(loaded!.storedKey!, person.userId, 'r1', sealed)).toEqual({ words: 'same key' });
    expect(await raw.get('devices', person.userId)).toEqual({ accountId: person.userId, device: opened.device, cursor: 0, keyring: null });
    expect((await browser.store.loadDevice(person.userId))?.storedKey).toBeUndefined();
    raw.close();
  });

  it('counts the changes not yet sent, for the warning before signing out', async () => {
    const person = await subscriber('sync-unsynced@example.com');
    const { browser, journal } = await firstDevice(person, 'ten characters at least');
    await journal.add([entry('1', 'sent')]);
    await journal.sync();
    expect(await browser.store.unsyncedCount()).toBe(0);
    browser.setOnline(false);
    await journal.add([entry('2', 'waiting'), entry('3', 'waiting too')]);
    await journal.remove('1');
    expect(await browser.store.unsyncedCount()).toBe(3);
    browser.setOnline(true);
    await journal.sync();
    expect(await browser.store.unsyncedCount()).toBe(0);
  });

  it('refuses a rolled-back or resurrected record from the server, says so, and keeps what it had (issue 36, item 4)', async () => {
    const person = await subscriber('sync-rollback@example.com');
    const { journal: a } = await firstDevice(person, 'ten characters at least');
    await a.add([entry('1', 'written then deleted'), entry('2', 'stays')]);
    await a.sync();
    const rows = await devices.t.database.db.select().from(journalRecords).where(eq(journalRecords.userId, person.userId));
    const alive = rows.find((row) => row.seq === Math.min(...rows.map((r) => r.seq)))!;
    await a.remove('1');
    await a.sync();
    expect(words(a.entries())).toEqual(['stays']);

    // The server (or whoever holds its database) puts the old, validly sealed version back as a newer change.
    const newest = Math.max(...(await devices.t.database.db.select().from(journalRecords)).map((row) => row.seq));
    await devices.t.database.db.update(journalRecords).set({ iv: alive.iv, data: alive.data, seq: newest + 1_000 }).where(and(eq(journalRecords.userId, person.userId), eq(journalRecords.id, alive.id)));
    await a.sync();
    expect(words(a.entries())).toEqual(['stays']);
    expect([...a.refused]).toEqual([alive.id]);
    expect(a.state).toBe('synced');
  });

  it('keeps both versions when two devices change one entry at once: the later one to arrive becomes a conflicted copy (issue 36, item 4)', async () => {
    // Both change it offline; the laptop's reaches the server first.
    const { one, a, two, b } = await twoDevicesOffline('sync-copy@example.com', 'ten characters at least', 'as first written');
    await a.update(entry('1', 'the laptop’s words'));
    await b.update(entry('1', 'the phone’s words'));
    one.setOnline(true);
    two.setOnline(true);
    await a.sync();
    await b.sync(); // 409: the laptop's version keeps the record; the phone's is kept as a new entry
    await a.sync();
    for (const journal of [a, b]) {
      expect(words(journal.entries()).sort()).toEqual(['the laptop’s words', 'the phone’s words']);
      const copy = journal.entries().find((e) => e.type === 'cbt' && e.content.thoughtPatterns === 'the phone’s words')!;
      expect([...journal.conflicted()]).toEqual([copy.id]);
      expect(copy.id).not.toBe('1');
      expect(journal.pendingCount()).toBe(0);
      expect(journal.refused.size).toBe(0);
    }
  });

  it('stops a device that still holds a journal started anew elsewhere from sending any of it back (issue 36, item 3)', async () => {
    const person = await subscriber('sync-reset@example.com');
    const { browser: laptop, journal: a } = await firstDevice(person, 'ten characters at least');
    await a.add([entry('1', 'old journal')]);
    await a.sync();
    const { browser: phone } = await otherDevice(person, 'ten characters at least');

    // The phone starts a new journal while the laptop is offline with a change of its own.
    laptop.setOnline(false);
    await a.add([entry('2', 'written offline')]);
    await a.remove('1');
    await phone.access.startNewJournal(person.userId, phone.request);
    expect(phone.lock.heldKey(person.userId)).toBeNull();
    expect(await phone.store.loadDevice(person.userId)).toBeUndefined();
    await phone.access.setUpJournal(person.userId, 'a brand new passphrase', phone.request);

    laptop.setOnline(true);
    await a.sync();
    expect(a.state).toBe('started-anew');
    // Nothing of the old journal went back: the server holds no record (the new journal has none yet).
    expect(await devices.t.database.db.select().from(journalRecords).where(eq(journalRecords.userId, person.userId))).toEqual([]);
  });
});
