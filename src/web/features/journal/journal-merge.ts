/**
 * How a device's journal and the server's sealed copy converge (issue 18; decision 0031). Pure:
 * what each record holds once decrypted, and the rule for two versions of one record. The sync
 * engine (next slice) feeds it the server's changes and the answers to its writes.
 *
 * Each record is a last-writer-wins register: the version with the later client timestamp wins;
 * equal timestamps are settled by the device id, then the content, so every device picks the same
 * winner whatever order the changes reach it in. A deletion is a version like any other (a
 * tombstone), so a deleted entry stays deleted when an older edit arrives late.
 */
import type { JournalEntry } from '#shared/journal.ts';

/** What a sealed record holds: the entry (null once deleted), when it was written, and by which device. */
export type RecordVersion = { entry: JournalEntry | null; updatedAt: number; device: string };

/** This device's copy of one record: the version it holds, the server change it is based on, and whether it still has to be sent. */
export type LocalRecord = { version: RecordVersion; seq: number | null; pending: boolean };

/** True when `a` should win over `b`. */
export function newer(a: RecordVersion, b: RecordVersion): boolean {
  if (a.updatedAt !== b.updatedAt) return a.updatedAt > b.updatedAt;
  if (a.device !== b.device) return a.device > b.device;
  return JSON.stringify(a.entry) > JSON.stringify(b.entry);
}

/**
 * Takes in one version of a record from the server (a listed change, or the `current` of a 409).
 * The device keeps its own pending version only if that one is newer, now based on the server's
 * change number, so the next write replaces exactly what the server holds.
 */
export function receive(local: LocalRecord | undefined, incoming: { seq: number; version: RecordVersion }): LocalRecord {
  // An answer older than what this device already knows (a late reply) changes nothing.
  if (local?.seq != null && incoming.seq <= local.seq) return local;
  if (local?.pending && newer(local.version, incoming.version)) return { version: local.version, seq: incoming.seq, pending: true };
  return { version: incoming.version, seq: incoming.seq, pending: false };
}

/**
 * The time a new version is stamped with: now, but always after the version it replaces (whichever
 * device wrote that, whatever its clock said), so an edit made after seeing a version wins over it.
 */
export function stamp(now: number, local: LocalRecord | undefined): number {
  return Math.max(now, local ? local.version.updatedAt + 1 : 0);
}

/** A change made on this device: pending until the server takes it. */
export function edit(local: LocalRecord | undefined, version: RecordVersion): LocalRecord {
  return { version, seq: local?.seq ?? null, pending: true };
}

/** The server took the write: the record is settled at its new change number (unless edited again meanwhile). */
export function written(local: LocalRecord, sent: RecordVersion, seq: number): LocalRecord {
  return local.version === sent ? { version: sent, seq, pending: false } : { ...local, seq };
}

/** The entries to show, newest first, deletions left out. */
export function visibleEntries(records: ReadonlyMap<string, LocalRecord>): JournalEntry[] {
  return [...records.values()]
    .flatMap((record) => (record.version.entry ? [record.version.entry] : []))
    .sort((a, b) => Number(b.id) - Number(a.id));
}
