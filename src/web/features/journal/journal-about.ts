/**
 * 'Write about it' after a meditation (issue 17, item 5): /journal?about=<title>&mood=<1-10> (journal-links.ts
 * makes these addresses) starts a mindfulness entry that names the meditation, with the mood the one-tap check chose. Both come
 * from the address, so the title is only ever text in a field (trimmed, without control
 * characters, and short) and the mood is used only when it is a whole number on the journal's scale.
 */
import { JOURNAL } from '#shared/journal.ts';
import { sanitizeText } from '#shared/validation.ts';
import { ABOUT_PARAM, MOOD_PARAM, PROMPT_PARAM } from '#web/features/journal/journal-links.ts';

const PROMPT_MAX = 500;
const ABOUT_MAX = 200;

/** The mood chosen after the meditation, or null (absent, or anything but a whole number on the scale). */
export function journalAboutMood(params: URLSearchParams): number | null {
  const raw = params.get(MOOD_PARAM);
  if (raw === null || !/^\d{1,2}$/.test(raw)) return null;
  const mood = Number(raw);
  return mood >= JOURNAL.scaleMin && mood <= JOURNAL.scaleMax ? mood : null;
}

/** The opening words of the entry's 'Mindful moments', or '' when the address names nothing. */
export function journalAboutText(params: URLSearchParams): string {
  const prompt = sanitizeText(params.get(PROMPT_PARAM), PROMPT_MAX);
  if (prompt) return `${prompt}\n`;
  const title = sanitizeText(params.get(ABOUT_PARAM), ABOUT_MAX);
  return title ? `After “${title}”: ` : '';
}
