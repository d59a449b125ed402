/**
 * `npm run bench:web`: Lighthouse (mobile: its simulated slow 4G and 4× CPU slowdown) on the real
 * production server (`src/server/main.ts`, sandbox billing, demo catalogue, a fresh DATA_DIR) for
 * `/`, `/meditations/all` and `/subscribe`, with Debian's Chromium. Each page runs several times
 * (the machine is shared and the figures are noisy) and the run with the median performance score
 * is printed: the four category scores, FCP, LCP, TBT, CLS, and the first-load JavaScript (gzip,
 * from the build manifest), beside the figures before the work and its budget.
 * Builds first when dist/web or dist/ssr is missing or older than the sources. Exits non-zero when a
 * page's median Total Blocking Time passes 200 ms or its JavaScript before network idle passes 160 KB
 * on the wire (issue 39); the other figures are reported, not enforced. Beside each page it prints
 * Lighthouse's benchmarkIndex, the main-thread time per script, and the CPU other processes used
 * during each run: a reading taken beside other work is marked as not comparable.
 *
 * BENCH_WEB_RUNS (3), BENCH_WEB_PAGES (a comma-separated subset of the pages), BENCH_WEB_REPORTS (a
 * folder to keep each run's Lighthouse JSON in, for the audits behind a score), CHROME_PATH (/usr/bin/chromium). Decision: docs/decisions/0016-prepared-pages-and-first-load.md.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startServer } from '#tests/setup/server-process.ts';
import { sampleCpuElsewhere } from '../test-cpu.mjs';
import { buildIfStale } from '../build-if-stale.mjs';
import { BUDGET_GZIP, firstLoad } from './first-load.ts';

const RUNS = Number(process.env.BENCH_WEB_RUNS ?? 3);
const CHROME_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const CHROME_FLAGS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const PAGES = process.env.BENCH_WEB_PAGES?.split(',') ?? ['/', '/meditations/all', '/subscribe'];
const REPORTS = process.env.BENCH_WEB_REPORTS;
/** Issue 15's figures before the work (Lighthouse mobile, same Chromium); subscribe had none. */
const BEFORE: Record<string, string> = {
  '/': 'perf 71, FCP 4.2 s, LCP 4.3 s, JS 159.5 KB',
  '/meditations/all': 'perf 52, LCP 4.8 s, TBT 530 ms, CLS 0.169, JS 159.5 KB',
  '/subscribe': 'JS 208 KB',
};
const BUDGET = 'perf ≥ 98, a11y/bp/seo 100, LCP ≤ 1.8 s, CLS 0, JS ≤ 120 KB';
/** Issue 39's budget, which fails the bench: the median run's Total Blocking Time and its JavaScript on the wire before the network is idle. */
const TBT_BUDGET_MS = 200;
const SCRIPT_BUDGET_KB = 160;

type Audit = { numericValue?: number; details?: { items?: { url?: string; total?: number; scripting?: number; resourceType?: string; transferSize?: number }[] } };
type Report = {
  categories: Partial<Record<string, { score: number | null }>>;
  audits: Record<string, Audit | undefined>;
  runtimeError?: { message: string };
  /** Lighthouse's own measure of the machine (higher is faster; it scales its CPU slowdown by nothing, so say it beside every figure). */
  environment?: { benchmarkIndex?: number };
};
type Run = { performance: number; accessibility: number; bestPractices: number; seo: number; fcp: number; lcp: number; tbt: number; cls: number; benchmarkIndex: number; bootup: string; scriptKb: number; elsewhere: number };
/**
 * Work elsewhere on the machine during a run, as a share of one core, above which a reading is said
 * not to be comparable: with one core kept busy by another process, `/meditations/all`'s TBT went from
 * 4–141 ms to 124–185 ms while Lighthouse's benchmarkIndex (taken once, before the page) still read 1 841–2 738.
 */
const BUSY_ELSEWHERE = 0.1;

