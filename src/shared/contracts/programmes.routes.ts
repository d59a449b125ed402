/** The programmes routes (contracts: programmes.ts). */
import type { programmesSchemas } from '#shared/contracts/programmes.ts';
import { defineRoutes } from '#shared/contracts/route.ts';

export const programmesApi = defineRoutes<typeof programmesSchemas>()('programmes', {});
