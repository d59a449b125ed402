/**
 * Which free meditation "Try a free meditation" plays (issue 38, item 1): the one for the time of
 * day when there is one (a morning one before noon, a sleep one from six in the evening), otherwise
 * the shortest. Pure, so the choice is tested apart from the page.
 */
import type { MeditationCard as Card } from '#shared/contracts/catalogue.ts';

/** The categories that suit an hour of the day, most fitting first. */
function categoriesFor(hour: number): string[] {
  if (hour >= 4 && hour < 12) return ['morning'];
  if (hour >= 18 || hour < 4) return ['sleeping', 'evening'];
  return ['mindfulness'];
}

export function freeOnes(all: readonly Card[]): Card[] {
  return all.filter((m) => m.free);
}

export function freePick(all: readonly Card[], hour: number): Card | null {
  const free = freeOnes(all);
  const inCategory = (m: Card, category: string) => m.category === category || m.categories.includes(category);
  for (const category of categoriesFor(hour)) {
    const match = free.find((m) => inCategory(m, category));
    if (match) return match;
  }
  let best: Card | null = null;
  for (const m of free) if (!best || (m.durationSeconds ?? Infinity) < (best.durationSeconds ?? Infinity)) best = m;
  return best;
}
