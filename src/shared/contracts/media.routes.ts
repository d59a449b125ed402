/** The media routes (contracts: media.ts). */
import type { mediaSchemas } from '#shared/contracts/media.ts';
import { defineRoutes } from '#shared/contracts/route.ts';

export const mediaApi = defineRoutes<typeof mediaSchemas>()('media', {});
