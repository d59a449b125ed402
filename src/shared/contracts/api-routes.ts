/** Every route of the table (route.ts), for the tests that walk it and the docs drawn from it. */
import { accountApi } from '#shared/contracts/account.routes.ts';
import { adminApi } from '#shared/contracts/admin.routes.ts';
import { authApi } from '#shared/contracts/auth.routes.ts';
import { billingApi } from '#shared/contracts/billing.routes.ts';
import { catalogueApi } from '#shared/contracts/catalogue.routes.ts';
import { favouritesApi } from '#shared/contracts/favourites.routes.ts';
import { healthApi } from '#shared/contracts/health.routes.ts';
import { journalApi } from '#shared/contracts/journal.routes.ts';
import { journalShareApi } from '#shared/contracts/journal-share.routes.ts';
import { mediaApi } from '#shared/contracts/media.routes.ts';
import { practiceApi } from '#shared/contracts/practice.routes.ts';
import { programmesApi } from '#shared/contracts/programmes.routes.ts';
import { remindersApi } from '#shared/contracts/reminders.routes.ts';
import { waitlistApi } from '#shared/contracts/waitlist.routes.ts';
import type { Route } from '#shared/contracts/route.ts';

const FEATURES = [accountApi, adminApi, authApi, billingApi, catalogueApi, favouritesApi, healthApi, journalApi, journalShareApi, mediaApi, practiceApi, programmesApi, remindersApi, waitlistApi];

export const API_ROUTES: readonly Route[] = FEATURES.flatMap((feature) => Object.values<Route>(feature));
