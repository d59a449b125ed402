/** The account routes (contracts: account.ts). */
import type { accountSchemas } from '#shared/contracts/account.ts';
import { defineRoutes } from '#shared/contracts/route.ts';

export const accountApi = defineRoutes<typeof accountSchemas>()('account', {});
