/**
 * The encrypted journal's API (issue 18; decision 0031). The server stores and hands back what the
 * device sealed; every check here is about shape and size, since the content is unreadable to it.
 */
import { z } from 'zod';
import { JOURNAL_ARGON2ID, JOURNAL_LOCK_MESSAGES, JOURNAL_PREVIOUS_KEYS_MAX, JOURNAL_RESET_WORD } from '#shared/journal-keys.ts';
import type { SchemaTable } from '#shared/contracts/route.ts';

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
const TOO_WEAK = 'This journal key is not protected strongly enough.';
const pbkdf2Schema = z.object({ kdf: z.literal('PBKDF2-SHA-256'), iterations: z.number().int().min(600_000).max(10_000_000), salt: base64(64), wrapped: wrappedSchema });
/**
 * Argon2id (issue 36, item 2; decision 0061): parameters below Bitwarden's defaults are refused (JOURNAL_ARGON2ID),
 * and the ceilings keep a keyring from asking a phone for more memory or time than it has.
 */
const argon2idSchema = z.object({
  kdf: z.literal('Argon2id'),
  memoryKiB: z.number().int().min(JOURNAL_ARGON2ID.memoryKiB, TOO_WEAK).max(1024 * 1024),
  iterations: z.number().int().min(JOURNAL_ARGON2ID.iterations, TOO_WEAK).max(50),
  parallelism: z.number().int().min(JOURNAL_ARGON2ID.parallelism, TOO_WEAK).max(16),
  salt: base64(64),
  wrapped: wrappedSchema,
});
/**
 * An earlier data key, sealed (AES-GCM) under the current one: a rotation keeps the keys it replaced so that
 * records not yet sealed again, and changes a device made offline, still open (decision 0061).
 */
const previousKeySchema = z.object({ generation: z.number().int().min(1), iv: ivSchema, data: base64(128) });

function keyringOf<P extends z.ZodType>(passphrase: P) {
  return z.object({
    version: z.literal(1),
    /** Which data key this is: 1 at set-up, one more at every rotation (absent on keyrings made before: 1). */
    generation: z.number().int().min(1).max(1_000_000).optional(),
    passphrase,
    recovery: z.object({ kdf: z.literal('HKDF-SHA-256'), salt: base64(64), wrapped: wrappedSchema }),
    previous: z.array(previousKeySchema).max(JOURNAL_PREVIOUS_KEYS_MAX).optional(),
  });
}
/** Any keyring the server may hold: PBKDF2 ones made before issue 36 are read and upgraded at the next unlock. */
const keyringSchema = keyringOf(z.discriminatedUnion('kdf', [pbkdf2Schema, argon2idSchema]));
/** What a device may store now: a new or changed passphrase is always Argon2id, so no keyring can be moved back to PBKDF2. */
const newKeyringSchema = keyringOf(argon2idSchema);

const keyringResponse = z.object({ keyring: keyringSchema.nullable() });
export const keyringBody = z.object({ keyring: newKeyringSchema });
/**
 * A rotation (issue 36, item 3): a new data key, a new recovery key and the old keys sealed under the new one;
 * its generation must be exactly one past the server's.
 */
export const rotationBody = z.object({ keyring: newKeyringSchema.extend({ generation: z.number().int().min(2).max(1_000_000) }) });

const recordParams = z.object({ id: z.uuid('This entry is not in the expected format.') });
export const recordBody = z.object({
  iv: ivSchema,
  data: base64(JOURNAL_RECORD_MAX_CHARS).min(24, 'This entry is not in the expected format.'),
  /** The change number this write replaces, or null for a record new to the server (compare-and-set). */
  baseSeq: z.number().int().min(1).nullable(),
  /**
   * The generation of the data key this record is sealed under (decision 0061; absent from apps before it: 1).
   * The server refuses a write under any key but its keyring's current one.
   */
  generation: z.number().int().min(1).max(1_000_000).optional(),
});

const recordSchema = z.object({ id: z.string(), seq: z.number(), iv: z.string(), data: z.string() });
const recordWriteResponse = z.object({ id: z.string(), seq: z.number() });
// A 409 carries `error.details.current`: the change that got there first (a record, or null if it is
// gone), for the device to merge and write again.

const recordsQuery = z.object({
  after: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(500).default(200),
});
const recordsResponse = z.object({ records: z.array(recordSchema), last: z.number(), more: z.boolean() });

/** "Start a new journal" (issue 36, item 3): the typed word, checked here as well as in the dialog. */
export const resetBody = z.strictObject({ confirm: z.literal(JOURNAL_RESET_WORD, JOURNAL_LOCK_MESSAGES.resetWordWrong) });
const resetResponse = z.object({ deletedRecords: z.number() });

/** The journal routes' contracts, by route name (their method, path and policy: journal.routes.ts). */
export const journalSchemas = {
  keyring: { response: keyringResponse },
  createKeyring: { body: keyringBody, response: { 201: keyringResponse } },
  updateKeyring: { body: keyringBody, response: keyringResponse },
  rotateKeyring: { body: rotationBody, response: keyringResponse },
  reset: { body: resetBody, response: resetResponse },
  records: { query: recordsQuery, response: recordsResponse },
  saveRecord: { params: recordParams, body: recordBody, response: recordWriteResponse },
} satisfies SchemaTable;
