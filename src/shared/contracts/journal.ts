/**
 * The encrypted journal's API (issue 18; decision 0031). The server stores and hands back what the
 * device sealed; every check here is about shape and size, since the content is unreadable to it.
 */
import { z } from 'zod';
import { JOURNAL_LOCK_MESSAGES, JOURNAL_RESET_WORD } from '#shared/journal.ts';

const base64 = (max: number) =>
  z
    .string()
    .max(max, 'This entry is too large to store.')
    .regex(/^[A-Za-z0-9+/]*={0,2}$/, 'This entry is not in the expected format.');

/** A 96-bit AES-GCM IV, base64. */
const ivSchema = z.string().regex(/^[A-Za-z0-9+/]{16}$/, 'This entry is not in the expected format.');
/**
 * The largest entry (five text fields of 5 000 characters, at most 3 UTF-8 bytes each: ~75 KB of JSON),
 * padded, sealed and in base64 (×4/3) is ~100 KB: 160 K characters leaves room, inside the 256 KB body limit.
 */
const JOURNAL_RECORD_MAX_CHARS = 160 * 1024;

const wrappedSchema = z.object({ iv: ivSchema, data: base64(128) });
const keyringSchema = z.object({
  version: z.literal(1),
  passphrase: z.object({ kdf: z.literal('PBKDF2-SHA-256'), iterations: z.number().int().min(600_000).max(10_000_000), salt: base64(64), wrapped: wrappedSchema }),
  recovery: z.object({ kdf: z.literal('HKDF-SHA-256'), salt: base64(64), wrapped: wrappedSchema }),
});

export const keyringResponse = z.object({ keyring: keyringSchema.nullable() });
export const keyringBody = z.object({ keyring: keyringSchema });

export const recordParams = z.object({ id: z.uuid('This entry is not in the expected format.') });
export const recordBody = z.object({
  iv: ivSchema,
  data: base64(JOURNAL_RECORD_MAX_CHARS).min(24, 'This entry is not in the expected format.'),
  /** The change number this write replaces, or null for a record new to the server (compare-and-set). */
  baseSeq: z.number().int().min(1).nullable(),
});

const recordSchema = z.object({ id: z.string(), seq: z.number(), iv: z.string(), data: z.string() });
export const recordWriteResponse = z.object({ id: z.string(), seq: z.number() });
// A 409 carries `error.details.current`: the change that got there first (a record, or null if it is
// gone), for the device to merge and write again.

export const recordsQuery = z.object({
  after: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(500).default(200),
});
export const recordsResponse = z.object({ records: z.array(recordSchema), last: z.number(), more: z.boolean() });

/** "Start a new journal" (issue 36, item 3): the typed word, checked here as well as in the dialog. */
export const resetBody = z.strictObject({ confirm: z.literal(JOURNAL_RESET_WORD, JOURNAL_LOCK_MESSAGES.resetWordWrong) });
export const resetResponse = z.object({ deletedRecords: z.number() });
