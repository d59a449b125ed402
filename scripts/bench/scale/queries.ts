/**
 * `npm run bench:scale`: the app's own query functions (the services under src/server/features, not a
 * copy of their SQL) against the database that seed.ts made, for random users and pages, many times
 * each: p50 and p99 per query, then `EXPLAIN (ANALYZE, BUFFERS)` of every statement drizzle sent for
 * it, and the indexes those plans use.
 *
 * The baseline is measured in the same run: inside a transaction that puts the indexes back as they
 * were before migration 0007 (BASELINE_DDL) and is rolled back afterwards, so the seeded database is
 * left as it was. Run `seed.ts` first; this applies any newer migration to the seed on start.
 *
 * SCALE_ADMIN_URL, SCALE_DB (as seed.ts), BENCH_RUNS (300 per query), BENCH_EXPLAIN (1: print plans).
 */
import { createHash } from 'node:crypto';
import { drizzle } from 'drizzle-orm/node-postgres';
import type { Logger } from 'drizzle-orm';
import pg from 'pg';
import * as schema from '#server/db/schema.ts';
import { openPostgres, type Database } from '#server/db/client.ts';
import { scaleDatabaseUrl } from './scale-database.ts';
import { CASES, type Sampler } from './cases.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 300);
const WARMUP = 10;
const EXPLAIN = process.env.BENCH_EXPLAIN !== '0';

/**
 * Statements that turn this schema's indexes back into those before migration 0007 (the baseline).
 * They run inside a transaction that is rolled back, so nothing here outlives the run.
 */
const BASELINE_DDL: string[] = [
  'drop index admin_audit_log_severity_idx',
  'drop index waitlist_entries_created_id_idx',
  'drop index security_audit_log_severity_idx',
  'drop index meditation_previews_created_id_idx',
  'drop index admin_audit_log_created_at_idx',
  'drop index security_audit_log_created_at_idx',
  'drop index security_audit_log_event_type_idx',
  'drop index meditation_sessions_user_completed_idx',
  'create index waitlist_entries_created_at_idx on waitlist_entries (created_at desc nulls last)',
  'create index meditation_previews_created_at_idx on meditation_previews (created_at desc nulls last)',
  'create index admin_audit_log_created_at_idx on admin_audit_log (created_at desc nulls last)',
  'create index security_audit_log_created_at_idx on security_audit_log (created_at desc nulls last)',
  'create index security_audit_log_event_type_idx on security_audit_log (event_type)',
  'create index meditation_sessions_user_completed_idx on meditation_sessions (user_id, completed_at)',
];

type Statement = { sql: string; params: unknown[] };
type Runner = { db: Database; query: (text: string, params: unknown[]) => Promise<{ rows: Record<string, unknown>[] }> };
type Figures = { name: string; p50: number; p99: number; runs: number; note: string };

/** Collects the SQL drizzle sends while `capturing` is on. */
class CapturingLogger implements Logger {
  capturing = false;
  statements: Statement[] = [];
  logQuery(query: string, params: unknown[]): void {
    if (this.capturing) this.statements.push({ sql: query, params });
  }
}

/** A small seeded generator, so the baseline and the measured phase ask for the same users and pages. */
function mulberry32(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const md5 = (text: string) => createHash('md5').update(text).digest('hex');
const asUuid = (hex: string) => `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;

function sampler(seed: number, sizes: { users: number; meditations: number; favouritingUsers: number }): Sampler {
  const random = mulberry32(seed);
  const int = (n: number) => 1 + Math.floor(random() * n);
  return {
    random,
    // seed.ts: user i is md5('u' || i); practising rank r is user r; favouriting rank r is user 1 + (r·7919) mod users.
    anyUser: () => md5(`u${int(sizes.users)}`),
    heavyPractitioner: () => md5(`u${int(50)}`),
    favouritingUser: () => md5(`u${1 + ((int(sizes.favouritingUsers) * 7919) % sizes.users)}`),
    heavyFavouriter: () => md5(`u${1 + ((int(50) * 7919) % sizes.users)}`),
    meditation: () => asUuid(md5(`m${int(sizes.meditations)}`)),
    pick: <T>(items: readonly T[]) => items[Math.floor(random() * items.length)],
  };
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

async function measure(runner: Runner, sample: Sampler, logger: CapturingLogger, explain: boolean): Promise<{ figures: Figures[]; plans: string[] }> {
  const figures: Figures[] = [];
  const plans: string[] = [];
  for (const c of CASES) {
    const state = c.setup ? await c.setup(runner.db, sample) : undefined;
    const runs = Math.max(3, Math.round(RUNS * (c.weight ?? 1)));
    let note = '';
    for (let i = 0; i < Math.min(WARMUP, runs); i++) await c.run(runner.db, sample, state);
    const times: number[] = [];
    for (let i = 0; i < runs; i++) {
      const t = performance.now();
      note = String(await c.run(runner.db, sample, state));
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    figures.push({ name: c.name, p50: percentile(times, 50), p99: percentile(times, 99), runs, note });
    if (!explain || c.explain === false) continue;
    logger.statements = [];
    logger.capturing = true;
    await c.run(runner.db, sample, state);
    logger.capturing = false;
    const seen = new Set<string>();
    for (const statement of logger.statements) {
      if (!/^\s*(select|with)\b/i.test(statement.sql) || seen.has(statement.sql)) continue;
      seen.add(statement.sql);
      const plan = await runner.query(`explain (analyze, buffers) ${statement.sql}`, statement.params);
      const lines = plan.rows.map((r) => String(r['QUERY PLAN']));
      plans.push(`### ${c.name}\n\n${statement.sql}\n-- params: ${JSON.stringify(statement.params).slice(0, 300)}\n\n${lines.join('\n')}\nindexes: ${indexesIn(lines).join(', ') || 'none'}\n`);
    }
  }
  return { figures, plans };
}

