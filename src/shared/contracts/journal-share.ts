/**
 * Shared journal entries' API (issue 36, item 5; decision 0050). The server stores what the device
 * sealed under a key it never sees: every check here is about shape, size and lifetime.
 */
import { z } from 'zod';
import { SHARE_CIPHERTEXT_MAX_CHARS, SHARE_EXPIRY_DAYS, SHARE_MESSAGES as M } from '#shared/journal-share.ts';
import type { SchemaTable } from '#shared/contracts/route.ts';

const shareParams = z.object({ id: z.uuid(M.badId) });

export const createShareBody = z.strictObject({
  /** AES-GCM's 96-bit IV, base64. */
  iv: z.string(M.badCiphertext).regex(/^[A-Za-z0-9+/]{16}$/, M.badCiphertext),
  data: z
    .string(M.badCiphertext)
    .max(SHARE_CIPHERTEXT_MAX_CHARS, M.tooLarge)
    .min(24, M.badCiphertext)
    .regex(/^[A-Za-z0-9+/]*={0,2}$/, M.badCiphertext),
  expiresInDays: z.union(SHARE_EXPIRY_DAYS.map((days) => z.literal(days)), M.badExpiry),
  // Anything else (a title, the text) has no business here: refused, not ignored.
}, M.extraField);
export type CreateShareBody = z.infer<typeof createShareBody>;

const shareLinkSchema = z.object({ id: z.string(), createdAt: z.string(), expiresAt: z.string(), views: z.number() });
export type ShareLink = z.infer<typeof shareLinkSchema>;

const createShareResponse = shareLinkSchema;
const shareLinksResponse = z.object({ links: z.array(shareLinkSchema) });

/** What a recipient's page fetches: the sealed entry and when it stops working, nothing about its owner. */
const sharedEntryResponse = z.object({ iv: z.string(), data: z.string(), expiresAt: z.string() });

const revokeShareResponse = z.object({ revoked: z.literal(true) });

/** The journal-share routes' contracts, by route name (their method, path and policy: journal-share.routes.ts). */
export const journalShareSchemas = {
  create: { body: createShareBody, response: { 201: createShareResponse } },
  list: { response: shareLinksResponse },
  revoke: { params: shareParams, response: revokeShareResponse },
  read: { params: shareParams, response: sharedEntryResponse },
} satisfies SchemaTable;
