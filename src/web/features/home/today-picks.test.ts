import { describe, expect, it } from 'vitest';
import type { MeditationCard } from '#shared/contracts/catalogue.ts';
import { continuePick, focusPick, inProgressPick, shortest } from '#web/features/home/today-picks.ts';

const card = (id: string, category: string, durationSeconds: number | null = 300, categories: string[] = [category]): MeditationCard => ({
  id,
  title: id,
  description: '',
  duration: '',
  durationSeconds,
  category,
  categories,
  tags: [],
  hasTranscript: false,
  free: false,
  createdAt: '2026-01-01T00:00:00.000Z',
});

const all = [card('s1', 'sleeping', 600), card('m1', 'morning', 300), card('s2', 'sleeping', 420), card('s3', 'sleeping', 900), card('m2', 'morning', 60)];

describe('continuePick', () => {
  it('offers nothing before any practice, or when the last meditation has left the catalogue', () => {
    expect(continuePick(all, null, new Set())).toBeNull();
    expect(continuePick(all, 'gone', new Set(['gone']))).toBeNull();
  });

  it('moves on to the next unheard meditation of the same category, coming round to the start', () => {
    expect(continuePick(all, 's1', new Set(['s1']))).toEqual({ meditation: all[2], again: false });
    expect(continuePick(all, 's2', new Set(['s1', 's2']))).toEqual({ meditation: all[3], again: false });
    expect(continuePick(all, 's3', new Set(['s2', 's3']))).toEqual({ meditation: all[0], again: false });
  });

  it('offers the last one again once the whole category has been heard', () => {
    expect(continuePick(all, 'm2', new Set(['m1', 'm2']))).toEqual({ meditation: all[4], again: true });
  });
});

describe('inProgressPick (issue 38: "Continue where you left off" offered a track never started)', () => {
  const at = (positionSeconds: number, updatedAt: string) => ({ positionSeconds, updatedAt, pending: false });

  it('offers nothing when no track has a saved position, whatever was completed last', () => {
    expect(inProgressPick(all, {})).toBeNull();
    // A track finished (position back to 0) is not in progress.
    expect(inProgressPick(all, { s1: at(0, '2026-11-27T08:00:00Z') })).toBeNull();
  });

  it('offers only a track with a position past its start and short of its end', () => {
    expect(inProgressPick(all, { s1: at(3, '2026-11-27T08:00:00Z') })).toBeNull();
    expect(inProgressPick(all, { s1: at(595, '2026-11-27T08:00:00Z') })).toBeNull();
    expect(inProgressPick(all, { s1: at(200, '2026-11-27T08:00:00Z') })?.id).toBe('s1');
  });

  it('offers the most recently played of those in progress, and ignores tracks no longer listed', () => {
    const positions = { s1: at(200, '2026-11-27T08:00:00Z'), m1: at(120, '2026-11-27T09:00:00Z'), gone: at(100, '2026-11-27T10:00:00Z') };
    expect(inProgressPick(all, positions)?.id).toBe('m1');
  });
});

describe('focusPick', () => {
  it('picks the shortest unheard meditation of the answer’s category, counting second categories', () => {
    expect(focusPick(all, 'sleeping', new Set(), null)?.id).toBe('s2');
    expect(focusPick(all, 'sleeping', new Set(['s2']), null)?.id).toBe('s1');
    const extra = [...all, card('x', 'morning', 30, ['morning', 'sleeping'])];
    expect(focusPick(extra, 'sleeping', new Set(), null)?.id).toBe('x');
  });

  it('never repeats the continue card, and falls back to the shortest heard one when all were heard', () => {
    expect(focusPick(all, 'sleeping', new Set(), 's2')?.id).toBe('s1');
    expect(focusPick(all, 'sleeping', new Set(['s1', 's2', 's3']), null)?.id).toBe('s2');
    expect(focusPick(all, 'nothing-here', new Set(), null)).toBeNull();
  });
});

describe('shortest', () => {
  it('puts unknown lengths last', () => {
    expect(shortest([card('a', 'x', null), card('b', 'x', 900)])?.id).toBe('b');
    expect(shortest([])).toBeNull();
  });
});
