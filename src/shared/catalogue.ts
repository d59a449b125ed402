/**
 * Catalogue rules shared by the server (queries) and the web app (titles, tiles).
 * Spec: consumer document §2 'Category listing', §7 'Category filters on previews'.
 */
import { RECENTLY_ADDED_LIMIT } from '#shared/constants.ts';

export type CategoryInfo = { slug: string; title: string; description: string };

/** The categories an admin can assign (admin document §3, plus the sub-categories the aggregates use). */
export const ASSIGNABLE_CATEGORIES = [
  { id: 'morning', label: 'Morning Meditations' },
  { id: 'sleeping', label: 'Sleep & Rest' },
  { id: 'emotional-wellbeing', label: 'Emotional Wellbeing' },
  { id: 'happiness', label: 'Joy & Happiness' },
  { id: 'mindfulness', label: 'Mindful Awareness' },
  { id: 'journal', label: 'Intentional Journalling' },
  { id: 'significant-chapters', label: 'Significant Chapters' },
  { id: 'chronic-health-care', label: 'Meditations for Chronic Conditions' },
  { id: 'endometriosis', label: 'Endometriosis Support' },
  { id: 'fibromyalgia', label: 'Fibromyalgia Care' },
  { id: 'anxiety', label: 'Anxiety' },
  { id: 'emotional-regulation', label: 'Emotional Regulation' },
] as const;

const ALL_SLUG = 'all';
const RECENTLY_ADDED_SLUG = 'recently-added';

const CATEGORY_TABLE: Record<string, Omit<CategoryInfo, 'slug'>> = {
  all: {
    title: 'All Meditations',
    description: 'Every guided meditation in Harbour Mind, in one calm place.',
  },
  'recently-added': {
    title: 'Recently Added',
    description: 'The newest meditations, fresh from the studio.',
  },
  morning: {
    title: 'Morning Meditations',
    description: 'Gentle ways to arrive in the day: a few minutes of breath and intention before the world asks anything of you.',
  },
  sleeping: {
    title: 'Sleep & Rest',
    description: 'Slow, quiet practices to loosen the day and let your body settle towards sleep.',
  },
  'emotional-wellbeing': {
    title: 'Emotional Wellbeing',
    description: 'Steadying practices for anxious moments, big feelings and the days that ask a lot of you.',
  },
  happiness: {
    title: 'Joy & Happiness',
    description: 'Small, honest practices for noticing what is good, and letting it in.',
  },
  mindfulness: {
    title: 'Mindful Awareness',
    description: 'Come back to this moment: breath, body, sound and the simple act of paying attention.',
  },
  journal: {
    title: 'Intentional Journalling',
    description: 'Settle your mind before you write, and listen for what wants to be said.',
  },
  'chronic-health-care': {
    title: 'Meditations for Chronic Conditions',
    description: 'Kind, adaptable practices for living with long-term illness and pain, including endometriosis and fibromyalgia.',
  },
  endometriosis: {
    title: 'Endometriosis Support',
    description: 'Meditations written with endometriosis in mind: for flare days, tired days and everything between.',
  },
  fibromyalgia: {
    title: 'Fibromyalgia Care',
    description: 'Gentle attention for a body that hurts and tires easily. Go at your own pace.',
  },
  'significant-chapters': {
    title: 'Significant Chapters',
    description: 'For birthdays, beginnings, endings and transitions: the moments that change the shape of a life.',
  },
};

/** Aggregate categories also match their sub-categories. */
const AGGREGATES: Record<string, readonly string[]> = {
  'chronic-health-care': ['chronic-health-care', 'endometriosis', 'fibromyalgia'],
  'emotional-wellbeing': ['emotional-wellbeing', 'anxiety', 'emotional-regulation'],
};

/** Turns 'emotional-regulation' into 'Emotional Regulation'. */
function humaniseSlug(slug: string): string {
  return slug
    .split('-')
    .filter(Boolean)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join(' ');
}

/** Title and description of a category listing, with a fallback for unknown slugs. */
/** True for the slugs the app names (its categories and aggregates, all, recently added); others are humanised guesses. */
export function isNamedCategory(slug: string): boolean {
  return Object.hasOwn(CATEGORY_TABLE, slug) || categoryFilter(slug).kind !== 'categories';
}

