/** The practice routes (contracts: practice.ts). */
import type { practiceSchemas } from '#shared/contracts/practice.ts';
import { defineRoutes } from '#shared/contracts/route.ts';

export const practiceApi = defineRoutes<typeof practiceSchemas>()('practice', {});
