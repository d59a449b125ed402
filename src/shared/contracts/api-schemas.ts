/**
 * Every route's zod contract, by feature and route name: the server validates and serialises with
 * them (src/server/serve-route.ts), and the web checks replies against them in development and tests
 * (src/web/lib/reply-check.ts, loaded only there). The routes themselves: api-routes.ts.
 */
import { accountSchemas } from '#shared/contracts/account.ts';
import { adminSchemas } from '#shared/contracts/admin.ts';
import { authSchemas } from '#shared/contracts/auth.ts';
import { billingSchemas } from '#shared/contracts/billing.ts';
import { catalogueSchemas } from '#shared/contracts/catalogue.ts';
import { favouritesSchemas } from '#shared/contracts/favourites.ts';
import { healthSchemas } from '#shared/contracts/health.ts';
import { journalSchemas } from '#shared/contracts/journal.ts';
import { journalShareSchemas } from '#shared/contracts/journal-share.ts';
import { mediaSchemas } from '#shared/contracts/media.ts';
import { practiceSchemas } from '#shared/contracts/practice.ts';
import { programmesSchemas } from '#shared/contracts/programmes.ts';
import { remindersSchemas } from '#shared/contracts/reminders.ts';
import { waitlistSchemas } from '#shared/contracts/waitlist.ts';
import type { Route, RouteSchemas } from '#shared/contracts/route.ts';

export const API_SCHEMAS: Readonly<Partial<Record<string, Readonly<Partial<Record<string, RouteSchemas>>>>>> = {
  account: accountSchemas,
  admin: adminSchemas,
  auth: authSchemas,
  billing: billingSchemas,
  catalogue: catalogueSchemas,
  favourites: favouritesSchemas,
  health: healthSchemas,
  journal: journalSchemas,
  'journal-share': journalShareSchemas,
  media: mediaSchemas,
  practice: practiceSchemas,
  programmes: programmesSchemas,
  reminders: remindersSchemas,
  waitlist: waitlistSchemas,
};

/** The zod contract the table names for a route (a route without one is a programming error, caught at start and by route-table.test.ts). */
export function contractOf(route: Pick<Route, 'id' | 'feature' | 'name'>): RouteSchemas {
  const schemas = API_SCHEMAS[route.feature]?.[route.name];
  if (!schemas) throw new Error(`${route.id}: no contract in src/shared/contracts/api-schemas.ts`);
  return schemas;
}
