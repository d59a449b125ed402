/** The journal-share routes (contracts: journal-share.ts). */
import type { journalShareSchemas } from '#shared/contracts/journal-share.ts';
import { defineRoutes } from '#shared/contracts/route.ts';

export const journalShareApi = defineRoutes<typeof journalShareSchemas>()('journal-share', {});
