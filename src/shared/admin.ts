/**
 * The admin dashboard's and the waitlist's rules, limits and words (admin document §2, §5, §8, §9;
 * consumer document 'Waitlist'). The server enforces every rule here; the forms use them to answer
 * at once.
 */
import { ASSIGNABLE_CATEGORIES } from '#shared/catalogue.ts';
import { validateContent, validateEmail, validateName, type Validation } from '#shared/validation.ts';

// ---------------------------------------------------------------- waitlist

export const WAITLIST = {
  nameMax: 100,
  emailMax: 254,
  reasonMax: 500,
  /** Per-IP sign-ups in the window (spec: 'Please wait 24 hours before submitting again.'). */
  perIpLimit: 5,
  windowMs: 24 * 60 * 60 * 1000,
  refreshMs: 30_000,
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
  if (reason && !validateContent(reason, WAITLIST.reasonMax - 1).valid) errors.reason = WAITLIST_MESSAGES.reason;
  return { valid: Object.keys(errors).length === 0, errors };
}

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

/** A cell that a spreadsheet would run as a formula is prefixed with an apostrophe (CSV injection). */
export function csvCell(value: string | null | undefined): string {
  let text = value ?? '';
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) || text !== text.trim() ? `"${text.replace(/"/g, '""')}"` : text;
}

export function toCsv(header: readonly string[], rows: readonly (readonly (string | null | undefined)[])[]): string {
  return [header, ...rows].map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';
}

export const WAITLIST_CSV_HEADER = ['Name', 'Email', 'Reason', 'Sign-up Date'] as const;
export const waitlistCsvName = (date: Date) => `waitlist-entries-${date.toISOString().slice(0, 10)}.csv`;

// ---------------------------------------------------------------- dashboard and roles

export const ADMIN = {
  loadingBypassMs: 10_000,
  csrfLifeMs: 15 * 60 * 1000,
  csrfRefreshBeforeMs: 5 * 60 * 1000,
  csrfCheckEveryMs: 60_000,
  /** Role changes per admin in the window (spec rate-limit defaults: 10 in 15 minutes). */
  roleChangesPerWindow: 10,
  roleWindowMs: 15 * 60 * 1000,
  auditShown: 50,
  securityLimit: 100,
  recentEvents: 10,
  statsRefreshMs: 30_000,
} as const;

/**
 * The security monitor (spec §9 'Client-side security monitor', 'Suspicious pattern', 'Rate limit check
 * defaults'), run on the server. Counters are fixed windows: the hourly metrics reset every hour, the
 * per-user pattern counters every 5 minutes. Each alert fires once per threshold crossing per window.
 */
export const SECURITY_MONITOR = {
  metricsWindowMs: 60 * 60 * 1000,
  /** An alert fires at more than 5 failed logins (per account and per IP) ... */
  failedLoginsAlertAbove: 5,
  /** ... and at more than 10 rate-limit violations (per IP). */
  rateLimitViolationsAlertAbove: 10,
  /** Threat score = 0.3 × failed logins + 0.4 × rate-limit violations + 0.5 × suspicious activity, per IP. */
  threatWeights: { failedLogins: 0.3, rateLimitViolations: 0.4, suspiciousActivity: 0.5 },
  threatScoreAlertAbove: 10,
  /** More than 5 occurrences of one event type per user in 5 minutes raises a critical event. */
  patternWindowMs: 5 * 60 * 1000,
  patternAlertAbove: 5,
  /** Wrong admin setup tokens from one IP in the hourly window before the IP is blocked (a failed-login-like guess). */
  setupTokenGuessesAbove: 5,
  /** Rate limit check defaults: 30 minute block. */
  blockMs: 30 * 60 * 1000,
} as const;

/** Every role (spec: user_roles): the one list behind the database column, the server's checks and the form. */
export const ROLE_OPTIONS = ['user', 'admin', 'editor'] as const;
export type Role = (typeof ROLE_OPTIONS)[number];
/** Every severity of a security or admin audit event: the database columns and the log filters. */
export const SEVERITY_OPTIONS = ['critical', 'high', 'medium', 'low'] as const;
export type Severity = (typeof SEVERITY_OPTIONS)[number];
/**
 * Every security event type the server records: the one list behind the server's type and the Security Log
 * filter. The spec's five come first; the rest are server-side controls the spec kept in the browser.
 */