/** The indexes a plan reads, and any sequential scan (none is wanted on a large table). */
function indexesIn(lines: string[]): string[] {
  const found = new Set<string>();
  for (const line of lines) {
    const index = /(?:Index Only Scan|Index Scan)(?: Backward)? using (\S+)|Bitmap Index Scan on (\S+)/.exec(line);
    if (index) found.add(index[1] || index[2]);
    const seq = /Seq Scan on (\S+)/.exec(line);
    if (seq) found.add(`seq scan ${seq[1]}`);
  }
  return [...found];
}

const ms = (n: number | undefined) => (n === undefined ? '—' : n < 10 ? n.toFixed(2) : n.toFixed(1));

async function main() {
  const adminUrl = process.env.SCALE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const url = scaleDatabaseUrl(adminUrl, process.env.SCALE_DB ?? 'hm_scale');
  const migrated = performance.now();
  const handle = openPostgres(url, 2);
  await handle.migrate();
  await handle.close();
  console.log(`migrations applied to the seed in ${((performance.now() - migrated) / 1000).toFixed(1)} s`);

  const pool = new pg.Pool({ connectionString: url, max: 4 });
  const counts = await pool.query<{ users: number; meditations: number; sessions: string }>(
    `select (select count(*) from "user")::int as users, (select count(*) from meditation_previews)::int as meditations, (select reltuples::bigint from pg_class where relname = 'meditation_sessions')::text as sessions`,
  );
  const { users, meditations } = counts.rows[0];
  const sizes = { users, meditations, favouritingUsers: Math.round(users * 0.4) };
  console.log(`seed: ${users.toLocaleString('en')} users, ${meditations} meditations, ~${Number(counts.rows[0].sessions).toLocaleString('en')} sessions; ${RUNS} runs a query\n`);

  const logger = new CapturingLogger();

  // Baseline: the pre-0007 indexes, in a transaction we roll back.
  let baseline: Figures[] | undefined;
  if (BASELINE_DDL.length) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query('begin');
    const t = performance.now();
    for (const statement of BASELINE_DDL) await client.query(statement);
    console.log(`baseline indexes made (in a transaction) in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    const db = drizzle(client, { schema, logger }) as unknown as Database;
    baseline = (await measure({ db, query: (text, params) => client.query(text, params) }, sampler(42, sizes), logger, process.env.BENCH_EXPLAIN_BASELINE === '1')).figures;
    await client.query('rollback');
    await client.end();
  }

  const db = drizzle(pool, { schema, logger }) as unknown as Database;
  const after = await measure({ db, query: (text, params) => pool.query(text, params) }, sampler(42, sizes), logger, EXPLAIN);
  await pool.end();

  console.log(baseline ? '| query | runs | before p50 ms | before p99 ms | p50 ms | p99 ms | note |' : '| query | runs | p50 ms | p99 ms | note |');
  console.log(baseline ? '|---|---|---|---|---|---|---|' : '|---|---|---|---|---|');
  for (const f of after.figures) {
    const b = baseline?.find((x) => x.name === f.name);
    const before = baseline ? ` ${ms(b?.p50)} | ${ms(b?.p99)} |` : '';
    console.log(`| ${f.name} | ${f.runs} |${before} ${ms(f.p50)} | ${ms(f.p99)} | ${f.note} |`);
  }
  if (EXPLAIN) console.log(`\n## Plans\n\n${after.plans.join('\n')}`);
}

await main();