function lighthouse(url: string): Promise<Report> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['node_modules/lighthouse/cli/index.js', url, '--quiet', '--output=json', '--output-path=stdout', '--only-categories=performance,accessibility,best-practices,seo', `--chrome-flags=${CHROME_FLAGS.join(' ')}`],
      { env: { ...process.env, CHROME_PATH }, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let json = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (json += chunk));
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code !== 0) {
        reject(new Error(`lighthouse exited with ${code} for ${url}`));
        return;
      }
      const report = JSON.parse(json) as Report;
      if (REPORTS) {
        mkdirSync(REPORTS, { recursive: true });
        writeFileSync(join(REPORTS, `${new URL(url).pathname.replace(/\W+/g, '_')}-${Date.now()}.json`), json);
      }
      if (report.runtimeError) reject(new Error(`lighthouse: ${report.runtimeError.message}`));
      else resolve(report);
    });
  });
}

/**
 * Lighthouse sometimes fails to record the trace ("NO_NAVSTART … Please run Lighthouse again"): a
 * failed run is tried again, twice at most, and said so; a page that fails three times stops the bench.
 */
async function lighthouseWithRetry(url: string): Promise<Report> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await lighthouse(url);
    } catch (error) {
      if (attempt >= 3) throw error;
      process.stdout.write(`\n(${error instanceof Error ? error.message : String(error)}; running it again)\n`);
    }
  }
}

function summarise(report: Report, elsewhere: number): Run {
  const score = (id: string) => Math.round((report.categories[id]?.score ?? 0) * 100);
  const value = (id: string) => report.audits[id]?.numericValue ?? Number.NaN;
  return {
    performance: score('performance'),
    accessibility: score('accessibility'),
    bestPractices: score('best-practices'),
    seo: score('seo'),
    fcp: value('first-contentful-paint'),
    lcp: value('largest-contentful-paint'),
    tbt: value('total-blocking-time'),
    cls: value('cumulative-layout-shift'),
    benchmarkIndex: Math.round(report.environment?.benchmarkIndex ?? Number.NaN),
    bootup: bootupOf(report),
    scriptKb: scriptBytesOf(report) / 1024,
    elsewhere,
  };
}

/** JavaScript on the wire (compressed) in everything Lighthouse saw load, which runs until the network is quiet. */
function scriptBytesOf(report: Report): number {
  const items = report.audits['network-requests']?.details?.items ?? [];
  return items.filter((item) => item.resourceType === 'Script').reduce((sum, item) => sum + (item.transferSize ?? 0), 0);
}

/** The scripts that cost the main thread most at start (Lighthouse's bootup-time: ms of work, of which scripting), as "boot 2100/1900". */
function bootupOf(report: Report): string {
  const items = report.audits['bootup-time']?.details?.items ?? [];
  return items
    .filter((item) => (item.total ?? 0) >= 50)
    .slice(0, 4)
    .map((item) => `${(item.url ?? '?').replace(/^.*\/(?:assets\/)?/, '').replace(/-[\w-]{8}\.js$/, '.js') || 'page'} ${Math.round(item.total ?? 0)}/${Math.round(item.scripting ?? 0)}`)
    .join(', ');
}

buildIfStale();
const server = await startServer({ GLOBAL_RATE_LIMIT_PER_MINUTE: '1000000000' });
const rows: { page: string; median: Run; runs: Run[]; scores: number[]; js: number }[] = [];
try {
  for (const page of PAGES) {
    const runs: Run[] = [];
    for (let i = 0; i < RUNS; i++) {
      // A served page is prepared once per catalogue change (or minute): measure the steady state,
      // not the one request a minute that renders it.
      await fetch(`${server.url}${page}`);
      const started = performance.now();
      const elsewhere = sampleCpuElsewhere();
      const report = await lighthouseWithRetry(`${server.url}${page}`);
      runs.push(summarise(report, elsewhere.stop() / ((performance.now() - started) / 1000)));
      process.stdout.write('.');
    }
    const sorted = [...runs].sort((a, b) => a.performance - b.performance);
    const median = sorted[Math.floor((sorted.length - 1) / 2)];
    rows.push({ page, median, runs, scores: runs.map((run) => run.performance), js: firstLoad(page).gzip });
  }
} finally {
  await server.stop();
}

