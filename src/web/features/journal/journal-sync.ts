/**
 * The journal's sync engine (issue 18; decision 0031): offline-first. A change is sealed and kept on
 * the device before it shows, then sent when the server can be reached; the server's changes are
 * read after the last one seen and merged by journal-merge's rule, so devices converge.
 *
 * Every change to the in-memory copy and its stored twin happens inside `exclusive`, one at a time,
 * so a reply arriving while the person edits never writes an older state over a newer one. Network
 * calls happen outside it.
 */
import { generationOf, sealRecord, type SealedRecord } from '#web/features/journal/journal-crypto.ts';
import { openStoredRecord } from '#web/features/journal/journal-record-open.ts';
import { conflictedCopies, edit, rebase, receive, stamp, visibleEntries, written, type LocalRecord, type RecordVersion } from '#web/features/journal/journal-merge.ts';
import { loadRecords, saveRecords, type OpenedDevice, type StoredRecord } from '#web/features/journal/journal-store.ts';
import type { JournalEntry } from '#shared/journal.ts';
import { journalApi } from '#shared/contracts/journal.routes.ts';
import { ApiError } from '#web/lib/api.ts';
import type { call } from '#web/lib/call.ts';

/**
 * What the person is told about sync: all sent, sending, waiting for a connection, waiting for a
 * subscription, or the account's journal at its cap on the server ('records-full', 'bytes-full':
 * issue 33, row 3). In every state but 'synced' the changes not sent stay on this device, pending.
 */
export type SyncState = 'synced' | 'syncing' | 'offline' | 'needs-subscription' | 'records-full' | 'bytes-full' | 'failed' | 'started-anew' | 'key-replaced';
type ServerRefusal = 'needs-subscription' | 'records-full' | 'bytes-full';

/** How the engine reaches the server: call() on the page, a simulated browser's own in the tests. */
type Request = typeof call;
type ServerRecord = { id: string; seq: number; iv: string; data: string };

/** How many times one record is written again after losing a race before the engine waits for the next round. */
const MAX_CONFLICT_RETRIES = 5;

class JournalClosedError extends Error {
  constructor() {
    super('This journal was closed on this page.');
  }
}

/** The server's keyring moved on to a newer data key (a rotation on another device: decision 0061). */
class KeyReplacedError extends Error {
  constructor() {
    super('This journal has a new key.');
  }
}

export class JournalSync {
  private readonly records = new Map<string, LocalRecord>();
  /** The sealed form of each record's current version: what the device stores and sends. */
  private readonly sealed = new Map<string, SealedRecord>();
  private readonly listeners = new Set<() => void>();
  private cursor: number;
  private lock: Promise<unknown> = Promise.resolve();
  private running: Promise<void> | null = null;
  private again = false;
  private visible: JournalEntry[] = [];
  private copies: ReadonlySet<string> = new Set();
  /** Set when the page lets go of the journal (locking, signing out): nothing more is stored or sent. */
  private closed = false;
  state: SyncState = 'syncing';
  /** Whether a round has ever finished with everything sent: later background rounds then need no "Syncing..." of their own. */
  hasSynced = false;
  /** Records this key cannot open (damaged, or sealed by another journal) or this app cannot show: left alone, counted. */
  readonly unreadable = new Set<string>();
  /**
   * Records whose version from the server this device refused (decision 0055): older than one it had seen,
   * or an entry for a record it had seen deleted. The device keeps what it had; the page says how many.
   */
  readonly refused = new Set<string>();
  /** Records that opened only with a data key a rotation replaced (decision 0061): sealed again under the current one. */
  private readonly stale = new Set<string>();

  private constructor(
    private readonly device: OpenedDevice,
    private readonly request: Request,
  ) {
    this.cursor = device.cursor;
  }

  /** Opens this device's copy: every stored record decrypted in memory. Nothing is fetched yet. */
  static async open(device: OpenedDevice, request: Request): Promise<JournalSync> {
    const engine = new JournalSync(device, request);
    for (const stored of await loadRecords(device.accountId)) {
      const version = await engine.tryOpen(stored.id, stored.sealed);
      if (!version) continue;
      // Stored before versions were remembered: what it holds is the newest seen, unless still to be sent.
      const seen = stored.seen ?? (stored.pending ? 0 : version.rev);
      engine.records.set(stored.id, { version, seq: stored.seq, pending: stored.pending, seen });
      engine.sealed.set(stored.id, stored.sealed);
    }
    await engine.sealStaleAgain();
    engine.refresh();
    return engine;
  }

