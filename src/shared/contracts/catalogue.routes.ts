/** The catalogue routes (contracts: catalogue.ts). */
import type { catalogueSchemas } from '#shared/contracts/catalogue.ts';
import { defineRoutes } from '#shared/contracts/route.ts';

export const catalogueApi = defineRoutes<typeof catalogueSchemas>()('catalogue', {});
