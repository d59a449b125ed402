/**
 * Seeds a PostgreSQL database at the scale of issue 15 goal 7: 1 000 000 users, 20 000 000 completed
 * sessions, 5 000 meditations, 2 000 000 favourites, 200 000 waitlist rows, plus subscriptions,
 * preferences, roles and a security and admin audit log to page through.
 *
 * The rows are made by the server itself (`INSERT … SELECT generate_series(…)`): nothing crosses the
 * wire, no dependency is needed, and it is the fastest bulk path PostgreSQL has short of a file on
 * its own disk. Constraints and indexes are dropped before the load and rebuilt after it (a sort per
 * index instead of 20 million B-tree insertions), then every table is vacuumed and analysed so
 * index-only scans see an all-visible heap, as they would on a long-lived database.
 *
 * Usage: `node --import tsx scripts/bench/scale/seed.ts`
 *   SCALE_ADMIN_URL  (postgres://postgres@127.0.0.1:5432/postgres) a server where we may create databases
 *   SCALE_DB         (hm_scale) the database to (re)create: it is dropped first
 *   SCALE_FACTOR     (1) multiplies every row count (0.01 for a quick try)
 */
import pg from 'pg';
import { openPostgres } from '#server/db/client.ts';
import { ASSIGNABLE_CATEGORIES } from '#shared/catalogue.ts';
import { EVENT_TYPE_OPTIONS } from '#shared/admin.ts';
import { scaleDatabaseUrl } from './scale-database.ts';

const FACTOR = Number(process.env.SCALE_FACTOR ?? 1);
const count = (n: number) => Math.max(1, Math.round(n * FACTOR));

const SIZES = {
  users: count(1_000_000),
  /** Users who ever completed a session; the rest signed up and never finished one. */
  practisingUsers: count(700_000),
  sessions: count(20_000_000),
  /** The most sessions one user has: about 27 a day for two years. */
  maxSessionsPerUser: Math.min(20_000, count(20_000_000)),
  meditations: Math.max(50, count(5_000)),
  favourites: count(2_000_000),
  favouritingUsers: count(400_000),
  waitlist: count(200_000),
  subscribers: count(150_000),
  securityEvents: count(1_000_000),
  adminAudit: count(100_000),
  preferences: count(50_000),
} as const;

/** The tables we fill; their constraints and indexes are rebuilt around the load. */
const LOADED = [
  'user',
  'meditation_previews',
  'meditation_content',
  'meditation_sessions',
  'favourites',
  'waitlist_entries',
  'subscribers',
  'security_audit_log',
  'admin_audit_log',
  'practice_preferences',
  'user_roles',
];

/**
 * Power-law counts: rank i (1…n) gets round(c · i^-s), with c chosen so they add up to `total` and
 * rank 1 gets about `max`. Returns s and c (found by bisection on s).
 */
function powerLaw(n: number, total: number, max: number): { s: number; c: number } {
  const sumFor = (s: number) => {
    let sum = 0;
    for (let i = 1; i <= n; i++) sum += i ** -s;
    return sum;
  };
  let lo = 0;
  let hi = 2;
  for (let step = 0; step < 40; step++) {
    const s = (lo + hi) / 2;
    // Larger s puts more of the total on rank 1.
    if (total / sumFor(s) > max) hi = s;
    else lo = s;
  }
  const s = (lo + hi) / 2;
  return { s, c: total / sumFor(s) };
}

type Step = { table: string; sql: string; before?: string };

/** User i's id (better-auth ids are opaque text; ours are 32 hex characters like theirs). */
const USER_ID = (i: string) => `md5('u' || ${i})`;
/** Meditation j's id, a stable uuid so other tables can point at it without a lookup. */
const MEDITATION_ID = (j: string) => `md5('m' || ${j})::uuid`;

