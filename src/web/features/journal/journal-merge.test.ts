import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { JournalEntry } from '#shared/journal.ts';
import { edit, newer, receive, stamp, visibleEntries, written, type LocalRecord, type RecordVersion } from '#web/features/journal/journal-merge.ts';

const entry = (id: string, gratitude: string): JournalEntry => ({
  id,
  type: 'mindfulness',
  date: '2026-11-25',
  timeOfDay: 'evening',
  content: { timeOfDay: 'evening', gratitude, intention: '', mood: 5, mindfulMoments: '', challenges: '', reflection: '' },
});
const version = (updatedAt: number, device: string, text: string | null): RecordVersion => ({ entry: text === null ? null : entry('1', text), updatedAt, device });

describe('journal merge (decision 0031)', () => {
  it('lets the later version win, then the device id, then the content, so every device agrees', () => {
    expect(newer(version(2, 'a', 'x'), version(1, 'b', 'y'))).toBe(true);
    expect(newer(version(1, 'b', 'x'), version(1, 'a', 'y'))).toBe(true);
    expect(newer(version(1, 'a', 'y'), version(1, 'a', 'x'))).toBe(true);
    expect(newer(version(1, 'a', 'x'), version(1, 'a', 'x'))).toBe(false);
  });

  it('keeps a pending edit that is newer than the server’s, based on the server’s change number; drops an older one', () => {
    const mine = edit(undefined, version(5, 'phone', 'mine'));
    expect(receive(mine, { seq: 9, version: version(3, 'laptop', 'theirs') })).toEqual({ version: version(5, 'phone', 'mine'), seq: 9, pending: true });
    expect(receive(mine, { seq: 9, version: version(7, 'laptop', 'theirs') })).toEqual({ version: version(7, 'laptop', 'theirs'), seq: 9, pending: false });
    // Nothing pending: the server's version is taken as it is.
    expect(receive({ version: version(9, 'phone', 'old'), seq: 2, pending: false }, { seq: 3, version: version(1, 'x', 'server') })).toEqual({ version: version(1, 'x', 'server'), seq: 3, pending: false });
  });

  it('keeps a deletion when an older edit arrives late', () => {
    const deleted = edit({ version: version(1, 'phone', 'a'), seq: 4, pending: false }, version(8, 'phone', null));
    const settled = written(deleted, deleted.version, 5);
    expect(settled).toEqual({ version: version(8, 'phone', null), seq: 5, pending: false });
    const late = receive(edit(settled, version(8, 'phone', null)), { seq: 6, version: version(6, 'laptop', 'late edit') });
    expect(late.version.entry).toBeNull();
    expect(visibleEntries(new Map([['1', late]]))).toEqual([]);
  });

  it('settles a write only if nothing was edited while it was in flight', () => {
    const first = edit(undefined, version(1, 'phone', 'first'));
    const again = edit(first, version(2, 'phone', 'second'));
    expect(written(again, first.version, 11)).toEqual({ version: version(2, 'phone', 'second'), seq: 11, pending: true });
    expect(written(first, first.version, 11)).toEqual({ version: first.version, seq: 11, pending: false });
  });

  it('stamps an edit after the version it replaces, even one from a clock running ahead', () => {
    expect(stamp(100, undefined)).toBe(100);
    expect(stamp(100, { version: version(500, 'laptop', 'ahead'), seq: 3, pending: false })).toBe(501);
    expect(stamp(900, { version: version(500, 'laptop', 'ahead'), seq: 3, pending: false })).toBe(900);
  });

  it('ignores a late answer older than what the device already knows', () => {
    const settled: LocalRecord = { version: version(9, 'phone', 'new'), seq: 12, pending: false };
    expect(receive(settled, { seq: 10, version: version(3, 'laptop', 'old') })).toBe(settled);
  });

  it('converges: devices editing one record and syncing in any interleaving end with the newest version, everywhere', () => {
    type Step = { kind: 'edit'; device: number; at: number; text: string | null } | { kind: 'push'; device: number } | { kind: 'pull'; device: number };
    const step = fc.oneof(
      fc.record({ kind: fc.constant('edit' as const), device: fc.integer({ min: 0, max: 2 }), at: fc.integer({ min: 0, max: 30 }), text: fc.option(fc.constantFrom('a', 'b', 'c'), { nil: null }) }),
      fc.record({ kind: fc.constant('push' as const), device: fc.integer({ min: 0, max: 2 }) }),
      fc.record({ kind: fc.constant('pull' as const), device: fc.integer({ min: 0, max: 2 }) }),
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 30 }), (steps: Step[]) => {
        // The server: compare-and-set on the change number, as journal.service.ts does.
        let server: { seq: number; version: RecordVersion } | null = null;
        let seq = 0;
        const devices: (LocalRecord | undefined)[] = [undefined, undefined, undefined];
        const made: RecordVersion[] = [];
        const push = (d: number) => {
          const local = devices[d];
          if (!local?.pending) return;
          if ((server?.seq ?? null) === local.seq) {
            server = { seq: ++seq, version: local.version };
            devices[d] = written(local, local.version, seq);
          } else if (server) devices[d] = receive(local, server); // 409: what got there first
        };
        const pull = (d: number) => {
          if (server) devices[d] = receive(devices[d], server);
        };
        for (const s of steps) {
          if (s.kind === 'edit') {
            // The device's clock may say anything; the stamp still comes after what it is editing.
            const v = version(stamp(s.at, devices[s.device]), `device-${s.device}`, s.text);
            made.push(v);
            devices[s.device] = edit(devices[s.device], v);
          } else if (s.kind === 'push') push(s.device);
          else pull(s.device);
        }
        // Then everyone syncs until nothing is pending.
        for (let round = 0; round < 10; round += 1) {
          for (const d of [0, 1, 2]) {
            push(d);
            pull(d);
          }
        }
        if (made.length === 0) return;
        const newest = made.reduce((best, v) => (newer(v, best) ? v : best));
        expect(server!.version).toEqual(newest);
        for (const d of [0, 1, 2]) if (devices[d]) expect(devices[d]).toEqual({ version: newest, seq: server!.seq, pending: false });
      }),
      { numRuns: 300 },
    );
  });
});
