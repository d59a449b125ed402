import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JournalEntry } from '#shared/journal.ts';
import { conflictedCopies, edit, rebase, receive, stamp, visibleEntries, written, type LocalRecord, type RecordVersion } from '#web/features/journal/journal-merge.ts';

const entry = (id: string, gratitude: string): JournalEntry => ({
  id,
  type: 'mindfulness',
  date: '2026-11-25',
  timeOfDay: 'evening',
  content: { timeOfDay: 'evening', gratitude, intention: '', mood: 5, mindfulMoments: '', challenges: '', reflection: '' },
});
const version = (rev: number, device: string, text: string | null, updatedAt = rev): RecordVersion => ({ entry: text === null ? null : entry('1', text), updatedAt, device, rev });
const settled = (v: RecordVersion, seq: number): LocalRecord => ({ version: v, seq, pending: false, seen: v.rev });

describe('journal merge: no rollback, no silent loss (decisions 0031, 0055)', () => {
  it('numbers each change one past the newest version seen on the server', () => {
    const first = edit(undefined, { entry: entry('1', 'a'), updatedAt: 1, device: 'phone' });
    expect(first.version.rev).toBe(1);
    const next = edit(settled(version(4, 'laptop', 'b'), 9), { entry: null, updatedAt: 5, device: 'phone' });
    expect(next).toEqual({ version: { entry: null, updatedAt: 5, device: 'phone', rev: 5 }, seq: 9, pending: true, seen: 4 });
    // A second change before the first is sent replaces it under the same number.
    expect(edit(next, { entry: entry('1', 'c'), updatedAt: 6, device: 'phone' }).version.rev).toBe(5);
  });

  it('refuses a version older than one already seen (a rollback), and says so instead of applying it', () => {
    const local = settled(version(3, 'laptop', 'newest'), 12);
    // A higher server change number does not make an older version newer.
    expect(receive(local, { seq: 20, version: version(2, 'laptop', 'older') })).toEqual({ record: local, refused: 'older' });
    // Nor while this device has its own change pending.
    const pending = edit(local, { entry: entry('1', 'mine'), updatedAt: 9, device: 'phone' });
    expect(receive(pending, { seq: 20, version: version(1, 'laptop', 'oldest') })).toEqual({ record: pending, refused: 'older' });
    // An entry sealed before versions existed is older than any versioned one.
    expect(receive(local, { seq: 20, version: version(0, 'laptop', 'unversioned') }).refused).toBe('older');
    // The same or a newer version is taken.
    expect(receive(local, { seq: 20, version: version(4, 'laptop', 'newer') })).toEqual({ record: settled(version(4, 'laptop', 'newer'), 20) });
  });

  it('refuses to bring back an entry it has seen deleted (a resurrection)', () => {
    const deleted = settled(version(4, 'phone', null), 7);
    expect(receive(deleted, { seq: 8, version: version(5, 'laptop', 'back again') })).toEqual({ record: deleted, refused: 'deleted' });
    expect(receive(deleted, { seq: 8, version: version(2, 'laptop', 'from before') }).refused).toBe('older');
    expect(visibleEntries(new Map([['1', deleted]]))).toEqual([]);
    // A deletion sealed by an app from before versions is still taken: it rolls nothing back into view.
    expect(receive(settled(version(3, 'phone', 'alive'), 2), { seq: 3, version: version(0, 'old-app', null) }).record?.version.entry).toBeNull();
  });

  it('keeps both versions of a true conflict: the first to reach the server keeps the record, the other becomes a conflicted copy', () => {
    const base = settled(version(1, 'laptop', 'base'), 3);
    const mine = edit(base, { entry: entry('1', 'my edit'), updatedAt: 50, device: 'phone' });
    const theirs = version(2, 'laptop', 'their edit', 40);
    const { record, copy, refused } = receive(mine, { seq: 4, version: theirs });
    expect(refused).toBeUndefined();
    expect(record).toEqual(settled(theirs, 4));
    expect(copy).toBe(mine.version);
    // Their deletion against my edit: the record stays deleted, my edit survives as a copy.
    expect(receive(mine, { seq: 4, version: version(2, 'laptop', null) }).copy).toBe(mine.version);
    // My deletion against their edit: nothing to copy; their entry stays.
    const myDeletion = edit(base, { entry: null, updatedAt: 50, device: 'phone' });
    expect(receive(myDeletion, { seq: 4, version: theirs })).toEqual({ record: settled(theirs, 4) });
    // The same words on both sides: one entry, no copy.
    expect(receive(mine, { seq: 4, version: { ...mine.version, device: 'laptop', rev: 2 } }).copy).toBeUndefined();
  });

  it('settles its own write whose answer was lost, and keeps a later change of its own on top of it', () => {
    const first = edit(settled(version(1, 'phone', 'a'), 2), { entry: entry('1', 'b'), updatedAt: 5, device: 'phone' });
    expect(receive(first, { seq: 3, version: first.version })).toEqual({ record: { version: first.version, seq: 3, pending: false, seen: 2 } });
    const again = edit(first, { entry: entry('1', 'c'), updatedAt: 6, device: 'phone' });
    const { record, copy } = receive(again, { seq: 3, version: first.version });
    expect(copy).toBeUndefined();
    expect(record).toEqual({ version: again.version, seq: 3, pending: true, seen: 2 });
    // Renumbered past what the server now holds, to be sealed and sent again.
    expect(rebase(record!).version.rev).toBe(3);
    expect(rebase(settled(version(2, 'phone', 'x'), 1))).toEqual(settled(version(2, 'phone', 'x'), 1));
  });

  it('settles a write only if nothing was edited while it was in flight', () => {
    const first = edit(undefined, { entry: entry('1', 'first'), updatedAt: 1, device: 'phone' });
    const again = edit(first, { entry: entry('1', 'second'), updatedAt: 2, device: 'phone' });
    expect(written(again, first.version, 11)).toEqual({ version: again.version, seq: 11, pending: true, seen: 1 });
    expect(written(first, first.version, 11)).toEqual({ version: first.version, seq: 11, pending: false, seen: 1 });
  });

  it('stamps an edit after the version it replaces, even one from a clock running ahead', () => {
    expect(stamp(100, undefined)).toBe(100);
    expect(stamp(100, settled(version(1, 'laptop', 'ahead', 500), 3))).toBe(501);
    expect(stamp(900, settled(version(1, 'laptop', 'ahead', 500), 3))).toBe(900);
  });

  it('ignores a late answer older than what the device already knows', () => {
    const local = settled(version(3, 'phone', 'new'), 12);
    expect(receive(local, { seq: 10, version: version(1, 'laptop', 'old') })).toEqual({ record: local });
  });

  it('marks conflicted copies for the list', () => {
    const copy: LocalRecord = edit(undefined, { entry: entry('7', 'copy'), updatedAt: 1, device: 'phone', copyOf: 'r1' });
    expect([...conflictedCopies(new Map([['r1', settled(version(1, 'a', 'original'), 1)], ['r2', copy]]))]).toEqual(['7']);
  });

  it('converges with nothing lost: devices editing one record in any interleaving end with the server’s version, and every change a device made last is there or kept as a copy', () => {
    type Step = { kind: 'edit'; device: number; text: string | null } | { kind: 'push'; device: number } | { kind: 'pull'; device: number };
    const step = fc.oneof(
      fc.record({ kind: fc.constant('edit' as const), device: fc.integer({ min: 0, max: 2 }), text: fc.option(fc.constantFrom('a', 'b', 'c'), { nil: null }) }),
      fc.record({ kind: fc.constant('push' as const), device: fc.integer({ min: 0, max: 2 }) }),
      fc.record({ kind: fc.constant('pull' as const), device: fc.integer({ min: 0, max: 2 }) }),
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 30 }), (steps: Step[]) => {
        // The server: compare-and-set on the change number, as journal.service.ts does.
        let server: { seq: number; version: RecordVersion } | null = null;
        // Every version the server ever took: a later one was written by a device that had seen it (compare-and-set).
        const history: RecordVersion[] = [];
        let seq = 0;
        const devices: (LocalRecord | undefined)[] = [undefined, undefined, undefined];
        const copies: RecordVersion[] = [];
        const accept = (d: number, received: ReturnType<typeof receive>) => {
          expect(received.refused).toBeUndefined(); // an honest server is never refused
          if (received.copy) copies.push(received.copy);
          devices[d] = received.record && rebase(received.record);
        };
        const push = (d: number) => {
          const local = devices[d];
          if (!local?.pending) return;
          if ((server?.seq ?? null) === local.seq) {
            server = { seq: ++seq, version: local.version };
            history.push(local.version);
            devices[d] = written(local, local.version, seq);
          } else if (server) accept(d, receive(local, server)); // 409: what got there first
        };
        const pull = (d: number) => {
          if (server) accept(d, receive(devices[d], server));
        };
        let at = 0;
        for (const s of steps) {
          // Nobody writes into a record they have seen deleted (the page offers no way to).
          const local = devices[s.device];
          if (s.kind === 'edit' && !(local && !local.pending && local.version.entry === null)) devices[s.device] = edit(local, { entry: s.text === null ? null : entry('1', s.text), updatedAt: (at += 1), device: `device-${s.device}` });
          else if (s.kind === 'push') push(s.device);
          else if (s.kind === 'pull') pull(s.device);
        }
        const last = devices.map((d) => d?.pending && d.version);
        for (let round = 0; round < 10; round += 1) {
          for (const d of [0, 1, 2]) {
            push(d);
            pull(d);
          }
        }
        for (const d of [0, 1, 2]) if (devices[d]) expect(devices[d]).toEqual({ version: server!.version, seq: server!.seq, pending: false, seen: server!.version.rev });
        // No silent loss: each device's last unsent entry reached the server (so whoever changed it later
        // had seen it), or was kept as a conflicted copy. An entry the same as the server's when it arrived
        // is folded into it without a copy: another device may then delete it, having seen those very words.
        for (const mine of last) if (mine && mine.entry) expect([...history, ...copies].some((v) => JSON.stringify(v.entry) === JSON.stringify(mine.entry))).toBe(true);
      }),
      {
        numRuns: 300,
        // Found by a full run (seed 371612303): two devices write the same words, one deletes them afterwards.
        examples: [
          [
            [
              { kind: 'edit', device: 0, text: 'b' },
              { kind: 'edit', device: 1, text: 'b' },
              { kind: 'push', device: 1 },
              { kind: 'edit', device: 1, text: null },
            ],
          ],
        ],
      },
    );
  });
});