function steps(): Step[] {
  const S = SIZES;
  const sessions = powerLaw(S.practisingUsers, S.sessions, S.maxSessionsPerUser);
  const favs = powerLaw(S.favouritingUsers, S.favourites, Math.min(1_000, S.meditations));
  const categories = `array[${ASSIGNABLE_CATEGORIES.map((c) => `'${c.id}'`).join(',')}]`;
  const events = `array[${EVENT_TYPE_OPTIONS.map((e) => `'${e}'`).join(',')}]`;
  return [
    {
      table: 'meditation_previews',
      sql: `insert into meditation_previews (id, title, description, duration, duration_seconds, category, categories, tags, created_at, updated_at)
        select ${MEDITATION_ID('j')}, 'Meditation ' || j, 'A guided practice, number ' || j || '.', (d / 60) || ' min', d,
               c[1 + j % cardinality(c)], array[c[1 + (j * 7) % cardinality(c)]], array['calm', 'breath'],
               t, t
        from generate_series(1, ${S.meditations}) j,
             lateral (select ${categories} as c, 300 + (j * 37) % 2100 as d, now() - (j::float / ${S.meditations}) * interval '3 years' as t) x`,
    },
    {
      table: 'meditation_content',
      sql: `insert into meditation_content (meditation_id, storage_key, audio_file_name, audio_file_type, audio_file_size, transcript)
        select ${MEDITATION_ID('j')}, 'scale/' || j || '.mp3', 'meditation-' || j || '.mp3', 'audio/mpeg', 4000000 + j,
               case when j % 3 = 0 then null else 'Breathe in, and out.' end
        from generate_series(1, ${S.meditations}) j`,
    },
    {
      table: 'user',
      sql: `insert into "user" (id, name, email, email_verified, created_at, updated_at)
        select ${USER_ID('i')}, 'User ' || i, 'user' || i || '@scale.example', i % 10 <> 0, t, t
        from (select i, now() - random() * interval '3 years' as t from generate_series(1, ${S.users}) i) x`,
    },
    {
      // Rank i is a practising user; ids are md5 hashes, so rank order is unrelated to id order.
      // Each user's sessions fall in their own active span (a week to two years back), so streaks,
      // weeks and totals look like real people's, and a few heavy users have ~20 000 sessions.
      // Rows are written round by round (every user's 1st session, then every 2nd…), so one user's
      // sessions lie scattered over the whole table as they would after two years of use, not side by side.
      table: 'meditation_sessions',
      sql: `insert into meditation_sessions (user_id, meditation_id, duration_minutes, client_id, completed_at, created_at)
        select id, ${MEDITATION_ID(`1 + (random() * ${S.meditations - 1})::int`)}, 5 + (random() * 35)::int, gen_random_uuid(), t, t + interval '2 seconds'
        from (select u.id, now() - random() * u.span as t
              from generate_series(1, ${S.maxSessionsPerUser}) g,
                   lateral (select id, span from scale_ranks r where r.n >= g) u) x`,
      before: `create temporary table scale_ranks as
        select ${USER_ID('i')} as id, round(${sessions.c} * power(i, ${-sessions.s}))::int as n,
               interval '7 days' + random() * interval '723 days' as span
        from generate_series(1, ${S.practisingUsers}) i;
        create index on scale_ranks (n); analyze scale_ranks`,
    },
    {
      // Distinct meditations per user: a walk from a random start with a step coprime to the catalogue size.
      table: 'favourites',
      sql: `insert into favourites (user_id, meditation_id, saved_at)
        select u.id, ${MEDITATION_ID(`1 + ((u.start + g * u.step) % ${S.meditations})`)}, now() - random() * interval '2 years'
        from (select ${USER_ID(`(1 + (i::bigint * 7919) % ${S.users})`)} as id,
                     least(${S.meditations}, round(${favs.c} * power(i, ${-favs.s}))::int) as n,
                     (random() * ${S.meditations})::int as start,
                     (array[1, 3, 7, 11, 13, 17, 19, 23])[1 + i % 8] as step
              from generate_series(1, ${S.favouritingUsers}) i) u,
             lateral generate_series(1, u.n) g`,
    },
    {
      table: 'waitlist_entries',
      sql: `insert into waitlist_entries (name, email, reason, created_at)
        select 'Waiting Person ' || i, 'wait' || i || '@scale.example',
               case i % 4 when 0 then null when 1 then 'Evening wind-down for better sleep.'
                          when 2 then 'Living with fibromyalgia, looking for gentle support, "quietly".'
                          else '=HYPERLINK("http://evil.example","x") probe ' || i end,
               now() - random() * interval '1 year'
        from generate_series(1, ${S.waitlist}) i`,
    },
    {
      table: 'subscribers',
      sql: `insert into subscribers (user_id, status, plan, provider, provider_customer_id, provider_subscription_id, current_period_end, trial_start, trial_end, cancel_at_period_end, environment)
        select ${USER_ID(`(1 + (i::bigint * 104729) % ${S.users})`)}, st, (array['monthly', 'yearly'])[1 + i % 2],
               (array['stripe', 'stripe', 'app_store', 'sandbox'])[1 + i % 4], 'cus_' || i, 'sub_' || i,
               case st when 'canceled' then now() - random() * interval '300 days' else now() + random() * interval '30 days' end,
               case when st = 'trialing' then now() - interval '2 days' end,
               case when st = 'trialing' then now() + interval '5 days' end,
               i % 9 = 0, 'production'
        from generate_series(1, ${S.subscribers}) i,
             lateral (select (array['active', 'active', 'active', 'active', 'active', 'active', 'trialing', 'canceled', 'canceled', 'past_due'])[1 + i % 10] as st) x`,
    },
    {
      // Logins dominate; alerts are rare, as in a real log. Severity follows the event type.
      table: 'security_audit_log',
      sql: `insert into security_audit_log (event_type, severity, user_id, user_email, ip_address, details, created_at)
        select e, case when e in ('lockout_bypass_attempt', 'webhook_forged') then 'critical'
                       when e in ('ip_blocked', 'security_alert', 'admin_setup_failed') then 'high'
                       when e in ('failed_login', 'rate_limit_exceeded', 'csrf_rejected', 'upload_rejected') then 'medium' else 'low' end,
               ${USER_ID(`(1 + (i * 31) % ${S.users})`)}, 'user' || (1 + (i * 31) % ${S.users}) || '@scale.example',
               '10.' || (i % 250) || '.' || (i / 250 % 250) || '.' || (i % 7), '{"source":"scale-seed"}'::jsonb,
               now() - random() * interval '1 year'
        from generate_series(1, ${S.securityEvents}) i,
             lateral (select case when r < 0.5 then 'user_login' when r < 0.75 then 'failed_login' when r < 0.85 then 'user_signup'
                                  when r < 0.93 then 'rate_limit_exceeded' when r < 0.97 then 'user_logout'
                                  else (${events})[1 + (random() * ${EVENT_TYPE_OPTIONS.length - 1})::int] end as e
                      from (select random() + 0 * i as r) r) x`,
    },
    {
      table: 'admin_audit_log',
      sql: `insert into admin_audit_log (admin_email, action, target_resource, target_id, changes, metadata, severity, created_at)
        select 'admin' || (i % 10) || '@scale.example', (array['meditation.update', 'role.assign', 'waitlist.export', 'meditation.create'])[1 + i % 4],
               'meditation_previews', i::text, '{}'::jsonb, '{"ip":"10.0.0.1"}'::jsonb, (array['low', 'medium', 'medium', 'high'])[1 + i % 4],
               now() - random() * interval '1 year'
        from generate_series(1, ${S.adminAudit}) i`,
    },
    {
      table: 'practice_preferences',
      sql: `insert into practice_preferences (user_id, show_streaks)
        select ${USER_ID(`(1 + (i * 15485863::bigint) % ${S.users})`)}, i % 3 <> 0 from generate_series(1, ${S.preferences}) i
        on conflict do nothing`,
    },
    {
      table: 'user_roles',
      sql: `insert into user_roles (user_id, role) select ${USER_ID('i')}, case when i <= 10 then 'admin' else 'editor' end from generate_series(1, 60) i`,
    },
  ];
}