export const EVENT_TYPE_OPTIONS = [
  'user_login',
  'failed_login',
  'user_signup',
  'rate_limit_exceeded',
  'password_reset_requested',
  'user_logout',
  'mail_delivery_failed',
  'admin_setup_failed',
  'csrf_rejected',
  'upload_rejected',
  'lockout_bypass_attempt',
  'webhook_forged',
  'security_alert',
  'ip_blocked',
] as const;
export type SecurityEventType = (typeof EVENT_TYPE_OPTIONS)[number];

export const ADMIN_MESSAGES = {
  title: 'Admin Dashboard',
  loading: 'Loading admin dashboard...',
  continueAnyway: 'Continue Anyway',
  loadingBypassed: 'Loading Bypassed',
  errorTitle: 'Admin Dashboard Error',
  reload: 'Reload Dashboard',
  goHome: 'Go to Homepage',
  accessDeniedTitle: 'Access Denied',
  accessDeniedBody: 'You need administrator privileges to access this dashboard.',
  needAdmin: 'You need admin privileges',
  setupHint: 'If this is a new installation, use the Admin Setup section below with the setup token to grant yourself admin access.',
  forbidden: 'Access denied. Admin privileges required.',
  verifiedAdmin: 'Verified Admin',
  standardUser: 'Standard User',
  setupTitle: 'Admin Setup',
  setupDone: 'An administrator already exists. Ask them to assign roles in the User Roles tab.',
  setupTokenInvalid: 'That setup token is not valid. Print a fresh one with `npm run cli -- setup-token`.',
  setupGranted: 'You are now an administrator.',
  rolesRequired: 'Email and role are required',
  ownAccount: 'Cannot assign roles to your own account after initial setup',
  featureLimited: 'Feature Limited – Role assignment to other users requires additional verification. Please contact system administrator.',
  cannotRevokeOwn: 'You cannot revoke your own admin role',
  roleAssigned: 'Role assigned successfully',
  roleModified: 'Role modified successfully',
  roleRevoked: 'Role revoked successfully',
  securityErrorTitle: 'Security Error',
  securityErrorBody: 'Please refresh the page.',
  rateLimitTitle: 'Rate Limit Exceeded',
  rateLimitBody: 'Too many role assignment attempts. Please wait before trying again.',
  sandboxOnly: 'This test tool is only available in sandbox mode.',
  testDataAdded: 'Test data added',
  testAccountsCreated: 'Test accounts created successfully',
  passwordsReset: 'Passwords reset successfully',
  waitlistCleared: 'Waitlist data cleared',
  exportSuccessful: 'Export successful',
  noDataToExport: 'No data to export',
} as const;

// ---------------------------------------------------------------- uploads

export const UPLOAD = {
  maxBytes: 50 * 1024 * 1024,
  titleMax: 200,
  descriptionMax: 2000,
  transcriptMax: 20_000,
  tagMax: 40,
  tagsMax: 20,
  /** The form's broad audio check (spec 'Audio file check'). */
  audioTypes: ['mpeg', 'mp3', 'wav', 'm4a', 'mp4', 'x-m4a', 'aac', 'ogg', 'webm'],
  /** What the upload step itself stores (spec 'Upload form'). */
  storedTypes: ['audio/mpeg', 'audio/mp3', 'audio/mp4', 'audio/x-m4a'],
  storedExtensions: ['mp3', 'm4a', 'mp4'],
  dangerous: ['.exe', '.bat', '.cmd', '.scr', '.pif', '.js', '.jar', '.app'],
} as const;

export const UPLOAD_MESSAGES = {
  required: 'Please fill in all required fields, select at least one category, and select an audio file',
  invalidTitle: 'Invalid Title',
  invalidDescription: 'Invalid Description',
  invalidFile: 'Invalid File',
  tooLarge: 'File size must be less than 50MB',
  notAudio: 'File must be an audio file (MP3, WAV, M4A, AAC, OGG, or WebM)',
  dangerousName: 'File name contains potentially dangerous content',
  pathCharacters: 'File name contains invalid path characters',
  unsupportedType: (type: string) => `Unsupported file type: ${type}. Supported types are MP3 and M4A.`,
  unsupportedExtension: (ext: string) => `Unsupported file extension: ${ext}`,
  contentMismatch: 'The file is not the audio it claims to be. Supported types are MP3 and M4A.',
  unreadableAudio: 'The audio file could not be read. Please check it plays, then try again.',
  durationMismatch: 'The audio file’s length does not match its size. Please check it plays, then try again.',
  tooLong: 'The audio is longer than 4 hours. Please upload a shorter recording.',
  duplicateCategory: 'Each category can be picked only once.',
  unknownCategory: 'Unknown category',
  uploadedTitle: 'Meditation Uploaded',
  uploadFailedTitle: 'Upload Failed',
  deletedTitle: 'Meditation Deleted',
  deleteFailed: 'Failed to delete meditation',
  updatedTitle: 'Meditation Updated',
  updateFailed: 'Failed to update meditation',
} as const;