  /** The entries to show, newest first. */
  entries(): JournalEntry[] {
    return this.visible;
  }

  /** The ids of the entries kept as "conflicted copy": this device's version of an entry that another device changed first. */
  conflicted(): ReadonlySet<string> {
    return this.copies;
  }

  /** How many changes are kept on this device and not yet on the server. */
  pendingCount(): number {
    let count = 0;
    for (const record of this.records.values()) if (record.pending) count += 1;
    return count;
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Adds entries (one, or a whole import) as new records. Resolves once they are stored on this device. */
  async add(entries: readonly JournalEntry[]): Promise<void> {
    await this.change(entries.map((entry) => ({ id: crypto.randomUUID(), entry })));
  }

  /**
   * Stores a changed entry (same entry id) as the next version of its record. The page offers no editing
   * yet; another device's app that does may change an entry while this one deletes or changes it too
   * (decision 0055: the loser is kept as a conflicted copy).
   */
  async update(entry: JournalEntry): Promise<void> {
    await this.change([...this.records].filter(([, record]) => record.version.entry?.id === entry.id).map(([id]) => ({ id, entry })));
  }

  async remove(entryId: string): Promise<void> {
    await this.change([...this.records].filter(([, record]) => record.version.entry?.id === entryId).map(([id]) => ({ id, entry: null })));
  }

  async removeAll(): Promise<void> {
    await this.change([...this.records].filter(([, record]) => record.version.entry).map(([id]) => ({ id, entry: null })));
  }

  /** Stops storing and sending: what is in flight finishes without writing to the device again. */
  close(): void {
    this.closed = true;
    this.listeners.clear();
  }

  /** Reads the server's changes and sends this device's. Calls made while one runs are folded into one more round. */
  sync(): Promise<void> {
    if (this.closed) return Promise.resolve();
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = (async () => {
      try {
        do {
          this.again = false;
          await this.round();
        } while (this.askedAgain());
      } finally {
        this.running = null;
      }
    })();
    return this.running;
  }

  /** Whether a sync was asked for while the last round ran (the flag is set from other calls). */
  private askedAgain(): boolean {
    return this.again && !this.closed;
  }

  // ---- one round

  private async round(): Promise<void> {
    if (this.state === 'started-anew' || this.state === 'key-replaced') return;
    this.setState('syncing');
    try {
      // "Start a new journal" on another device deleted this one: nothing of it may be sent again
      // (sealed under the old key, it would sit unreadable in the new journal). The page forgets it.
      // A rotation elsewhere: nothing more is sent under the old key; the page locks, keeping this device's changes.
      const keyring = await this.serverKeyring();
      if (keyring !== 'same') {
        this.setState(keyring);
        return;
      }
      await this.pull();
      const refused = await this.push();
      if (!refused) this.hasSynced = true;
      this.setState(refused ?? 'synced');
    } catch (error) {
      if (error instanceof JournalClosedError) return;
      if (error instanceof KeyReplacedError) {
        this.setState('key-replaced');
        return;
      }
      this.setState(error instanceof ApiError && (error.code === 'network' || error.status >= 500 || error.status === 429) ? 'offline' : 'failed');
    }
  }

  /**
   * Whether the server's keyring is still the one this device unlocked (issue 36, item 3): gone or another
   * journal (a reset elsewhere), or a newer generation of this one (a rotation elsewhere: decision 0061).
   */
  private async serverKeyring(): Promise<'same' | 'started-anew' | 'key-replaced'> {
    const kept = this.device.keyring;
    // Unlocked before keyrings were kept on the device: nothing to compare with.
    if (!kept) return 'same';
    const { keyring } = await this.request(journalApi.keyring);
    if (!keyring) return 'started-anew';
    if (generationOf(keyring) > generationOf(kept)) return 'key-replaced';
    return keyring.recovery.wrapped.data === kept.recovery.wrapped.data ? 'same' : 'started-anew';
  }

  /** The generation of the data key this device seals with (decision 0061); the server takes writes under its current one only. */
  private get generation(): number {
    return this.device.keyring ? generationOf(this.device.keyring) : 1;
  }

  private async pull(): Promise<void> {
    let more = true;
    while (more) {
      const page = await this.request(journalApi.records, { query: { after: this.cursor } });
      await this.exclusive(async () => {
        const changed: string[] = [];
        for (const record of page.records) changed.push(...(await this.take(record)));
        await this.persist(changed, page.last);
        this.cursor = Math.max(this.cursor, page.last);
      });
      more = page.more;
    }
    await this.exclusive(async () => {
      const again = await this.sealStaleAgain();
      await this.persist(again);
    });
  }

  /**
   * Seals again under the current data key every record that opened only with a replaced one (decision 0061):
   * a pending change keeps its version (it is still to be sent), a settled one becomes the next version of
   * itself, pending. Run when the journal opens and after every read, so a rotation interrupted halfway is
   * finished by whichever device opens the journal next. Answers the ids sealed again.
   */
  private async sealStaleAgain(): Promise<string[]> {
    const ids = [...this.stale];
    for (const id of ids) {
      this.stale.delete(id);
      const local = this.records.get(id);
      if (!local) continue;
      const next = local.pending ? local : edit(local, { entry: local.version.entry, updatedAt: stamp(Date.now(), local), device: this.device.device, ...(local.version.copyOf === undefined ? {} : { copyOf: local.version.copyOf }) });
      this.records.set(id, next);
      this.sealed.set(id, await sealRecord(this.device.dataKey, this.device.accountId, id, next.version));
    }
    return ids;
  }

  /**
   * Sends every pending record; says why the server refused one (no subscription, the journal's cap),
   * if it did. A refused record stays pending on this device; the others are still sent (an edit or a
   * deletion is taken at the cap).
   */
  private async push(): Promise<ServerRefusal | undefined> {
    let refused: ServerRefusal | undefined;
    for (const id of [...this.records.keys()]) {
      for (let attempt = 0; attempt < MAX_CONFLICT_RETRIES; attempt += 1) {
        const local = this.records.get(id);
        const sealed = this.sealed.get(id);
        if (!local?.pending || !sealed) break;
        try {
          const { seq } = await this.request(journalApi.saveRecord, { params: { id }, body: { ...sealed, baseSeq: local.seq, generation: this.generation } });
          await this.exclusive(async () => {
            const now = this.records.get(id);
            if (!now) return;
            this.records.set(id, written(now, local.version, seq));
            await this.rebase(id);
            await this.persist([id]);
          });
          break;
        } catch (error) {
          if (error instanceof ApiError && error.status === 403 && error.code === 'subscription/required') {
            refused ??= 'needs-subscription';
            break;
          }
          if (error instanceof ApiError && error.status === 403 && error.code === 'journal/full') {
            refused = (error.details as { limit?: string } | undefined)?.limit === 'records' ? 'records-full' : 'bytes-full';
            break;
          }
          // Sealed under a key the server no longer takes (a rotation elsewhere): stop sending; the page asks to unlock again.
          if (error instanceof ApiError && error.code === 'journal/key-replaced') throw new KeyReplacedError();
          if (!(error instanceof ApiError && error.status === 409)) throw error;
          // Another device got there first: merge its version, and write again if this one still wins.
          const current = (error.details as { current?: ServerRecord | null } | undefined)?.current ?? null;
          await this.exclusive(async () => {
            const changed = current ? await this.take(current) : [];
            if (!current) {
              // Gone from the server while this device knew a change number: send it as new.
              const now = this.records.get(id);
              if (now) this.records.set(id, { ...now, seq: null });
            }
            await this.persist([id, ...changed]);
          });
        }
      }
    }
    return refused;
  }

  // ---- changes to the copy

  private async change(changes: readonly { id: string; entry: JournalEntry | null }[]): Promise<void> {
    if (changes.length === 0) return;
    await this.exclusive(async () => {
      const next = new Map<string, { record: LocalRecord; sealed: SealedRecord }>();
      for (const { id, entry } of changes) {
        const local = this.records.get(id);
        const record = edit(local, { entry, updatedAt: stamp(Date.now(), local), device: this.device.device });
        next.set(id, { record, sealed: await sealRecord(this.device.dataKey, this.device.accountId, id, record.version) });
      }
      // Stored before shown: if the device refuses (full or blocked), nothing changes and the caller says so.
      await saveRecords(this.device.accountId, [...next].map(([id, { record, sealed }]) => this.stored(id, record, sealed)));
      for (const [id, { record, sealed }] of next) {
        this.records.set(id, record);
        this.sealed.set(id, sealed);
        this.stale.delete(id);
      }
      this.refresh();
    });
    void this.sync();
  }

  /** Merges one server version into the copy; answers the ids of the records that changed (a conflicted copy is a new one). */
  private async take(record: ServerRecord): Promise<string[]> {
    // Whether the seal this device holds for the record is under a replaced key: it stays so unless the server's seal is taken.
    const wasStale = this.stale.has(record.id);
    const version = await this.tryOpen(record.id, record);
    if (!version) return [];
    const before = this.records.get(record.id);
    const { record: after, refused, copy } = receive(before, { seq: record.seq, version });
    if (refused || !after || after === before || after.pending) {
      if (wasStale) this.stale.add(record.id);
      else this.stale.delete(record.id);
    }
    if (refused) {
      // Reported, never applied: the server served a version older than one seen here, or undid a deletion.
      this.refused.add(record.id);
      this.notify();
      return [];
    }
    if (!after || after === before) return [];
    this.refused.delete(record.id);
    this.records.set(record.id, after);
    // Keeping its own newer version, the device keeps that version's seal; else it takes the server's.
    if (!after.pending) this.sealed.set(record.id, { iv: record.iv, data: record.data });
    await this.rebase(record.id);
    return copy ? [record.id, await this.keepCopy(record.id, copy)] : [record.id];
  }

  /** Renumbers (and seals again) a pending version the server has caught up with, so it is sent as newer. */
  private async rebase(id: string): Promise<void> {
    const local = this.records.get(id);
    if (!local) return;
    const next = rebase(local);
    if (next === local) return;
    this.records.set(id, next);
    this.sealed.set(id, await sealRecord(this.device.dataKey, this.device.accountId, id, next.version));
  }

  /** Keeps this device's losing version of a record as a new record: the "conflicted copy", with an entry id of its own. */
  private async keepCopy(of: string, lost: RecordVersion): Promise<string> {
    const id = crypto.randomUUID();
    const taken = new Set([...this.records.values()].flatMap((r) => (r.version.entry ? [r.version.entry.id] : [])));
    let entryId = Number(lost.entry?.id);
    while (taken.has(String(entryId))) entryId += 1;
    const record = edit(undefined, { entry: lost.entry && { ...lost.entry, id: String(entryId) }, updatedAt: Date.now(), device: this.device.device, copyOf: of });
    this.records.set(id, record);
    this.sealed.set(id, await sealRecord(this.device.dataKey, this.device.accountId, id, record.version));
    return id;
  }

  /**
   * Opens a record (journal-record-open.ts) and notes what it found: opened only by a replaced key
   * (to be sealed again), or unreadable (left alone, counted).
   */
  private async tryOpen(id: string, sealed: SealedRecord): Promise<RecordVersion | null> {
    const opened = await openStoredRecord(this.device, id, sealed);
    if (opened?.stale) this.stale.add(id);
    else if (opened) this.stale.delete(id);
    const version = opened?.version ?? null;
    if (version) this.unreadable.delete(id);
    else this.unreadable.add(id);
    return version;
  }

  private async persist(ids: readonly string[], cursor?: number): Promise<void> {
    const rows = ids.flatMap((id) => {
      const record = this.records.get(id);
      const sealed = this.sealed.get(id);
      return record && sealed ? [this.stored(id, record, sealed)] : [];
    });
    await saveRecords(this.device.accountId, rows, cursor);
    if (ids.length > 0) this.refresh();
  }

  private stored(id: string, record: LocalRecord, sealed: SealedRecord): StoredRecord {
    return { accountId: this.device.accountId, id, seq: record.seq, pending: record.pending, seen: record.seen, sealed };
  }

  private exclusive(work: () => Promise<void>): Promise<void> {
    const guarded = async () => {
      if (this.closed) throw new JournalClosedError();
      await work();
    };
    const run = this.lock.then(guarded, guarded);
    this.lock = run.catch(() => undefined);
    return run;
  }

  private refresh(): void {
    this.visible = visibleEntries(this.records);
    this.copies = conflictedCopies(this.records);
    this.notify();
  }

  private setState(state: SyncState): void {
    if (this.state === state) return;
    this.state = state;
    this.notify();
  }

  private notify(): void {
    for (const listener of this.listeners) listener();
  }
}
