/**
 * How a device's journal and the server's sealed copy converge (issue 18; decisions 0031, 0055). Pure:
 * what each record holds once decrypted, and the rules for a version arriving from the server.
 *
 * Every version carries `rev`, its record's version number, sealed with the entry (inside the
 * AES-GCM ciphertext, so the server can neither read nor change it). A device remembers the highest
 * `rev` it has seen on the server for each record (`seen`), and:
 * - refuses a version older than that (a rollback), and an entry for a record it has seen deleted (a
 *   resurrection): the server cannot forge a higher `rev`, so it can no longer serve an old version or
 *   undo a deletion without this device noticing; the refusal is counted and said, never applied;
 * - when the server holds another device's version of a record this device changed meanwhile (a true
 *   conflict: both edited the same `rev`), the version that reached the server first keeps the record,
 *   and this device's version is kept beside it as a new entry marked "conflicted copy": nothing is
 *   silently dropped. A deletion that lost such a race is simply not applied (the entry stays).
 */
import type { JournalEntry } from '#shared/journal.ts';

/**
 * What a sealed record holds: the entry (null once deleted), when and by which device it was written,
 * its version number (0 for a record sealed before versions existed), and, for a conflicted copy, the
 * record it was copied from.
 */
export type RecordVersion = { entry: JournalEntry | null; updatedAt: number; device: string; rev: number; copyOf?: string };

/**
 * This device's copy of one record: the version it holds, the server change it is based on, whether it
 * still has to be sent, and the highest version number it has seen on the server for this record.
 */
export type LocalRecord = { version: RecordVersion; seq: number | null; pending: boolean; seen: number };

/** Why a version from the server was not applied. */
type Refusal = 'older' | 'deleted';

/** The outcome of one version from the server: the record now (the same object when unchanged), and what else came of it. */
export type Received = { record: LocalRecord | undefined; refused?: Refusal; copy?: RecordVersion };

const sameEntry = (a: JournalEntry | null, b: JournalEntry | null) => JSON.stringify(a) === JSON.stringify(b);

/** Whether the newest version this device has seen on the server is a deletion. */
const seenDeleted = (local: LocalRecord) => !local.pending && local.version.entry === null;

/** Takes in one version of a record from the server (a listed change, or the `current` of a 409). */
export function receive(local: LocalRecord | undefined, incoming: { seq: number; version: RecordVersion }): Received {
  // An answer older than what this device already knows (a late reply) changes nothing.
  if (local?.seq != null && incoming.seq <= local.seq) return { record: local };
  const { version } = incoming;
  if (local) {
    // A deletion sealed before versions existed (an older app on another device) rolls nothing back into view.
    const unversionedDeletion = version.rev === 0 && version.entry === null;
    if (version.rev < local.seen && !unversionedDeletion) return { record: local, refused: 'older' };
    if (seenDeleted(local) && version.entry !== null) return { record: local, refused: 'deleted' };
  }
  const seen = Math.max(local?.seen ?? 0, version.rev);
  if (!local?.pending) return { record: { version, seq: incoming.seq, pending: false, seen } };
  // This very version (its answer was lost on the way back): settled.
  if (version.device === local.version.device && version.rev === local.version.rev && sameEntry(version.entry, local.version.entry)) return { record: { version, seq: incoming.seq, pending: false, seen } };
  // An earlier write of this device's own: its newer change stays pending, on top of it (see `rebase`).
  if (version.device === local.version.device) return { record: { version: local.version, seq: incoming.seq, pending: true, seen } };
  // Another device got there first: it keeps the record; this device's entry, if it differs, becomes a conflicted copy.
  const copy = local.version.entry !== null && !sameEntry(local.version.entry, version.entry) ? local.version : undefined;
  return { record: { version, seq: incoming.seq, pending: false, seen }, copy };
}

/**
 * The time a new version is stamped with: now, but always after the version it replaces (whichever
 * device wrote that, whatever its clock said).
 */
export function stamp(now: number, local: LocalRecord | undefined): number {
  return Math.max(now, local ? local.version.updatedAt + 1 : 0);
}

/** A change made on this device: pending until the server takes it, numbered one past what the server was seen to hold. */
export function edit(local: LocalRecord | undefined, change: Omit<RecordVersion, 'rev'>): LocalRecord {
  const seen = local?.seen ?? 0;
  return { version: { ...change, rev: seen + 1 }, seq: local?.seq ?? null, pending: true, seen };
}

/** The server took the write: the record is settled at its new change number (unless edited again meanwhile). */
export function written(local: LocalRecord, sent: RecordVersion, seq: number): LocalRecord {
  const seen = Math.max(local.seen, sent.rev);
  return local.version === sent ? { version: sent, seq, pending: false, seen } : { ...local, seq, seen };
}

/** A pending version must be numbered past what the server holds; when it is not (see `receive`, `written`), it is renumbered, and sealed again. */
export function rebase(local: LocalRecord): LocalRecord {
  return local.pending && local.version.rev <= local.seen ? { ...local, version: { ...local.version, rev: local.seen + 1 } } : local;
}

/** The entries to show, newest first, deletions left out. */
export function visibleEntries(records: ReadonlyMap<string, LocalRecord>): JournalEntry[] {
  return [...records.values()]
    .flatMap((record) => (record.version.entry ? [record.version.entry] : []))
    .sort((a, b) => Number(b.id) - Number(a.id));
}

/** The ids of the entries shown as "conflicted copy". */
export function conflictedCopies(records: ReadonlyMap<string, LocalRecord>): Set<string> {
  return new Set([...records.values()].flatMap((record) => (record.version.entry && record.version.copyOf ? [record.version.entry.id] : [])));
}