/** Spec 'Audio file check' on the name, size and declared type. */
export function checkAudioFile(file: { name: string; size: number; type: string }): Validation {
  if (file.size >= UPLOAD.maxBytes) return { valid: false, error: UPLOAD_MESSAGES.tooLarge };
  const subtype = file.type.split('/')[1]?.toLowerCase() ?? '';
  if (!file.type.toLowerCase().startsWith('audio/') || !(UPLOAD.audioTypes as readonly string[]).includes(subtype)) return { valid: false, error: UPLOAD_MESSAGES.notAudio };
  const name = file.name.toLowerCase();
  if (UPLOAD.dangerous.some((d) => name.includes(d))) return { valid: false, error: UPLOAD_MESSAGES.dangerousName };
  if (hasPathCharacters(file.name)) return { valid: false, error: UPLOAD_MESSAGES.pathCharacters };
  return { valid: true };
}

export function hasPathCharacters(name: string): boolean {
  return name.includes('..') || /[/\\\0]/.test(name) || /^[a-z]:/i.test(name);
}

/** Spec 'Upload form': the step that stores only MP3 and M4A. */
export function checkStoredType(file: { name: string; type: string }): Validation {
  const ext = file.name.split('.').pop()?.toLowerCase() ?? '';
  if (!(UPLOAD.storedTypes as readonly string[]).includes(file.type.toLowerCase())) return { valid: false, error: UPLOAD_MESSAGES.unsupportedType(file.type || 'unknown') };
  if (!(UPLOAD.storedExtensions as readonly string[]).includes(ext)) return { valid: false, error: UPLOAD_MESSAGES.unsupportedExtension(ext || 'none') };
  return { valid: true };
}

export type UploadFields = { title: string; description: string; categories: string[]; tags: string[]; transcript?: string };

/** Spec 'Upload form' for the text fields; returns the first problem as the spec's title and detail. */
export function checkUploadFields(fields: UploadFields, hasFile: boolean): { valid: true } | { valid: false; title: string; error: string } {
  if (!fields.title.trim() || fields.categories.length === 0 || !hasFile) return { valid: false, title: UPLOAD_MESSAGES.uploadFailedTitle, error: UPLOAD_MESSAGES.required };
  const title = validateContent(fields.title, UPLOAD.titleMax);
  if (!title.valid) return { valid: false, title: UPLOAD_MESSAGES.invalidTitle, error: title.error };
  if (fields.description.trim()) {
    const description = validateContent(fields.description, UPLOAD.descriptionMax);
    if (!description.valid) return { valid: false, title: UPLOAD_MESSAGES.invalidDescription, error: description.error };
  }
  if (fields.transcript?.trim()) {
    const transcript = validateContent(fields.transcript, UPLOAD.transcriptMax);
    if (!transcript.valid) return { valid: false, title: UPLOAD_MESSAGES.invalidDescription, error: transcript.error };
  }
  if (new Set(fields.categories).size !== fields.categories.length) return { valid: false, title: UPLOAD_MESSAGES.uploadFailedTitle, error: UPLOAD_MESSAGES.duplicateCategory };
  const known = new Set<string>(ASSIGNABLE_CATEGORIES.map((c) => c.id));
  if (fields.categories.some((c) => !known.has(c))) return { valid: false, title: UPLOAD_MESSAGES.uploadFailedTitle, error: UPLOAD_MESSAGES.unknownCategory };
  return { valid: true };
}

/** Tags are added on Add or Enter: trimmed, empty ones dropped, no duplicates (case-insensitive). */
export function addTag(tags: readonly string[], raw: string): string[] {
  const tag = raw.trim().replace(/\s+/g, ' ').slice(0, UPLOAD.tagMax);
  if (!tag || tags.some((t) => t.toLowerCase() === tag.toLowerCase()) || tags.length >= UPLOAD.tagsMax) return [...tags];
  return [...tags, tag];
}

export function normaliseTags(raw: readonly string[]): string[] {
  return raw.reduce<string[]>((acc, t) => addTag(acc, t), []);
}
