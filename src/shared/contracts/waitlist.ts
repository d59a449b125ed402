/** Waitlist API contracts: the public sign-up and the admin views of the list (admin document §5). */
import { z } from 'zod';
import { WAITLIST } from '#shared/waitlist.ts';
import type { SchemaTable } from '#shared/contracts/route.ts';

/**
 * Lengths are capped generously here; the spec's own rules and messages (validateWaitlist) run in the
 * service, so a short name still gets 'Name must be 2-100 characters…' rather than a schema message.
 */
const joinWaitlistBody = z.object({
  name: z.string().max(1000).default(''),
  email: z.string().max(1000).default(''),
  reason: z.string().max(5000).nullish(),
  /** The honeypot: people never see it, bots fill it. */
  website: z.string().max(1000).nullish(),
});
export type JoinWaitlistBody = z.infer<typeof joinWaitlistBody>;
const joinWaitlistResponse = z.object({ id: z.string(), createdAt: z.iso.datetime() });

const waitlistEntrySchema = z.object({ id: z.string(), name: z.string(), email: z.string(), reason: z.string().nullable(), createdAt: z.iso.datetime() });
export type WaitlistEntry = z.infer<typeof waitlistEntrySchema>;
/** The admin's table, a page at a time: `after` is the last id of the page before. */
const waitlistPageQuery = z.object({
  after: z.uuid().optional(),
  limit: z.coerce.number().int().min(1).max(WAITLIST.pageMax).default(WAITLIST.pageSize),
});
const waitlistEntriesResponse = z.object({ entries: z.array(waitlistEntrySchema), total: z.number().int(), totalIsEstimate: z.boolean(), nextCursor: z.string().nullable() });
export type WaitlistEntriesResponse = z.infer<typeof waitlistEntriesResponse>;

/** The CSV export takes no options (unknown query keys are dropped). */
export const waitlistExportQuery = z.object({});

const clearWaitlistResponse = z.object({ deleted: z.number() });
const waitlistTestDataResponse = z.object({ inserted: z.number() });

/** The waitlist routes' contracts, by route name (their method, path and policy: waitlist.routes.ts). */
export const waitlistSchemas = {
  join: { body: joinWaitlistBody, response: { 201: joinWaitlistResponse } },
  list: { query: waitlistPageQuery, response: waitlistEntriesResponse },
  clear: { response: clearWaitlistResponse },
  testData: { response: waitlistTestDataResponse },
} satisfies SchemaTable;