/**
 * The slugs a listing page exists for: the named listings and every category an editor can assign
 * (those without a table entry get the spec's fallback title). Any other slug is a page that does
 * not exist: the 404 page, HTTP 404 (issue 17; docs/decisions/0024).
 */
export function isListingSlug(slug: string): boolean {
  return isNamedCategory(slug) || ASSIGNABLE_CATEGORIES.some((category) => category.id === slug);
}

export function categoryInfo(slug: string): CategoryInfo {
  const known = Object.hasOwn(CATEGORY_TABLE, slug) ? CATEGORY_TABLE[slug] : undefined;
  if (known) return { slug, ...known };
  const name = humaniseSlug(slug) || 'Meditations';
  return { slug, title: `${name} Meditations`, description: 'Guided meditations to support you, wherever you are today.' };
}

export type CategoryFilter =
  | { kind: 'all' }
  | { kind: 'recent'; limit: number }
  | { kind: 'categories'; slugs: readonly string[] };

/** How a listing slug filters the catalogue (spec: aggregate rules and the recently-added pseudo-category). */
export function categoryFilter(slug: string): CategoryFilter {
  if (slug === ALL_SLUG || slug === '') return { kind: 'all' };
  if (slug === RECENTLY_ADDED_SLUG) return { kind: 'recent', limit: RECENTLY_ADDED_LIMIT };
  return { kind: 'categories', slugs: (Object.hasOwn(AGGREGATES, slug) ? AGGREGATES[slug] : undefined) ?? [slug] };
}

/** True when a meditation with these categories belongs in the listing for `slug`. */
export function matchesCategory(slug: string, item: { category: string; categories: readonly string[] }): boolean {
  const filter = categoryFilter(slug);
  if (filter.kind !== 'categories') return true;
  return filter.slugs.includes(item.category) || item.categories.some((c) => filter.slugs.includes(c));
}

/** `/category/{categoryName}` accepts a slug or a label ('Sleep & Rest'); resolve it to a listing slug. */
export function slugFromCategoryName(name: string): string {
  const decoded = name.trim().toLowerCase();
  const byLabel = Object.entries(CATEGORY_TABLE).find(([, info]) => info.title.toLowerCase() === decoded);
  if (byLabel) return byLabel[0];
  const byAssignable = ASSIGNABLE_CATEGORIES.find((c) => c.label.toLowerCase() === decoded);
  if (byAssignable) return byAssignable.id;
  return decoded
    .replace(/&/g, 'and')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/** The nine tiles on the home page, in the spec's order. */
export const HOME_TILES = [
  { slug: 'all', label: 'Browse All' },
  { slug: 'morning', label: 'Morning Meditations' },
  { slug: 'happiness', label: 'Joy & Happiness' },
  { slug: 'emotional-wellbeing', label: 'Emotional Wellbeing' },
  { slug: 'sleeping', label: 'Sleep & Rest' },
  { slug: 'mindfulness', label: 'Mindful Awareness' },
  { slug: 'journal', label: 'Intentional Journalling' },
  { slug: 'chronic-health-care', label: 'Meditations for Chronic Conditions' },
  { slug: 'significant-chapters', label: 'Significant Chapters: birthdays, beginnings and transitions' },
] as const;

/**
 * How long a meditation is, as a card shows it: to the second under two minutes ('45 sec',
 * '1 min 30 sec'; the stored text rounds both to '1 min'), the stored text otherwise.
 */
export function displayDuration({ duration, durationSeconds }: { duration: string; durationSeconds: number | null }): string {
  if (durationSeconds == null || durationSeconds <= 0 || durationSeconds >= 120) return duration;
  const seconds = Math.round(durationSeconds);
  if (seconds < 60) return `${seconds} sec`;
  return seconds === 60 ? '1 min' : `1 min ${seconds - 60} sec`;
}

/** 'N min' from a length in seconds; anything under a minute still reads as '1 min'. */
export function formatDurationMinutes(seconds: number | null | undefined): string {
  if (!seconds || seconds <= 0) return '0 minutes';
  return `${Math.max(1, Math.round(seconds / 60))} min`;
}
