/**
 * What bench:scale measures: every user-facing read, called through the app's own service
 * functions with the arguments a request would give them.
 */
import { createHash } from 'node:crypto';
import type { Database } from '#server/db/client.ts';
import type { SecurityEventType, Severity } from '#shared/admin.ts';
import { listAdminAudit } from '#server/features/admin/admin-audit.service.ts';
import { listSecurityEvents, securityStats } from '#server/features/admin/admin.service.ts';
import { getEntitlement } from '#server/features/billing/subscriptions.service.ts';
import { getMeditation, listMeditations } from '#server/features/catalogue/catalogue.service.ts';
import { listFavourites } from '#server/features/favourites/favourites.service.ts';
import { getPractice } from '#server/features/practice/practice.service.ts';
import { exportWaitlistCsv, listWaitlist } from '#server/features/waitlist/waitlist.service.ts';

export type Sampler = {
  random: () => number;
  anyUser: () => string;
  heavyPractitioner: () => string;
  favouritingUser: () => string;
  heavyFavouriter: () => string;
  meditation: () => string;
  pick: <T>(items: readonly T[]) => T;
};

export type Case = {
  name: string;
  /** Share of BENCH_RUNS (the whole-list reads are slow by nature and run fewer times). */
  weight?: number;
  explain?: boolean;
  setup?: (db: Database, sample: Sampler) => Promise<unknown>;
  /** One call; what it returns is printed beside the figures (row counts). */
  run: (db: Database, sample: Sampler, state: unknown) => Promise<string | number>;
};

const TIMEZONES = ['Europe/London', 'America/New_York', 'Asia/Tokyo', 'UTC', 'Australia/Sydney', 'America/Los_Angeles'];
/** seed.ts makes users 1–10 admins; user i's id is md5('u' || i). */
const by = { actor: { id: createHash('md5').update('u1').digest('hex'), email: 'user1@scale.example' }, ip: '127.0.0.1', userAgent: 'bench:scale' };

export const CASES: Case[] = [
  {
    name: 'practice summary (any user)',
    run: async (db, s) => (await getPractice({ db, userId: s.anyUser(), timezone: s.pick(TIMEZONES) })).totalSessions,
  },
  {
    name: 'practice summary (50 heaviest users, 7–20k sessions)',
    weight: 0.3,
    run: async (db, s) => (await getPractice({ db, userId: s.heavyPractitioner(), timezone: s.pick(TIMEZONES) })).totalSessions,
  },
  { name: 'favourites (user with favourites)', run: async (db, s) => (await listFavourites({ db, userId: s.favouritingUser() })).length },
  { name: 'favourites (50 heaviest, ~1000 each)', weight: 0.3, run: async (db, s) => (await listFavourites({ db, userId: s.heavyFavouriter() })).length },
  { name: 'entitlement', run: async (db, s) => String((await getEntitlement({ db, userId: s.anyUser(), role: 'user' })).subscribed) },
  { name: 'catalogue card by id', run: async (db, s) => (await getMeditation({ db, id: s.meditation() })).id.length },
  { name: 'catalogue listing: one category', weight: 0.3, run: async (db) => (await listMeditations({ db, slug: 'sleeping' })).meditations.length },
  { name: 'catalogue listing: recently added', run: async (db) => (await listMeditations({ db, slug: 'recently-added' })).meditations.length },
  { name: 'catalogue listing: all 5000 (prepared once per change)', weight: 0.1, run: async (db) => (await listMeditations({ db, slug: 'all' })).meditations.length },
  { name: 'admin waitlist first page (with total)', run: async (db) => (await listWaitlist({ db })).entries.length },
  {
    name: 'admin waitlist page 50 (keyset)',
    setup: async (db) => {
      let after: string | undefined;
      for (let i = 1; i < 50; i++) after = (await listWaitlist({ db, after })).nextCursor ?? undefined;
      return after;
    },
    run: async (db, _s, after) => (await listWaitlist({ db, after: after as string | undefined })).entries.length,
  },
  {
    name: 'admin waitlist CSV export (all rows)',
    weight: 0.01,
    explain: false,
    run: async (db) => {
      // Read through as a client would; the figure is the whole download.
      let bytes = 0;
      for await (const chunk of (await exportWaitlistCsv({ db, by })).body) bytes += Buffer.byteLength(chunk as string);
      return bytes;
    },
  },
  { name: 'security log page (newest 100)', run: async (db) => (await listSecurityEvents({ db })).length },
  {
    name: 'security log page (severity filter)',
    run: async (db, s) => (await listSecurityEvents({ db, severity: s.pick<Severity>(['critical', 'high', 'medium', 'low']) })).length,
  },
  {
    name: 'security log page (event type filter)',
    run: async (db, s) => (await listSecurityEvents({ db, eventType: s.pick<SecurityEventType>(['failed_login', 'ip_blocked', 'webhook_forged', 'user_login']) })).length,
  },
  { name: 'security stats (cards)', run: async (db) => (await securityStats({ db })).totalAlerts24h },
  { name: 'admin audit page (severity filter)', run: async (db, s) => (await listAdminAudit({ db, limit: 50, severity: s.pick<Severity>(['high', 'medium', 'low']) })).length },
];
