/** The journal routes (contracts: journal.ts). */
import type { journalSchemas } from '#shared/contracts/journal.ts';
import { defineRoutes } from '#shared/contracts/route.ts';

export const journalApi = defineRoutes<typeof journalSchemas>()('journal', {});
