/**
 * `npm run bench`: catalogue API throughput and latency on the demo data (PGlite, one process),
 * next to a baseline measured in the same run (GET /api/health: one trivial database round trip).
 * Prints figures; asserts nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { buildApp } from '#server/app.ts';
import { loadConfig } from '#server/config.ts';
import { openDatabase, openMediaStorage, prepareDatabase } from '#server/startup.ts';

const DURATION_S = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);

/**
 * The global brake counts every request per client address (GLOBAL_RATE_LIMIT_PER_MINUTE, 600 by
 * default) and autocannon sends tens of thousands a minute from one loopback address. The bench's
 * explicit allowance: a limit it never reaches, so every request is still counted (its cost is in
 * the figures) but none is refused. BENCH_GLOBAL_RATE_LIMIT=0 measures without the brake.
 * Load shedding keeps the production default (MAX_EVENT_LOOP_DELAY_MS) unless given.
 */
const GLOBAL_RATE_LIMIT = process.env.BENCH_GLOBAL_RATE_LIMIT ?? '1000000000';
const MAX_EVENT_LOOP_DELAY_MS = process.env.MAX_EVENT_LOOP_DELAY_MS;

const dataDir = mkdtempSync(join(tmpdir(), 'hm-bench-'));
const config = loadConfig({
  NODE_ENV: 'production',
  BILLING_MODE: 'none',
  DATA_DIR: dataDir,
  LOG_LEVEL: 'silent',
  PORT: '0',
  DATABASE_URL: '',
  GLOBAL_RATE_LIMIT_PER_MINUTE: GLOBAL_RATE_LIMIT,
  ...(MAX_EVENT_LOOP_DELAY_MS === undefined ? {} : { MAX_EVENT_LOOP_DELAY_MS }),
});
const database = openDatabase(config);
const app = await buildApp({ config, database, logger: false });
await prepareDatabase({ config, database, storage: openMediaStorage(config), log: { info: () => {}, warn: () => {} } });
const address = await app.listen({ port: 0, host: '127.0.0.1' });

type Row = { name: string; rps: number; p50: number; p99: number; errors: number };

async function measure(name: string, path: string): Promise<Row> {
  // Warm up (query plans, JIT) before measuring.
  await autocannon({ url: `${address}${path}`, connections: 2, duration: 1 });
  const result = await autocannon({ url: `${address}${path}`, connections: CONNECTIONS, duration: DURATION_S });
  return { name, rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors: result.errors + result.non2xx };
}

const rows: Row[] = [];
rows.push(await measure('baseline  GET /api/health', '/api/health'));
rows.push(await measure('GET /api/meditations (all)', '/api/meditations?category=all'));
rows.push(await measure('GET /api/meditations?category=chronic-health-care', '/api/meditations?category=chronic-health-care'));
rows.push(await measure('GET /api/meditations?category=recently-added', '/api/meditations?category=recently-added'));

const baseline = rows[0];
console.log(`\nCatalogue benchmark: PGlite, demo catalogue, ${CONNECTIONS} connections, ${DURATION_S} s each`);
const brake = config.globalRateLimit.perMinute > 0 ? `${config.globalRateLimit.perMinute} requests/min per IP (bench allowance; production default 600), every request counted` : 'off (BENCH_GLOBAL_RATE_LIMIT=0)';
const shedding = config.maxEventLoopDelayMs > 0 ? `above ${config.maxEventLoopDelayMs} ms event-loop delay` : 'off';
console.log(`Global rate limit: ${brake}. Load shedding: ${shedding}.\n`);
console.log('endpoint'.padEnd(54), 'req/s'.padStart(8), 'p50 ms'.padStart(8), 'p99 ms'.padStart(8), 'vs baseline'.padStart(12), 'errors'.padStart(7));
for (const row of rows) {
  const ratio = row === baseline ? '1.00x' : `${(row.rps / baseline.rps).toFixed(2)}x`;
  console.log(row.name.padEnd(54), row.rps.toFixed(0).padStart(8), String(row.p50).padStart(8), String(row.p99).padStart(8), ratio.padStart(12), String(row.errors).padStart(7));
}

await app.close();
await database.close();
rmSync(dataDir, { recursive: true, force: true });
