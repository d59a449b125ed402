/** The admin routes (contracts: admin.ts). */
import type { adminSchemas } from '#shared/contracts/admin.ts';
import { defineRoutes } from '#shared/contracts/route.ts';

export const adminApi = defineRoutes<typeof adminSchemas>()('admin', {});
