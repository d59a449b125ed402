import { describe, expect, it } from 'vitest';
import { cardMatches, lengthFilter, noMatchesMessage, normaliseSearch } from '#shared/catalogue-search.ts';
import { searchQuery } from '#shared/contracts/catalogue.ts';

const card = { title: 'Letting the Day Go', description: 'A slow body scan before sleep.', tags: ['sleep', 'body-scan'] };

describe('catalogue search', () => {
  it('matches every word, in any order, across title, description and tags, ignoring case and accents', () => {
    expect(cardMatches(card, 'sleep')).toBe(true);
    expect(cardMatches(card, 'SLOW  day')).toBe(true);
    expect(cardMatches(card, 'body-scan')).toBe(true);
    expect(cardMatches({ ...card, title: 'Café Calm' }, 'cafe')).toBe(true);
    expect(cardMatches(card, 'sleep morning')).toBe(false);
    expect(cardMatches(card, '   ')).toBe(true);
    expect(normaliseSearch(' Ça  Va ')).toBe('ca va');
  });

  it('checks the server query: trimmed, two to a hundred characters, no control characters', () => {
    expect(searchQuery.safeParse({ q: '  breath ' }).data).toEqual({ q: 'breath' });
    expect(searchQuery.safeParse({ q: 'a' }).success).toBe(false);
    expect(searchQuery.safeParse({ q: 'x'.repeat(101) }).success).toBe(false);
    expect(searchQuery.safeParse({ q: 'calm\u0000' }).success).toBe(false);
  });

  it('filters by length, and an unknown filter is no filter', () => {
    expect(lengthFilter('short').test(65)).toBe(true);
    expect(lengthFilter('short').test(300)).toBe(false);
    expect(lengthFilter('medium').test(600)).toBe(true);
    expect(lengthFilter('long').test(1200)).toBe(true);
    expect(lengthFilter('nonsense').id).toBe('any');
  });

  it('says a length found nothing without calling it a search, and a search found nothing with', () => {
    expect(noMatchesMessage('', 'long')).toBe('No meditations in this list are over 15 min.');
    expect(noMatchesMessage('  ', 'short')).toBe('No meditations in this list are under 5 min.');
    expect(noMatchesMessage('rain', 'long')).toBe('No meditations match your search.');
    expect(noMatchesMessage('rain', 'any')).toBe('No meditations match your search.');
    expect(noMatchesMessage('rain', null)).toBe('No meditations match your search.');
  });
});
