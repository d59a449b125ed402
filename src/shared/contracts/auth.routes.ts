/** The auth routes (contracts: auth.ts). */
import type { authSchemas } from '#shared/contracts/auth.ts';
import { defineRoutes } from '#shared/contracts/route.ts';

export const authApi = defineRoutes<typeof authSchemas>()('auth', {});
