/** The billing routes (contracts: billing.ts). */
import type { billingSchemas } from '#shared/contracts/billing.ts';
import { defineRoutes } from '#shared/contracts/route.ts';

export const billingApi = defineRoutes<typeof billingSchemas>()('billing', {});
