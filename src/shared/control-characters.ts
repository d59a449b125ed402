/**
 * Control characters in text, on their own so that code on every first page (next-path.ts) can
 * refuse them without taking the whole of validation.ts (and its messages) into the first download.
 */
/**
 * C0 controls (NUL to US), DEL and C1 controls. No name, address, token or title holds one, and
 * PostgreSQL refuses NUL in text outright (an error, hence a 500, once it got that far).
 */
// eslint-disable-next-line no-control-regex -- matching control characters is this pattern's purpose.
const CONTROL_CHARS = /[\u0000-\u001F\u007F-\u009F]/;
/**
 * The same, minus tab, line feed and carriage return, which multi-line text (descriptions,
 * transcripts, reasons) may hold: browsers send a textarea's line breaks as CRLF in form posts.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is this pattern's purpose.
export const CONTROL_CHARS_MULTILINE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;

/**
 * Whether text holds a control character (C0 including NUL, DEL, C1). Multi-line text may hold
 * tab, line feed and carriage return. Checked on the text as sent, before any trimming.
 */
export function hasControlCharacters(input: string, { multiline = false }: { multiline?: boolean } = {}): boolean {
  return (multiline ? CONTROL_CHARS_MULTILINE : CONTROL_CHARS).test(input);
}
