/**
 * Sharing one journal entry, end to end encrypted (issue 36, item 5; decision 0050). The entry is
 * sealed on the device under a fresh key that travels only in the link's fragment; the server keeps
 * the ciphertext, its expiry and a view count. Everything here is pure, for the page, the server and
 * the tests alike.
 */
import { addDays } from '#shared/days.ts';
import { parseEntry, type JournalEntry } from '#shared/journal.ts';

/** The three lifetimes a link may have, in days. */
export const SHARE_EXPIRY_DAYS = [1, 7, 30] as const;
export type ShareExpiryDays = (typeof SHARE_EXPIRY_DAYS)[number];

/**
 * The largest sealed share, in base64 characters: one entry at its largest (five fields of 5 000
 * characters, ~75 KB of UTF-8 JSON) plus a summary, padded and sealed, is ~100 KB in base64.
 */
export const SHARE_CIPHERTEXT_MAX_CHARS = 160 * 1024;

/** How many links one account may hold at once; revoking or expiry frees one. */
export const SHARE_LINKS_MAX = 50;

export const SHARE_MESSAGES = {
  button: 'Share',
  dialogTitle: 'Share with someone you trust',
  dialogBody:
    'This entry is encrypted on this device before anything is sent. The key that opens it is part of the link itself, after the #, and never reaches Harbour Mind: anyone you give the link to can read this entry until it expires or you revoke it.',
  expiryLegend: 'Link expires after',
  expiryLabel: (days: ShareExpiryDays) => (days === 1 ? '1 day' : `${days} days`),
  summaryLabel: 'Include a summary of my journal over the last 30 days',
  summaryHint: 'How many entries, on how many days, and the average mood: no other entry’s words.',
  create: 'Create link',
  creating: 'Creating...',
  linkLabel: 'Share link',
  copy: 'Copy link',
  copied: 'Link copied',
  copyFailed: 'The link could not be copied: select it and copy it yourself.',
  linkHint: 'Send it only to the person it is meant for. Whoever has it can read this entry.',
  createFailed: 'The link could not be created. Please try again.',
  listHeading: 'Shared links',
  listEmpty: 'You have not shared any entries. Links you create appear here, and you can revoke them at any time.',
  listFailed: 'Your shared links could not be loaded.',
  revoke: 'Revoke',
  revokeTitle: 'Revoke this link?',
  revokeBody: 'The link stops working at once and its encrypted copy is deleted from our servers. Anyone who already read the entry may have kept a copy.',
  revoked: 'Link revoked',
  unavailable: 'This link is no longer available.',
  noKey: 'This link is incomplete: the part after # that opens the entry is missing. Ask the person who shared it to send the whole link again.',
  wrongKey: 'This link cannot be opened: the part after # does not match. Ask the person who shared it to send the whole link again.',
  loading: 'Opening the shared entry...',
  pageTitle: 'A shared journal entry',
  pageIntro: 'Someone shared this entry from their Harbour Mind journal with you. It was encrypted on their device and opened on yours.',
  summaryHeading: 'Journal summary, last 30 days',
  print: 'Print',
  tooMany: `You have ${SHARE_LINKS_MAX} shared links. Revoke one to share another.`,
  badId: 'This link is not in the expected format.',
  badExpiry: 'Choose when the link expires: after 1, 7 or 30 days.',
  tooLarge: 'This entry is too large to share.',
  badCiphertext: 'The shared entry is not in the expected format.',
  extraField: 'Only the sealed entry and when its link expires can be sent.',
} as const;

/** A summary of the person's journal over the 30 days to `today`: counts and averages only, no words. */
export type ShareSummary = {
  from: string;
  to: string;
  entries: number;
  daysWritten: number;
  byType: { mindfulness: number; cbt: number; dbt: number };
  averageMood: number | null;
  averageIntensity: number | null;
};

/** What a link's ciphertext holds once opened. */
export type SharedPayload = { version: 1; entry: JournalEntry; summary: ShareSummary | null };

const mean = (values: number[]) => (values.length ? Math.round((values.reduce((a, b) => a + b, 0) / values.length) * 10) / 10 : null);

export function summariseJournal(entries: readonly JournalEntry[], today: string): ShareSummary {
  const from = addDays(today, -29);
  const inWindow = entries.filter((e) => e.date >= from && e.date <= today);
  const byType = { mindfulness: 0, cbt: 0, dbt: 0 };
  for (const e of inWindow) byType[e.type] += 1;
  return {
    from,
    to: today,
    entries: inWindow.length,
    daysWritten: new Set(inWindow.map((e) => e.date)).size,
    byType,
    averageMood: mean(inWindow.filter((e) => e.type === 'mindfulness').map((e) => e.content.mood)),
    averageIntensity: mean(inWindow.filter((e) => e.type === 'dbt').map((e) => e.content.intensity)),
  };
}

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;
const isAverage = (v: unknown): v is number | null => v === null || (typeof v === 'number' && Number.isFinite(v));

/** An opened payload, checked before it is shown (it came from someone else's device). */
export function parseSharedPayload(value: unknown): SharedPayload | null {
  if (typeof value !== 'object' || value === null) return null;
  const { version, entry, summary } = value as Record<string, unknown>;
  if (version !== 1) return null;
  const parsed = parseEntry(entry);
  if (!parsed) return null;
  if (summary === null || summary === undefined) return { version: 1, entry: parsed, summary: null };
  const s = summary as Record<string, unknown>;
  const byType = s.byType as Record<string, unknown> | undefined;
  const ok =
    typeof s.from === 'string' &&
    typeof s.to === 'string' &&
    isCount(s.entries) &&
    isCount(s.daysWritten) &&
    byType !== undefined &&
    isCount(byType.mindfulness) &&
    isCount(byType.cbt) &&
    isCount(byType.dbt) &&
    isAverage(s.averageMood) &&
    isAverage(s.averageIntensity);
  return { version: 1, entry: parsed, summary: ok ? (summary as ShareSummary) : null };
}
