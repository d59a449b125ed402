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

export const MAX_HTML_TAGS = 5;
export const DEFAULT_CONTENT_MAX = 5000;

export function validateEmail(input: string | null | undefined): Validation {
  const email = (input ?? '').trim();
  if (!email) return fail(VALIDATION_MESSAGES.emailRequired);
  if (email.length > EMAIL_MAX) return fail(VALIDATION_MESSAGES.emailTooLong);
  if (EMAIL_FORBIDDEN.test(email)) return fail(VALIDATION_MESSAGES.emailBadChars);
  if (!EMAIL_SHAPE.test(email)) return fail(VALIDATION_MESSAGES.emailInvalid);
  return OK;
}

export function validateName(input: string | null | undefined): Validation {
  const name = (input ?? '').trim();
  if (!name) return fail(VALIDATION_MESSAGES.nameRequired);
  if (name.length < NAME_MIN) return fail(VALIDATION_MESSAGES.nameTooShort);
  if (name.length > NAME_MAX) return fail(VALIDATION_MESSAGES.nameTooLong);
  if (SCRIPT_LIKE.test(name) || /[<>]/.test(name)) return fail(VALIDATION_MESSAGES.nameInvalidContent);
  if (!NAME_CHARS.test(name)) return fail(VALIDATION_MESSAGES.nameBadChars);
  return OK;
}

export function validateContent(input: string | null | undefined, maxLength = DEFAULT_CONTENT_MAX): Validation {
  const content = (input ?? '').trim();
  if (!content) return fail(VALIDATION_MESSAGES.contentRequired);
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
  const stripped = (input ?? '').replace(/<[^>]*>?/g, '').replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g, '').trim();
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
