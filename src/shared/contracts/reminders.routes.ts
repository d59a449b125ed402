/** The reminders routes (contracts: reminders.ts). */
import type { remindersSchemas } from '#shared/contracts/reminders.ts';
import { defineRoutes } from '#shared/contracts/route.ts';

export const remindersApi = defineRoutes<typeof remindersSchemas>()('reminders', {});
