// @vitest-environment jsdom
import { beforeEach, describe, expect, it } from 'vitest';
import { getPositions, mergeServerPositions, pendingPositions, rememberPosition, resumePoint, setPositionsOwner, settlePosition } from '#web/features/player/positions.ts';

const at = (iso: string) => new Date(iso);

describe('resume positions on the device', () => {
  beforeEach(() => {
    localStorage.clear();
    setPositionsOwner('u1');
  });

  it('keeps the newest of the device’s and the server’s, and marks what the server still lacks', () => {
    rememberPosition('a', 452.4, at('2026-11-26T10:00:00Z'));
    rememberPosition('b', 60, at('2026-11-26T09:00:00Z'));
    mergeServerPositions([
      { meditationId: 'a', positionSeconds: 100, updatedAt: '2026-11-26T09:30:00Z' }, // older: the device's 7:32 stays
      { meditationId: 'b', positionSeconds: 300, updatedAt: '2026-11-26T09:45:00Z' }, // newer (another device): it wins
      { meditationId: 'c', positionSeconds: 30, updatedAt: '2026-11-26T08:00:00Z' },
    ]);
    expect(getPositions()).toEqual({
      a: { positionSeconds: 452, updatedAt: '2026-11-26T10:00:00.000Z', pending: true },
      b: { positionSeconds: 300, updatedAt: '2026-11-26T09:45:00Z', pending: false },
      c: { positionSeconds: 30, updatedAt: '2026-11-26T08:00:00Z', pending: false },
    });
    expect(pendingPositions().map(([id]) => id)).toEqual(['a']);
  });

  it('takes what the server holds after a save, unless the device has moved on since', () => {
    rememberPosition('a', 100, at('2026-11-26T10:00:00Z'));
    settlePosition('a', '2026-11-26T10:00:00.000Z', { meditationId: 'a', positionSeconds: 100, updatedAt: '2026-11-26T10:00:00.000Z' });
    expect(pendingPositions()).toEqual([]);
    rememberPosition('a', 110, at('2026-11-26T10:00:10Z'));
    settlePosition('a', '2026-11-26T10:00:00.000Z', { meditationId: 'a', positionSeconds: 100, updatedAt: '2026-11-26T10:00:00.000Z' });
    expect(getPositions().a).toMatchObject({ positionSeconds: 110, pending: true });
  });

  it('keeps each account’s positions apart on a shared device, and across reloads', () => {
    rememberPosition('a', 100);
    setPositionsOwner('u2');
    expect(getPositions()).toEqual({});
    setPositionsOwner('u1');
    expect(getPositions().a?.positionSeconds).toBe(100);
  });

  it('offers a position only past the first and before the last 10 seconds', () => {
    const positions = { a: { positionSeconds: 452, updatedAt: '', pending: false }, b: { positionSeconds: 5, updatedAt: '', pending: false }, c: { positionSeconds: 595, updatedAt: '', pending: false } };
    expect(resumePoint(positions, 'a', 600)).toBe(452);
    expect(resumePoint(positions, 'b', 600)).toBeNull();
    expect(resumePoint(positions, 'c', 600)).toBeNull();
    expect(resumePoint(positions, 'missing', 600)).toBeNull();
  });
});
