/**
 * The signed-in person's journal on this page (issue 18; decisions 0031, 0054): end-to-end encrypted,
 * kept on the device and synced. It opens from this device's copy (so it works offline) while this
 * page holds its key (journal-lock.ts), then syncs; otherwise it asks to set up or unlock, and locks
 * again whenever the key is let go (the button, idle time, signing out). Another account's journal left
 * in this browser is forgotten as soon as a different account opens the journal.
 */
import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import { JOURNAL, readEntries, type JournalEntry } from '#shared/journal.ts';
import { JOURNAL_BIOMETRIC_MESSAGES as B, JOURNAL_LOCK_MESSAGES as L, type BiometryKind } from '#shared/journal-keys.ts';
import { recoverJournal, rotateJournalKey, setUpJournal, startNewJournal, unlockJournal, unlockWithBiometrics } from '#web/features/journal/journal-access.ts';
import { deviceBiometricStore, enrolBiometricUnlock, forgetBiometricUnlock, newWrappingSecret, removeLeftoverSecret } from '#web/features/journal/journal-biometric.ts';
import { JournalLockedError } from '#web/features/journal/journal-crypto.ts';
import { heldKey, heldPreviousKeys, holdKey, lockJournal, onLockChange } from '#web/features/journal/journal-lock.ts';
import { forgetAccount, loadBiometricUnlock, loadDevice, otherAccounts, type OpenedDevice } from '#web/features/journal/journal-store.ts';
import { JournalSync } from '#web/features/journal/journal-sync.ts';
import { journalApi } from '#shared/contracts/journal.routes.ts';
import { ApiError } from '#web/lib/api.ts';
import { call } from '#web/lib/call.ts';
import { readStored, removeStored } from '#web/lib/storage.ts';
import { toast } from '#web/lib/toast.ts';
import { BiometricError } from '#web/platform/biometrics.ts';

type JournalStatus = 'loading' | 'signed-out' | 'set-up' | 'locked' | 'unreachable' | 'open' | 'failed';

const NO_COPIES: ReadonlySet<string> = new Set();

/** How often an open journal looks for other devices' changes while the page is visible. */
const SYNC_EVERY_MS = 30_000;

/** Entries written before journals belonged to accounts (the spec's browser-wide key). */
function legacyEntries(): JournalEntry[] {
  return readEntries(readStored(JOURNAL.storageKey)).entries;
}

function forgetLegacy(): void {
  removeStored(JOURNAL.storageKey);
  removeStored(JOURNAL.backupKey);
}

/** Where one account's journal stands on this page; `key` says which account and attempt it belongs to. */
type Opened = { key: string; status: JournalStatus; engine: JournalSync | null };

/**
 * Face ID / fingerprint on this device (decision 0065): what it offers (null on the web and where it offers
 * nothing usable), and whether this account's journal unlocks with it here.
 */
type Biometric = { available: BiometryKind | null; enrolled: BiometryKind | null };
const NO_BIOMETRIC: Biometric = { available: null, enrolled: null };