type Definition = { table: string; name: string; create: string; drop: string };

/** Every FK, primary key, unique constraint and index of the loaded tables, as statements to drop and recreate them. */
async function definitions(client: pg.Client): Promise<{ foreignKeys: Definition[]; keys: Definition[]; indexes: Definition[] }> {
  const constraints = await client.query<{ table: string; name: string; type: string; def: string }>(
    `select conrelid::regclass::text as table, conname as name, contype as type, pg_get_constraintdef(oid) as def
     from pg_constraint where connamespace = 'public'::regnamespace and contype in ('p', 'u', 'f')`,
  );
  const asDefinition = (c: { table: string; name: string; def: string }): Definition => ({
    table: c.table,
    name: c.name,
    create: `alter table ${c.table} add constraint "${c.name}" ${c.def}`,
    drop: `alter table ${c.table} drop constraint "${c.name}"`,
  });
  const loaded = new Set(LOADED.map((t) => (t === 'user' ? '"user"' : t)));
  // Every FK pointing at or from a loaded table must go before its key can.
  const foreignKeys = constraints.rows.filter((c) => c.type === 'f').map(asDefinition);
  const keys = constraints.rows.filter((c) => c.type !== 'f' && loaded.has(c.table)).map(asDefinition);
  const keyNames = new Set(constraints.rows.map((c) => c.name));
  const indexes = await client.query<{ table: string; name: string; def: string }>(
    `select tablename as table, indexname as name, indexdef as def from pg_indexes where schemaname = 'public' and tablename = any($1)`,
    [LOADED],
  );
  return {
    foreignKeys,
    keys,
    indexes: indexes.rows.filter((i) => !keyNames.has(i.name)).map((i) => ({ table: i.table, name: i.name, create: i.def, drop: `drop index "${i.name}"` })),
  };
}

