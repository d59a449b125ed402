/**
 * 'Write about it' after a meditation (issue 17, item 5): /journal?about=<title> starts a
 * mindfulness entry that names the meditation. The title comes from the address, so it is only
 * ever text in a field: trimmed, without control characters, and short.
 */
const ABOUT_PARAM = 'about';
const ABOUT_MAX = 200;

export const journalAboutPath = (title: string) => `/journal?${ABOUT_PARAM}=${encodeURIComponent(title)}`;

/** The opening words of the entry's 'Mindful moments', or '' when the address names nothing. */
export function journalAboutText(params: URLSearchParams): string {
  // eslint-disable-next-line no-control-regex -- control characters are what is removed
  const title = (params.get(ABOUT_PARAM) ?? '').replace(/[\u0000-\u001f\u007f-\u009f]/g, '').trim().slice(0, ABOUT_MAX);
  return title ? `After “${title}”: ` : '';
}
