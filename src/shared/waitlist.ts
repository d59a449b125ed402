/**
 * The waitlist's rules, limits and words (consumer document 'Waitlist', admin document §5). The server
 * enforces every rule here; the form uses them to answer at once.
 */
import { z } from 'zod';
import { validateEmail, validateName, validateContent } from '#shared/validation.ts';

export const WAITLIST = {
  nameMax: 100,
  emailMax: 254,
  /** The most characters a reason may have: 'under 500' (spec). The field, its counter and the check all use this one number. */
  reasonMax: 499,
  /** Per-IP sign-ups in the window (spec: 'Please wait 24 hours before submitting again.'). */
  perIpLimit: 5,
  windowMs: 24 * 60 * 60 * 1000,
  refreshMs: 30_000,
  /** Entries per page in the admin's table ('Show more' loads the next). */
  pageSize: 100,
  pageMax: 500,
  /** Above this many rows the table's total is the database's estimate ('about 200,000'). */
  exactCountBelow: 50_000,
  /** Rows read per query while the CSV export streams. */
  exportBatch: 1000,
  sharePopup: { width: 550, height: 450 },
  shareText: 'Join the beta - limited spots available!',
} as const;

export const WAITLIST_MESSAGES = {
  submit: 'Join the waitlist',
  submitting: 'Submitting...',
  successTitle: "You're on the list!",
  successBody: "Thanks for joining our beta waitlist. We'll be in touch soon!",
  duplicateTitle: 'Already registered',
  duplicateBody: 'This email is already registered on our waitlist. Thank you for your interest!',
  rateLimitTitle: 'Too many attempts',
  rateLimitBody: 'Please wait 24 hours before submitting again.',
  invalidTitle: 'Invalid information',
  invalidBody: 'Please check your information and try again.',
  failedTitle: 'Unable to join waitlist',
  failedBody: 'Please try again later.',
  // Admin document 'Waitlist save': a refusal by policy. Its other fallback ('Failed to save waitlist entry')
  // gives way to the consumer document's 'Please try again later.' (issue 33; docs/spec-coverage.md).
  accessDenied: 'Access denied. Please check your permissions.',
  honeypotTitle: 'Error',
  honeypotBody: 'Please try again later.',
  email: 'Please enter a valid email address',
  name: 'Name must be 2-100 characters and contain only valid characters',
  reason: 'Reason must be less than 500 characters and contain valid content',
  invalidUrlTitle: 'Invalid URL',
  invalidUrlBody: 'Please enter a valid URL including http:// or https://',
  urlUpdatedTitle: 'URL updated',
  urlUpdatedBody: 'The share URL has been updated successfully.',
  empty: 'No waitlist entries yet',
  clearConfirm: 'Are you sure you want to clear all waitlist data? This cannot be undone.',
} as const;

export type WaitlistInput = { name: string; email: string; reason?: string | null; website?: string | null };
export type WaitlistErrors = Partial<Record<'name' | 'email' | 'reason', string>>;

/** Consumer document §5 'Waitlist': one message per field. */
export function validateWaitlist(input: WaitlistInput): { valid: boolean; errors: WaitlistErrors } {
  const errors: WaitlistErrors = {};
  if (!validateEmail(input.email).valid) errors.email = WAITLIST_MESSAGES.email;
  if (!validateName(input.name).valid) errors.name = WAITLIST_MESSAGES.name;
  const reason = (input.reason ?? '').trim();
  if (reason && !validateContent(reason, WAITLIST.reasonMax).valid) errors.reason = WAITLIST_MESSAGES.reason;
  return { valid: Object.keys(errors).length === 0, errors };
}

/** The sign-up form's values; its rules are validateWaitlist's, so the form and the server answer alike. */
export const waitlistFormSchema = z
  .object({ name: z.string(), email: z.string(), reason: z.string(), website: z.string() })
  .superRefine((values, ctx) => {
    for (const [field, message] of Object.entries(validateWaitlist(values).errors)) ctx.addIssue({ code: 'custom', path: [field], message });
  });
export type WaitlistFormValues = z.infer<typeof waitlistFormSchema>;

/** Spec 'Share URL': a valid absolute http(s) URL. */
export function isAbsoluteHttpUrl(value: string): boolean {
  try {
    const url = new URL(value.trim());
    return (url.protocol === 'http:' || url.protocol === 'https:') && Boolean(url.hostname);
  } catch {
    return false;
  }
}

export function shareLinks(url: string, text: string = WAITLIST.shareText): Record<'twitter' | 'facebook' | 'linkedin', string> {
  const u = encodeURIComponent(url);
  return {
    twitter: `https://twitter.com/intent/tweet?text=${encodeURIComponent(text)}&url=${u}`,
    facebook: `https://www.facebook.com/sharer/sharer.php?u=${u}`,
    linkedin: `https://www.linkedin.com/sharing/share-offsite/?url=${u}`,
  };
}

export const WAITLIST_CSV_HEADER = ['Name', 'Email', 'Reason', 'Sign-up Date'] as const;
export const waitlistCsvName = (date: Date) => `waitlist-entries-${date.toISOString().slice(0, 10)}.csv`;