const seconds = (since: number) => ((performance.now() - since) / 1000).toFixed(1);

async function main() {
  const adminUrl = process.env.SCALE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const name = process.env.SCALE_DB ?? 'hm_scale';
  const started = performance.now();
  console.log(`Seeding ${name} (factor ${FACTOR}):`, SIZES);

  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`drop database if exists "${name}" with (force)`);
  await admin.query(`create database "${name}"`);
  await admin.end();
  const url = scaleDatabaseUrl(adminUrl, name);

  let t = performance.now();
  const handle = openPostgres(url, 1);
  await handle.migrate();
  await handle.close();
  console.log(`migrations: ${seconds(t)} s`);

  const client = new pg.Client({ connectionString: url });
  await client.connect();
  // Our own session only: the server's settings are shared with other users.
  await client.query(`set synchronous_commit = off; set maintenance_work_mem = '1GB'; set work_mem = '256MB'`);
  const defs = await definitions(client);

  t = performance.now();
  for (const d of [...defs.foreignKeys, ...defs.indexes]) await client.query(d.drop);
  for (const d of defs.keys) await client.query(d.drop);
  console.log(`dropped ${defs.foreignKeys.length} foreign keys, ${defs.keys.length} keys, ${defs.indexes.length} indexes: ${seconds(t)} s`);

  const timings: { table: string; rows: number; load: number; index: number }[] = [];
  for (const step of steps()) {
    t = performance.now();
    if (step.before) await client.query(step.before);
    const result = await client.query(step.sql);
    const load = (performance.now() - t) / 1000;
    t = performance.now();
    for (const d of defs.keys.filter((k) => k.table.replaceAll('"', '') === step.table)) await client.query(d.create);
    for (const d of defs.indexes.filter((k) => k.table === step.table)) await client.query(d.create);
    const index = (performance.now() - t) / 1000;
    timings.push({ table: step.table, rows: result.rowCount ?? 0, load, index });
    console.log(`${step.table}: ${result.rowCount} rows in ${load.toFixed(1)} s, keys and indexes ${index.toFixed(1)} s`);
  }

  t = performance.now();
  for (const d of defs.foreignKeys) await client.query(d.create);
  const fk = seconds(t);
  console.log(`foreign keys (validated): ${fk} s`);

  t = performance.now();
  await client.query(`vacuum (analyze) ${LOADED.map((x) => (x === 'user' ? '"user"' : x)).join(', ')}`);
  console.log(`vacuum analyze: ${seconds(t)} s`);
  const size = await client.query<{ size: string }>(`select pg_size_pretty(pg_database_size(current_database())) as size`);
  await client.end();

  console.log('\n| table | rows | load s | keys + indexes s |\n|---|---|---|---|');
  for (const r of timings) console.log(`| ${r.table} | ${r.rows.toLocaleString('en')} | ${r.load.toFixed(1)} | ${r.index.toFixed(1)} |`);
  console.log(`\nforeign keys ${fk} s; total ${seconds(started)} s; database size ${size.rows[0].size}; url ${url}`);
}

await main();