console.log(`\nLighthouse ${RUNS}× per page, mobile, median run by performance; JS = first-load JavaScript, gzip KB`);
console.log('page'.padEnd(18), 'perf'.padStart(5), '(runs)'.padStart(12), 'a11y'.padStart(5), 'bp'.padStart(4), 'seo'.padStart(4), 'FCP s'.padStart(6), 'LCP s'.padStart(6), 'TBT ms'.padStart(7), 'CLS'.padStart(6), 'JS KB'.padStart(6), '  before (issue 15)');
for (const { page, median: m, scores, js } of rows) {
  console.log(
    page.padEnd(18),
    String(m.performance).padStart(5),
    `(${scores.join(',')})`.padStart(12),
    String(m.accessibility).padStart(5),
    String(m.bestPractices).padStart(4),
    String(m.seo).padStart(4),
    (m.fcp / 1000).toFixed(2).padStart(6),
    (m.lcp / 1000).toFixed(2).padStart(6),
    m.tbt.toFixed(0).padStart(7),
    m.cls.toFixed(3).padStart(6),
    (js / 1024).toFixed(1).padStart(6),
    `  ${BEFORE[page] ?? ''}`,
  );
}
// What each figure was taken on, and where the main thread went (issue 39: two runs of the same
// page disagreed by 25 points; a reading without its machine cannot be compared).
console.log(`\nbenchmarkIndex (Lighthouse's machine speed) and main-thread work at start per script, ms total/scripting (≥ 50 ms, 4× CPU slowdown)`);
for (const { page, median: m } of rows) console.log(page.padEnd(18), String(m.benchmarkIndex).padStart(6), ` ${m.bootup}`);
// benchmarkIndex is taken once, before the page loads: work elsewhere during the run does not show in it.
console.log(`\nCPU used by other processes on the machine during each run, as a share of one core (readings above ${BUSY_ELSEWHERE * 100}% read high)`);
for (const { page, runs } of rows) {
  const busy = runs.some((run) => run.elsewhere > BUSY_ELSEWHERE);
  console.log(page.padEnd(18), runs.map((run) => `${Math.round(run.elsewhere * 100)}%`.padStart(5)).join(' '), busy ? ' NOT comparable: other work was running' : '');
}
const met = rows.every(({ median: m, js }) => m.performance >= 98 && m.accessibility === 100 && m.bestPractices === 100 && m.seo === 100 && m.lcp <= 1800 && m.cls === 0 && js <= BUDGET_GZIP);
console.log(`budget: ${BUDGET}: ${met ? 'met on every page' : 'NOT met'}`);

// The medians of TBT (not the median-score run's) and of the JavaScript fetched until the network is quiet.
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];
console.log(`\nmain-thread budget (fails the bench): median TBT ≤ ${TBT_BUDGET_MS} ms, JavaScript before network idle ≤ ${SCRIPT_BUDGET_KB} KB on the wire`);
let over = false;
for (const { page, runs } of rows) {
  const tbt = median(runs.map((run) => run.tbt));
  const kb = median(runs.map((run) => run.scriptKb));
  const verdict = tbt <= TBT_BUDGET_MS && kb <= SCRIPT_BUDGET_KB ? 'within' : 'OVER';
  if (verdict === 'OVER') over = true;
  console.log(page.padEnd(18), `TBT ${tbt.toFixed(0).padStart(5)} ms (runs ${runs.map((run) => run.tbt.toFixed(0)).join(', ')})`, `JS ${kb.toFixed(1).padStart(6)} KB`, ` ${verdict}`);
}
if (over) process.exitCode = 1;
