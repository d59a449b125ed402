/**
 * What the "Today" section on home suggests (issue 17, item 3), from the whole catalogue listing,
 * the account's last completed meditation and the meditations it has completed. Pure, so the
 * choices are tested apart from the page.
 */
import type { MeditationCard as Card } from '#shared/contracts/catalogue.ts';
import { resumePoint, type SavedPosition } from '#web/features/player/positions.ts';

/** The gentlest way in: the shortest meditation of the list (unknown lengths last). */
export function shortest(list: readonly Card[]): Card | null {
  let best: Card | null = null;
  for (const meditation of list) {
    if (!best || (meditation.durationSeconds ?? Infinity) < (best.durationSeconds ?? Infinity)) best = meditation;
  }
  return best;
}

/**
 * "Continue where you left off" (issue 38: it offered a track never started): only a meditation
 * actually in progress, one with a saved position past its start and short of its end (the same
 * rule as the cards' "Continue from"), the most recently played first. Null when there is none.
 */
export function inProgressPick(all: readonly Card[], positions: Readonly<Partial<Record<string, SavedPosition>>>): Card | null {
  let best: { meditation: Card; at: number } | null = null;
  for (const meditation of all) {
    const saved = positions[meditation.id];
    if (!saved || resumePoint(positions, meditation.id, meditation.durationSeconds) === null) continue;
    const at = Date.parse(saved.updatedAt);
    if (!best || at > best.at) best = { meditation, at };
  }
  return best?.meditation ?? null;
}

export type ContinuePick = { meditation: Card; again: boolean };

/**
 * "Up next" (not "Continue": it has not been started): the next meditation after the last one in its category that has
 * not been completed yet, in the listing's order and coming round to the start; when every one in
 * the category has been heard, the last one again. Null before any practice, or when the last
 * meditation has left the catalogue.
 */
export function continuePick(all: readonly Card[], lastId: string | null, played: ReadonlySet<string>): ContinuePick | null {
  const last = lastId ? all.find((m) => m.id === lastId) : undefined;
  if (!last) return null;
  const series = all.filter((m) => m.category === last.category);
  const at = series.indexOf(last);
  for (let step = 1; step < series.length; step += 1) {
    const candidate = series[(at + step) % series.length];
    if (!played.has(candidate.id)) return { meditation: candidate, again: false };
  }
  return { meditation: last, again: true };
}

/** "Chosen for you": the shortest meditation not yet completed in the category of their answer (the shortest overall once all are). */
export function focusPick(all: readonly Card[], category: string, played: ReadonlySet<string>, exclude: string | null): Card | null {
  const inCategory = all.filter((m) => m.category === category || m.categories.includes(category));
  const fresh = inCategory.filter((m) => !played.has(m.id) && m.id !== exclude);
  return shortest(fresh) ?? shortest(inCategory.filter((m) => m.id !== exclude));
}
