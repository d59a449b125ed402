import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { categoryFilter, categoryInfo, displayDuration, formatDurationMinutes, HOME_TILES, matchesCategory, slugFromCategoryName } from '#shared/catalogue.ts';

describe('category rules', () => {
  it('has a title and description for every listed category, and a fallback for unknown slugs', () => {
    expect(categoryInfo('all').title).toBe('All Meditations');
    expect(categoryInfo('sleeping').title).toBe('Sleep & Rest');
    expect(categoryInfo('happiness').title).toBe('Joy & Happiness');
    expect(categoryInfo('journal').title).toBe('Intentional Journalling');
    expect(categoryInfo('endometriosis').title).toBe('Endometriosis Support');
    expect(categoryInfo('fibromyalgia').title).toBe('Fibromyalgia Care');
    expect(categoryInfo('recently-added').title).toBe('Recently Added');
    const unknown = categoryInfo('deep-sea-calm');
    expect(unknown.title).toBe('Deep Sea Calm Meditations');
    expect(unknown.description.length).toBeGreaterThan(10);
  });

  it('aggregates chronic-health-care and emotional-wellbeing', () => {
    expect(categoryFilter('chronic-health-care')).toEqual({ kind: 'categories', slugs: ['chronic-health-care', 'endometriosis', 'fibromyalgia'] });
    expect(categoryFilter('emotional-wellbeing')).toEqual({ kind: 'categories', slugs: ['emotional-wellbeing', 'anxiety', 'emotional-regulation'] });
    expect(matchesCategory('chronic-health-care', { category: 'fibromyalgia', categories: ['fibromyalgia'] })).toBe(true);
    expect(matchesCategory('emotional-wellbeing', { category: 'sleeping', categories: ['sleeping', 'anxiety'] })).toBe(true);
    expect(matchesCategory('endometriosis', { category: 'chronic-health-care', categories: ['chronic-health-care'] })).toBe(false);
    expect(matchesCategory('morning', { category: 'sleeping', categories: ['sleeping'] })).toBe(false);
  });

  it('treats all and recently-added as pseudo-categories', () => {
    expect(categoryFilter('all')).toEqual({ kind: 'all' });
    expect(categoryFilter('recently-added')).toEqual({ kind: 'recent', limit: 10 });
  });

  it('matches a listing by primary category or any of the categories', () => {
    fc.assert(
      fc.property(fc.constantFrom('morning', 'sleeping', 'happiness', 'journal'), fc.array(fc.constantFrom('morning', 'sleeping', 'happiness', 'journal')), (primary, others) => {
        expect(matchesCategory(primary, { category: primary, categories: others })).toBe(true);
        for (const other of others) expect(matchesCategory(other, { category: primary, categories: others })).toBe(true);
      }),
    );
  });

  it('resolves /category/{name} by label or slug', () => {
    const names = ['Sleep & Rest', 'sleep & rest', 'Morning Meditations', 'Fibromyalgia Care', 'mindfulness', 'Something New!'];
    expect(names.map(slugFromCategoryName)).toEqual(['sleeping', 'sleeping', 'morning', 'fibromyalgia', 'mindfulness', 'something-new']);
  });

  it('lists the nine home tiles of the spec in order', () => {
    expect(HOME_TILES.map((t) => t.slug)).toEqual([
      'all',
      'morning',
      'happiness',
      'emotional-wellbeing',
      'sleeping',
      'mindfulness',
      'journal',
      'chronic-health-care',
      'significant-chapters',
    ]);
  });

  it('shows short meditations to the second, and longer ones as stored', () => {
    expect(displayDuration({ duration: '1 min', durationSeconds: 45.4 })).toBe('45 sec');
    expect(displayDuration({ duration: '1 min', durationSeconds: 60 })).toBe('1 min');
    expect(displayDuration({ duration: '2 min', durationSeconds: 95 })).toBe('1 min 35 sec');
    expect(displayDuration({ duration: '2 min', durationSeconds: 120 })).toBe('2 min');
    expect(displayDuration({ duration: '10 min', durationSeconds: 597 })).toBe('10 min');
    expect(displayDuration({ duration: '5 min', durationSeconds: null })).toBe('5 min');
  });

  it('formats durations in whole minutes', () => {
    expect(formatDurationMinutes(0)).toBe('0 minutes');
    expect(formatDurationMinutes(null)).toBe('0 minutes');
    expect(formatDurationMinutes(20)).toBe('1 min');
    expect(formatDurationMinutes(89)).toBe('1 min');
    expect(formatDurationMinutes(90)).toBe('2 min');
    expect(formatDurationMinutes(600)).toBe('10 min');
  });
});
