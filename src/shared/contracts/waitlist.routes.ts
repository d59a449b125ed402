/** The waitlist routes (contracts: waitlist.ts). */
import type { waitlistSchemas } from '#shared/contracts/waitlist.ts';
import { defineRoutes } from '#shared/contracts/route.ts';

export const waitlistApi = defineRoutes<typeof waitlistSchemas>()('waitlist', {});
