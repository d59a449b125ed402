/**
 * What a listing shows and in which order, beyond search and length (issue 38, items 1 and 5): the
 * free ones first for whoever cannot play the rest, the "Free" and "Downloaded" filters, and which
 * cards cannot play while offline. Pure, so the rules are tested apart from the page.
 */
import type { MeditationCard as Card } from '#shared/contracts/catalogue.ts';
import { noMatchesMessage } from '#shared/catalogue-search.ts';
import { CATALOGUE_MESSAGES } from '#shared/catalogue-messages.ts';

/** The "Show only" filters, kept in the address as ?show=. */
export const SHOW_FILTERS = ['free', 'downloaded'] as const;
export type ShowFilterId = (typeof SHOW_FILTERS)[number];

export function showFilter(value: string | null | undefined): ShowFilterId | null {
  return SHOW_FILTERS.find((id) => id === value) ?? null;
}

/** The free ones first, each part in the listing's own order (a visitor met 23 locked cards before the first free one). */
export function freeFirst(cards: readonly Card[]): Card[] {
  return [...cards.filter((card) => card.free), ...cards.filter((card) => !card.free)];
}

export function matchesShow(card: Card, show: ShowFilterId | null, downloaded: ReadonlySet<string>): boolean {
  if (show === 'free') return card.free;
  if (show === 'downloaded') return downloaded.has(card.id);
  return true;
}

/** Why a filtered listing is empty, in the words of what was asked. */
export function emptyListingMessage(search: string, lengthId: string, show: ShowFilterId | null): string {
  if (show && search.trim() === '' && lengthId === 'any') {
    return show === 'free' ? CATALOGUE_MESSAGES.noFree : CATALOGUE_MESSAGES.noneDownloaded;
  }
  return noMatchesMessage(search, lengthId);
}

/**
 * Why a card cannot play now, or null when it can: offline, only a copy on this device plays (the
 * player, not the card, says when a copy is paused by a lapsed subscription).
 */
export function unavailableReason(input: { online: boolean; downloaded: boolean }, needsConnection: string): string | null {
  return input.online || input.downloaded ? null : needsConnection;
}
