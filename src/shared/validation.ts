/**
 * The specification's validators and sanitisers, with its exact messages (admin document §5).
 * Pure functions shared by the server (authoritative) and the web forms (instant feedback).
 */
import { EMAIL_MAX, NAME_MAX, NAME_MIN } from '#shared/constants.ts';

export type Validation = { valid: true } | { valid: false; error: string };

const OK: Validation = { valid: true };
const fail = (error: string): Validation => ({ valid: false, error });

export const VALIDATION_MESSAGES = {
  emailRequired: 'Email is required',
  emailInvalid: 'Please enter a valid email address',
  emailTooLong: 'Email address is too long',
  emailBadChars: 'Email contains invalid characters',
  nameRequired: 'Name is required',
  nameTooShort: 'Name must be at least 2 characters long',
  nameTooLong: 'Name must be less than 100 characters',
  nameInvalidContent: 'Name contains invalid content',
  nameBadChars: 'Name can only contain letters, spaces, hyphens, and apostrophes',
  contentRequired: 'Content is required',
  contentTooLong: (max: number) => `Content must be less than ${max} characters`,
  contentTooManyTags: 'Content contains too many HTML tags',
  contentHarmful: 'Content contains potentially harmful code',
} as const;

/** Script tags, javascript:/vbscript: URLs, HTML data URLs and inline event handlers (onclick=…). */
const SCRIPT_LIKE = /<\s*\/?\s*script\b|javascript\s*:|vbscript\s*:|data\s*:\s*text\/html|\bon[a-z]+\s*=|<\s*iframe\b|<\s*object\b|<\s*embed\b|expression\s*\(/i;
const EMAIL_SHAPE = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;
const EMAIL_FORBIDDEN = /[<>'"&]/;
/** Letters of any alphabet (names are international), spaces, hyphens, apostrophes (straight and curly) and dots. */
const NAME_CHARS = /^[\p{L}\p{M} .'’-]+$/u;
const HTML_TAG = /<\/?[a-z][^>]*>/gi;
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
const CONTROL_CHARS_MULTILINE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
const CONTROL_CHARS_MULTILINE_ALL = new RegExp(CONTROL_CHARS_MULTILINE.source, 'g');

const MAX_HTML_TAGS = 5;
const DEFAULT_CONTENT_MAX = 5000;

/**
 * Whether text holds a control character (C0 including NUL, DEL, C1). Multi-line text may hold
 * tab, line feed and carriage return. Checked on the text as sent, before any trimming.
 */
export function hasControlCharacters(input: string, { multiline = false }: { multiline?: boolean } = {}): boolean {
  return (multiline ? CONTROL_CHARS_MULTILINE : CONTROL_CHARS).test(input);
}

/**
 * The dotted path of the first string in a parsed JSON value (object keys included) that holds a
 * control character, or undefined. For request bodies handed whole to a library (better-auth)
 * that would otherwise pass them to the database; `skip` names keys not to look into (passwords,
 * which are only ever hashed). Walks with its own stack: a body nested 100 000 deep must not
 * overflow the call stack.
 */
export function findControlCharacters(value: unknown, { skip = [] }: { skip?: readonly string[] } = {}): string | undefined {
  const stack: { value: unknown; path: string }[] = [{ value, path: '' }];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const { value: current, path } = next;
    if (typeof current === 'string') {
      if (hasControlCharacters(current)) return path || '(value)';
      continue;
    }
    if (typeof current !== 'object' || current === null) continue;
    const entries = Object.entries(current as Record<string, unknown>);
    // Pushed in reverse so the first offending field (in body order) is the one named.
    for (let i = entries.length - 1; i >= 0; i -= 1) {
      const [key, child] = entries[i];
      const childPath = path ? `${path}.${key}` : key;
      if (hasControlCharacters(key)) return childPath;
      if (!skip.includes(key)) stack.push({ value: child, path: childPath });
    }
  }
  return undefined;
}

/**
 * Whether a parsed JSON value nests objects or arrays deeper than `max`. Re-serialising a body
 * nested 20 000 deep (JSON.stringify) overflows the call stack: refuse such bodies first.
 */
export function nestedDeeperThan(value: unknown, max: number): boolean {
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  for (let next = stack.pop(); next; next = stack.pop()) {
    const { value: current, depth } = next;
    if (typeof current !== 'object' || current === null) continue;
    if (depth >= max) return true;
    for (const child of Object.values(current)) stack.push({ value: child, depth: depth + 1 });
  }
  return false;
}

export function validateEmail(input: string | null | undefined): Validation {
  const email = (input ?? '').trim();
  if (!email) return fail(VALIDATION_MESSAGES.emailRequired);
  if (hasControlCharacters(input ?? '')) return fail(VALIDATION_MESSAGES.emailBadChars);
  if (email.length > EMAIL_MAX) return fail(VALIDATION_MESSAGES.emailTooLong);
  if (EMAIL_FORBIDDEN.test(email)) return fail(VALIDATION_MESSAGES.emailBadChars);
  if (!EMAIL_SHAPE.test(email)) return fail(VALIDATION_MESSAGES.emailInvalid);
  return OK;
}

export function validateName(input: string | null | undefined): Validation {
  const name = (input ?? '').trim();
  if (!name) return fail(VALIDATION_MESSAGES.nameRequired);
  if (hasControlCharacters(input ?? '')) return fail(VALIDATION_MESSAGES.nameBadChars);
  if (name.length < NAME_MIN) return fail(VALIDATION_MESSAGES.nameTooShort);
  if (name.length > NAME_MAX) return fail(VALIDATION_MESSAGES.nameTooLong);
  if (SCRIPT_LIKE.test(name) || /[<>]/.test(name)) return fail(VALIDATION_MESSAGES.nameInvalidContent);
  if (!NAME_CHARS.test(name)) return fail(VALIDATION_MESSAGES.nameBadChars);
  return OK;
}

export function validateContent(input: string | null | undefined, maxLength = DEFAULT_CONTENT_MAX): Validation {
  const content = (input ?? '').trim();
  if (!content) return fail(VALIDATION_MESSAGES.contentRequired);
  // A NUL or an escape sequence in text is never a description: refuse it rather than store it.
  if (hasControlCharacters(input ?? '', { multiline: true })) return fail(VALIDATION_MESSAGES.contentHarmful);
  if (content.length > maxLength) return fail(VALIDATION_MESSAGES.contentTooLong(maxLength));
  if (SCRIPT_LIKE.test(content)) return fail(VALIDATION_MESSAGES.contentHarmful);
  if ((content.match(HTML_TAG) ?? []).length > MAX_HTML_TAGS) return fail(VALIDATION_MESSAGES.contentTooManyTags);
  return OK;
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#x27;', '/': '&#x2F;' };

/**
 * Spec sanitiser for text: trimmed, tags stripped, special characters escaped, cut to 1000.
 * Escaping happens after stripping, so no markup can survive; the cut never splits an entity.
 */
export function sanitizeText(input: string | null | undefined, maxLength = 1000): string {
  const stripped = (input ?? '').replace(/<[^>]*>?/g, '').replace(CONTROL_CHARS_MULTILINE_ALL, '').trim();
  let out = '';
  for (const char of stripped) {
    const piece = ESCAPES[char] ?? char;
    if (out.length + piece.length > maxLength) break;
    out += piece;
  }
  return out.trimEnd();
}

/** Spec sanitiser for e-mail: lowercased, only a-z 0-9 @ . _ - kept, cut to 254. */
export function sanitizeEmail(input: string | null | undefined): string {
  return (input ?? '')
    .toLowerCase()
    .replace(/[^a-z0-9@._-]/g, '')
    .slice(0, EMAIL_MAX);
}

const UNESCAPES: Record<string, string> = Object.fromEntries(Object.entries(ESCAPES).map(([char, entity]) => [entity, char]));

/**
 * Reverses sanitizeText's escaping for display in contexts that escape on their own (React text,
 * CSV): stored values stay sanitised, people see the name they typed ("O'Brien").
 */
export function unescapeText(input: string | null | undefined): string {
  return (input ?? '').replace(/&(?:amp|lt|gt|quot|#x27|#x2F);/g, (entity) => UNESCAPES[entity] ?? entity);
}
