import { describe, expect, it } from 'vitest';
import type { MeditationCard } from '#shared/contracts/catalogue.ts';
import { freeOnes, freePick } from '#web/features/home/free-pick.ts';

const card = (id: string, category: string, free: boolean, durationSeconds: number | null = 300): MeditationCard => ({ id, title: id, description: '', duration: '', durationSeconds, category, categories: [category], tags: [], hasTranscript: false, free, createdAt: '2026-01-01T00:00:00.000Z' });

// As the demo catalogue: one free morning, one free sleep and one free mindfulness meditation among paid ones.
const all = [card('paid-morning', 'morning', false, 60), card('waking', 'morning', true, 240), card('letting-go', 'sleeping', true, 300), card('breath', 'mindfulness', true, 180), card('paid-sleep', 'sleeping', false)];

describe('freePick: what "Try a free meditation" plays', () => {
  it('suits the hour: a morning one before noon, a sleep one in the evening and night, mindfulness in the afternoon', () => {
    expect(freePick(all, 7)?.id).toBe('waking');
    expect(freePick(all, 21)?.id).toBe('letting-go');
    expect(freePick(all, 2)?.id).toBe('letting-go');
    expect(freePick(all, 15)?.id).toBe('breath');
  });
  it('never picks a paid one, and falls back to the shortest free one', () => {
    const onlyOne = [card('paid', 'morning', false, 10), card('long', 'sleeping', true, 900), card('short', 'journal', true, 120)];
    expect(freePick(onlyOne, 8)?.id).toBe('short');
    expect(freePick([card('paid', 'morning', false)], 8)).toBeNull();
    expect(freePick([], 8)).toBeNull();
  });
  it('queues only the free ones after it', () => {
    expect(freeOnes(all).map((m) => m.id)).toEqual(['waking', 'letting-go', 'breath']);
  });
});
