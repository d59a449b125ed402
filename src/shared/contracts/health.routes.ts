/** The health routes (contracts: health.ts). */
import type { healthSchemas } from '#shared/contracts/health.ts';
import { defineRoutes } from '#shared/contracts/route.ts';

export const healthApi = defineRoutes<typeof healthSchemas>()('health', {});