export function useJournal(accountId: string | null, viewerLoading: boolean) {
  const [attempt, setAttempt] = useState(0);
  const key = `${accountId ?? ''}|${String(attempt)}`;
  const [opened, setOpened] = useState<Opened>({ key: '', status: 'loading', engine: null });
  const [legacy, setLegacy] = useState<JournalEntry[]>([]);
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  const [biometric, setBiometric] = useState<Biometric>(NO_BIOMETRIC);
  const [biometricChecks, recheckBiometric] = useReducer((n: number) => n + 1, 0);
  // Which account and attempt the page is on now, for answers that arrive after it moved on.
  const currentKey = useRef(key);
  useEffect(() => {
    currentKey.current = key;
  }, [key]);

  // A state from another account or attempt is never shown: until this one's answer comes, it is loading.
  const fresh = opened.key === key;
  const status: JournalStatus = viewerLoading ? 'loading' : !accountId ? 'signed-out' : fresh ? opened.status : 'loading';
  const engine = !viewerLoading && accountId && fresh ? opened.engine : null;

  const open = useCallback(async (device: OpenedDevice, forKey: string) => {
    const journal = await JournalSync.open(device, call);
    if (currentKey.current !== forKey) {
      journal.close();
      return;
    }
    setLegacy(legacyEntries());
    setOpened({ key: forKey, status: 'open', engine: journal });
  }, []);

  useEffect(() => {
    if (viewerLoading || !accountId) return;
    const forKey = `${accountId}|${String(attempt)}`;
    const stale = () => currentKey.current !== forKey;
    void (async () => {
      try {
        for (const other of await otherAccounts(accountId)) await forgetAccount(other);
        if (!heldKey(accountId)) lockJournal(); // another account's key, if this page held one
        const device = await loadDevice(accountId);
        // A key an earlier version stored on the device: erased there now, kept for this page only.
        if (device?.storedKey) holdKey(accountId, device.storedKey);
        const dataKey = heldKey(accountId);
        if (device && dataKey) {
          if (!stale()) await open({ accountId, device: device.device, cursor: device.cursor, keyring: device.keyring, dataKey, previousKeys: heldPreviousKeys(accountId) }, forKey);
          return;
        }
        // Unlocked here before: the kept keyring opens it, offline too.
        if (device?.keyring) {
          if (!stale()) setOpened({ key: forKey, status: 'locked', engine: null });
          return;
        }
        const { keyring } = await call(journalApi.keyring);
        if (!stale()) setOpened({ key: forKey, status: keyring ? 'locked' : 'set-up', engine: null });
      } catch (error) {
        if (!stale()) setOpened({ key: forKey, status: error instanceof ApiError && error.code === 'network' ? 'unreachable' : 'failed', engine: null });
      }
    })();
  }, [accountId, viewerLoading, open, attempt]);

  // The key let go (the button, idle time, signing out in another part of the page): the journal locks here.
  useEffect(
    () =>
      onLockChange(() => {
        if (accountId && heldKey(accountId)) return;
        setOpened((now) => (now.status === 'open' ? { key: now.key, status: 'locked', engine: null } : now));
      }),
    [accountId],
  );

  // Inside the apps: what the device offers, and whether this journal unlocks with it here (looked at again after
  // every lock, unlock or change of keys); a secret left by an account that signed out goes.
  const statusNow = status;
  useEffect(() => {
    if (!accountId) return;
    const asked = { current: true };
    void (async () => {
      const store = await deviceBiometricStore();
      if (!store) return;
      await removeLeftoverSecret(store);
      const [available, unlock] = await Promise.all([store.available(), loadBiometricUnlock(accountId)]);
      if (asked.current) setBiometric({ available, enrolled: unlock?.kind ?? null });
    })().catch((error: unknown) => console.warn('biometric unlock not checked', error));
    return () => {
      asked.current = false;
    };
  }, [accountId, statusNow, biometricChecks]);

  // Started anew on another device (issue 36, item 3): this device forgets the old journal, then opens as the server now says.
  const startedAnew = engine?.state === 'started-anew';
  useEffect(() => {
    if (!startedAnew || !accountId) return;
    lockJournal();
    void forgetAccount(accountId).then(() => {
      toast.info(L.resetElsewhere);
      setAttempt((n) => n + 1);
    });
  }, [startedAnew, accountId]);

  // The key was replaced on another device (decision 0061): this device may no longer write under the old one.
  // It locks, keeping its sealed records and changes; unlocking with the passphrase opens the new key and sends them.
  const keyReplaced = engine?.state === 'key-replaced';
  useEffect(() => {
    if (!keyReplaced) return;
    lockJournal();
    toast.info(L.keyReplacedElsewhere);
  }, [keyReplaced]);

  // Once open (a routine background round, with nothing waiting, keeps saying "synced": the status line
  // is a live region and must not announce every 30 seconds): show every change, sync now, when the connection returns, when the page is looked at again, and now and then.
  useEffect(() => {
    if (!engine) return;
    const unsubscribe = engine.subscribe(rerender);
    const sync = () => {
      if (document.visibilityState === 'visible') void engine.sync();
    };
    sync();
    window.addEventListener('online', sync);
    document.addEventListener('visibilitychange', sync);
    const timer = window.setInterval(sync, SYNC_EVERY_MS);
    return () => {
      unsubscribe();
      // Leaving the page, locking or signing out: this copy stops writing to the device.
      engine.close();
      window.removeEventListener('online', sync);
      document.removeEventListener('visibilitychange', sync);
      window.clearInterval(timer);
    };
  }, [engine]);

  /** Stores the entry on this device (encrypted) and queues it for sync; false when the device refused, so the form keeps its text. */
  const add = useCallback(
    async (entry: JournalEntry): Promise<boolean> => {
      if (!engine) return false;
      // Ids are timestamps (spec); two saves in the same millisecond must still be two entries.
      let id = Number(entry.id);
      while (engine.entries().some((e) => e.id === String(id))) id += 1;
      try {
        await engine.add([{ ...entry, id: String(id) }]);
        return true;
      } catch {
        toast.error(L.storageRefusedTitle, { description: L.storageRefusedBody });
        return false;
      }
    },
    [engine],
  );

  const remove = useCallback((id: string) => void engine?.remove(id).catch(() => toast.error(L.storageRefusedTitle)), [engine]);
  const removeAll = useCallback(() => void engine?.removeAll().catch(() => toast.error(L.storageRefusedTitle)), [engine]);

  const setUp = useCallback(
    async (passphrase: string): Promise<string> => {
      if (!accountId) throw new Error('Signed out');
      try {
        const { device, recoveryKey } = await setUpJournal(accountId, passphrase, call);
        await open(device, key);
        return recoveryKey;
      } catch (error) {
        // Another device set the journal up first: this one unlocks it instead.
        if (error instanceof ApiError && error.status === 409) setOpened({ key, status: 'locked', engine: null });
        throw error;
      }
    },
    [accountId, open, key],
  );

  /**
   * Unlocks with the passphrase, or the recovery key and a new passphrase. With `rememberBiometric` (inside the
   * apps, ticked by the person) the same unlock also turns on Face ID / fingerprint for next time (decision
   * 0065); if the device does not take it, the journal is open all the same and says so.
   */
  const unlock = useCallback(
    async (secret: { passphrase: string; rememberBiometric?: boolean } | { recoveryKey: string; newPassphrase: string }): Promise<void> => {
      if (!accountId) throw new Error('Signed out');
      if (!('passphrase' in secret)) {
        await open(await recoverJournal(accountId, secret.recoveryKey, secret.newPassphrase, call), key);
        recheckBiometric();
        return;
      }
      const kind = secret.rememberBiometric ? biometric.available : null;
      const wrapping = kind ? await newWrappingSecret() : null;
      const device = await unlockJournal(accountId, secret.passphrase, call, wrapping?.key);
      if (kind && wrapping && device.wrappedFor && device.keyring) {
        try {
          const store = await deviceBiometricStore();
          if (!store) throw new Error('No biometric store');
          await enrolBiometricUnlock(store, accountId, kind, wrapping.secret, device.wrappedFor, device.keyring);
          toast.success(B.enrolled(kind));
        } catch (error) {
          console.warn('biometric unlock not turned on', error);
          toast.error(B.notEnrolled(kind));
        }
        recheckBiometric();
      }
      await open(device, key);
    },
    [accountId, open, key, biometric.available],
  );

  /** Unlocks with Face ID / fingerprint; a refusal is said in words that send the person to the passphrase. */
  const unlockBiometric = useCallback(async (): Promise<void> => {
    const kind = biometric.enrolled;
    if (!accountId || !kind) throw new Error('Not turned on');
    const store = await deviceBiometricStore();
    try {
      if (!store) throw new BiometricError('failed');
      await open(await unlockWithBiometrics(accountId, store, call), key);
    } catch (error) {
      if (!(error instanceof BiometricError)) throw error;
      if (error.refusal === 'gone') recheckBiometric();
      throw new JournalLockedError(error.refusal === 'gone' ? B.gone(kind) : error.refusal === 'cancelled' ? B.cancelled(kind) : B.failed(kind));
    }
  }, [accountId, open, key, biometric.enrolled]);

  /** Turns Face ID / fingerprint unlock off on this device. */
  const turnOffBiometric = useCallback(async (): Promise<void> => {
    const kind = biometric.enrolled;
    if (!accountId || !kind) return;
    await forgetBiometricUnlock(accountId);
    recheckBiometric();
    toast.success(B.turnedOff(kind));
  }, [accountId, biometric.enrolled]);

  /**
   * Replaces the data key and the recovery key (decision 0061): only once every change on this device is on the
   * server (a change sealed under the old key and not yet sent would have to wait for the new engine). This
   * page's copy closes first, so nothing more is written under the old key; the new engine then seals every
   * record again and sends them. Returns the new recovery key, to show once.
   */
  const rotate = useCallback(
    async (current: string, next: string): Promise<string> => {
      if (!accountId || !engine) throw new Error('Locked');
      await engine.sync();
      if (engine.pendingCount() > 0 || engine.state !== 'synced') throw new RotationNeedsSyncError();
      engine.close();
      try {
        const { device, recoveryKey } = await rotateJournalKey(accountId, current, next, call);
        await open(device, key);
        // A new key turns Face ID / fingerprint off (journal-access).
        recheckBiometric();
        return recoveryKey;
      } catch (error) {
        // Nothing changed on the server (or the new keys are held): open again from what this page holds.
        setAttempt((n) => n + 1);
        throw error;
      }
    },
    [accountId, engine, open, key],
  );

  /** Lets go of the key (onLockChange closes this page's copy); the sealed records stay on this device and on the server. */
  const lock = useCallback(() => {
    lockJournal();
    toast.success(L.lockedNow);
  }, []);

  /** Deletes the journal on the server and this device (the dialog asked for the word); then it is to be set up again. */
  const startOver = useCallback(async () => {
    if (!accountId) return;
    await startNewJournal(accountId, call);
    setOpened({ key, status: 'set-up', engine: null });
    toast.success(L.resetDone);
  }, [accountId, key]);

  const importLegacy = useCallback(async () => {
    if (!engine) return;
    const entries = legacyEntries();
    try {
      await engine.add(entries);
    } catch {
      toast.error(L.storageRefusedTitle);
      return;
    }
    // Only once they are stored in the account's journal on this device is the old copy removed.
    forgetLegacy();
    setLegacy([]);
    toast.success(L.legacyImported(entries.length));
  }, [engine]);

  const discardLegacy = useCallback(() => {
    forgetLegacy();
    setLegacy([]);
  }, []);

  return {
    accountId,
    status,
    entries: engine?.entries() ?? [],
    sync: engine ? { state: engine.state === 'syncing' && engine.hasSynced && engine.pendingCount() === 0 ? ('synced' as const) : engine.state, pending: engine.pendingCount(), unreadable: engine.unreadable.size, refused: engine.refused.size } : null,
    /** Entry ids kept as "conflicted copy" (decision 0055). */
    conflicted: engine?.conflicted() ?? NO_COPIES,
    add,
    remove,
    removeAll,
    setUp,
    unlock,
    rotate,
    biometric: { ...(accountId ? biometric : NO_BIOMETRIC), unlock: unlockBiometric, turnOff: turnOffBiometric, recheck: recheckBiometric },
    lock,
    startOver,
    legacy: { count: legacy.length, importAll: importLegacy, discard: discardLegacy },
    retry: useCallback(() => setAttempt((n) => n + 1), []),
  };
}

export type Journal = ReturnType<typeof useJournal>;

/** A rotation asked for while changes wait on this device: they must reach the server first. */
export class RotationNeedsSyncError extends Error {
  constructor() {
    super(L.rotateNeedsSync);
    this.name = 'RotationNeedsSyncError';
  }
}
