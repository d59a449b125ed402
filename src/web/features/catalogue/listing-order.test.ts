import { describe, expect, it } from 'vitest';
import type { MeditationCard } from '#shared/contracts/catalogue.ts';
import { emptyListingMessage, freeFirst, matchesShow, showFilter, unavailableReason } from '#web/features/catalogue/listing-order.ts';

const card = (id: string, free = false): MeditationCard => ({ id, title: id, description: '', duration: '', durationSeconds: 300, category: 'sleeping', categories: ['sleeping'], tags: [], hasTranscript: false, free, createdAt: '2026-01-01T00:00:00.000Z' });

describe('freeFirst (issue 38: the free ones were the 24th, 27th and 28th of 28)', () => {
  it('puts the free ones first, each part in the listing’s own order', () => {
    const list = [card('a'), card('f1', true), card('b'), card('c'), card('f2', true)];
    expect(freeFirst(list).map((m) => m.id)).toEqual(['f1', 'f2', 'a', 'b', 'c']);
  });
  it('leaves a list without free ones as it was, and does not change its input', () => {
    const list = [card('a'), card('b')];
    expect(freeFirst(list)).toEqual(list);
    expect(freeFirst([card('a'), card('f', true)])).not.toBe(list);
  });
});

describe('the "Show only" filters', () => {
  it('reads only the filters it knows from the address', () => {
    expect(showFilter('free')).toBe('free');
    expect(showFilter('downloaded')).toBe('downloaded');
    expect(showFilter('everything')).toBeNull();
    expect(showFilter(null)).toBeNull();
  });
  it('keeps the free ones, the downloaded ones, or all', () => {
    const downloaded = new Set(['b']);
    expect(matchesShow(card('a', true), 'free', downloaded)).toBe(true);
    expect(matchesShow(card('b'), 'free', downloaded)).toBe(false);
    expect(matchesShow(card('b'), 'downloaded', downloaded)).toBe(true);
    expect(matchesShow(card('a', true), 'downloaded', downloaded)).toBe(false);
    expect(matchesShow(card('c'), null, downloaded)).toBe(true);
  });
  it('says why a filtered list is empty in the words of what was asked', () => {
    expect(emptyListingMessage('', 'any', 'downloaded')).toBe('Nothing in this list is downloaded yet.');
    expect(emptyListingMessage('', 'any', 'free')).toBe('No free meditations in this list.');
    expect(emptyListingMessage('', 'long', null)).toBe('No meditations in this list are over 15 min.');
    expect(emptyListingMessage('tide', 'any', 'free')).toBe('No meditations match your search.');
  });
});

describe('unavailableReason (issue 38: offline, every card looked playable)', () => {
  it('is nothing online, nothing for a copy on the device, and the reason otherwise', () => {
    expect(unavailableReason({ online: true, downloaded: false }, 'Needs a connection')).toBeNull();
    expect(unavailableReason({ online: false, downloaded: true }, 'Needs a connection')).toBeNull();
    expect(unavailableReason({ online: false, downloaded: false }, 'Needs a connection')).toBe('Needs a connection');
  });
});
