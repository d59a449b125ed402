/**
 * Finding a meditation in a listing (issue 17, item 4): words matched in the title, description and
 * tags on the device (instantly, offline too), and in the spoken transcript by the server (the
 * cards do not carry transcripts); and a length filter. Server and web share the rules.
 */
import type { MeditationCard } from '#shared/contracts/catalogue.ts';

export const SEARCH_MAX_LENGTH = 100;
/** A search needs this many characters before the server is asked (one letter matches everything). */
export const SEARCH_MIN_SERVER_LENGTH = 2;

export const SEARCH_MESSAGES = {
  label: 'Search meditations',
  placeholder: 'Search, e.g. sleep or breath',
  lengthLabel: 'Length',
  noMatches: 'No meditations match your search.',
  clear: 'Clear search and filters',
  results: (shown: number, total: number) => (shown === total ? `${total} meditations` : `${shown} of ${total} meditations`),
  tooLong: `Please keep the search under ${SEARCH_MAX_LENGTH} characters.`,
} as const;


/** Lower case, accents folded, spaces collapsed: 'Café  Calm' finds 'cafe calm'. */
export function normaliseSearch(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();
}

/** Every word of the search appears in the card's title, description or tags (in any order). */
export function cardMatches(card: Pick<MeditationCard, 'title' | 'description' | 'tags'>, search: string): boolean {
  const words = normaliseSearch(search).split(' ').filter(Boolean);
  if (words.length === 0) return true;
  const haystack = normaliseSearch([card.title, card.description, ...card.tags].join(' '));
  return words.every((word) => haystack.includes(word));
}

export const LENGTH_FILTERS = [
  { id: 'any', label: 'Any length', test: () => true },
  { id: 'short', label: 'Under 5 min', test: (seconds: number | null) => seconds == null || seconds < 300 },
  { id: 'medium', label: '5–15 min', test: (seconds: number | null) => seconds != null && seconds >= 300 && seconds <= 900 },
  { id: 'long', label: 'Over 15 min', test: (seconds: number | null) => seconds != null && seconds > 900 },
] as const;
export type LengthFilterId = (typeof LENGTH_FILTERS)[number]['id'];

export function lengthFilter(id: string | null | undefined) {
  return LENGTH_FILTERS.find((f) => f.id === id) ?? LENGTH_FILTERS[0];
}

/**
 * Why a filtered listing is empty, in the words of what was asked: a length alone is not a search
 * (issue 38, item 11: "Over 15 min" said "No meditations match your search" when nothing was typed).
 */
export function noMatchesMessage(search: string, lengthId: string | null | undefined): string {
  const length = lengthFilter(lengthId);
  if (search.trim() === '' && length.id !== 'any') return `No meditations in this list are ${length.label.toLowerCase()}.`;
  return SEARCH_MESSAGES.noMatches;
}
