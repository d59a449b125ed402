/**
 * `npm test`: every check and every test, set up by itself on a fresh clone.
 * 1. What the journeys need: Debian's Chromium, installed when missing (ensure-chromium.mjs), before
 *    anything slow, so a machine that cannot install it is told at once.
 * 2. The web build when stale (the journeys serve it, and unit tests read it), while TypeScript,
 *    ESLint and knip start (any finding fails the run).
 * 3. Then, side by side: the end-to-end journeys in Chromium, and `cap sync` of the native shells
 *    followed by the unit + integration half (PGlite, and PostgreSQL when reachable).
 * The journeys wait on the browser, their servers and real time more than on the CPU, and the unit
 * half on processes it starts and stops, so each fills the other's idle moments. Everything shares
 * the machine as equals (decision 0052): a test half at a lower priority was starved past its
 * timeouts on a loaded machine, and checks at a lower priority were left to run alone at the end,
 * on one core of two.
 * Everything runs even when an early step fails, so one run reports all that is wrong; the exit code
 * is non-zero if anything failed. Each step's time is printed at the end.
 *
 * `npm test -- path…` is the quick loop: only the tests asked for, in the half (unit or e2e) they
 * belong to, with no static checks. `npm run test:changed` runs the unit tests a change touches.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { isBuildStale } from './build-if-stale.mjs';
import { ensureChromium } from './ensure-chromium.mjs';
import { sampleCpuByKind } from './test-cpu.mjs';

const bin = (name) => `node_modules/${name}`;
const extra = process.argv.slice(2);
const wholeRun = extra.length === 0;
const started = Date.now();

const isE2e = (arg) => /(^|\/)e2e(\/|$)|\.e2e\.ts$/.test(arg);
// Options that take a value keep it (`-t "name"`), so a value is never read as a path.
const WITH_VALUE = new Set(['-t', '--testNamePattern', '--project', '--shard', '--reporter', '--maxWorkers', '--bail', '--retry']);
const filters = [];
const options = [];
for (let i = 0; i < extra.length; i++) {
  const arg = extra[i];
  if (!arg.startsWith('-')) filters.push(arg);
  else if (WITH_VALUE.has(arg) && i + 1 < extra.length) options.push(arg, extra[++i]);
  else options.push(arg);
}
// A path goes to the half it names; a bare name filter (no slash, no dot) goes to both.
const unitFilters = filters.filter((arg) => !isE2e(arg));
const e2eFilters = filters.filter((arg) => isE2e(arg) || !/[/.]/.test(arg));
const runUnit = wholeRun || unitFilters.length > 0 || filters.length === 0;
const runE2e = wholeRun || e2eFilters.length > 0 || filters.length === 0;

const steps = [];
const seconds = (since) => (Date.now() - since) / 1000;

/**
 * CPU seconds used by the finished children of this process (and what they waited for: workers,
 * servers, Chromium), from /proc (Linux; undefined elsewhere). Unlike wall time it barely moves
 * with what else the machine is doing, so it says what a step costs on two quiet cores. A lower
 * bound for the journeys: Chromium's renderers are forked by its zygote, and what they used is not
 * always handed up the chain when the browser closes (a sampler of /proc saw about twice as much).
 */
function childCpuSeconds() {
  try {
    // Fields after the command's closing parenthesis; cutime and cstime are the 16th and 17th of the line.
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return undefined;
  }
}
const cpuSince = (before) => {
  const now = childCpuSeconds();
  return before === undefined || now === undefined ? undefined : now - before;
};
const cpuText = (cpu) => (cpu === undefined ? '' : `, cpu ${cpu.toFixed(0)} s`);

/**
 * Runs one step. `quiet` keeps its output until it ends (steps that run side by side would
 * interleave theirs); a step that passes quietly prints only its last lines. `prefix` streams its
 * output line by line behind a label instead (the two halves when they run together).
 */
function run(label, command, args, { quiet = false, prefix } = {}) {
  const stepStarted = Date.now();
  const cpuBefore = childCpuSeconds();
  return new Promise((resolve) => {
    const piped = quiet || prefix !== undefined;
    const child = spawn(command, args, { stdio: piped ? ['ignore', 'pipe', 'pipe'] : 'inherit', env: { ...process.env, NODE_ENV: 'test' } });
    let output = '';
    if (quiet) {
      child.stdout?.on('data', (chunk) => (output += chunk));
      child.stderr?.on('data', (chunk) => (output += chunk));
    } else if (prefix !== undefined) {
      for (const stream of [child.stdout, child.stderr]) {
        let partial = '';
        stream?.on('data', (chunk) => {
          const lines = (partial + chunk).split('\n');
          partial = lines.pop() ?? '';
          for (const line of lines) process.stdout.write(`[${prefix}] ${line}\n`);
        });
        stream?.on('end', () => partial && process.stdout.write(`[${prefix}] ${partial}\n`));
      }
    }
    child.on('close', (code) => {
      // Steps that run side by side share the counter: only a step run alone reports its own CPU.
      const step = { label, ok: code === 0, seconds: seconds(stepStarted), cpu: piped ? undefined : cpuSince(cpuBefore) };
      if (quiet) process.stdout.write(step.ok ? output.split('\n').slice(-6).join('\n') : output);
      console.log(`\n${label}: ${step.ok ? 'passed' : 'FAILED'} in ${step.seconds.toFixed(0)} s${cpuText(step.cpu)}\n`);
      steps.push(step);
      resolve(step);
    });
  });
}

// Before anything slow: a run that cannot reach its end says so at once.
if (runE2e && !ensureChromium()) process.exit(1);
const cpuByKind = sampleCpuByKind();

const node = process.execPath;
// The vitest processes make the run's PGlite template (global-setup.ts): as the workers, WebAssembly by
// V8's baseline compiler (tests/setup/server-bundle.ts says why; kept in step by hand, this file is plain JavaScript).
const TEST_NODE_FLAGS = ['--liftoff-only'];
const checks = [];
if (wholeRun) {
  // TypeScript 7, the native compiler (decision 0066): the same check in a third of the CPU. TypeScript 6
  // stays for typescript-eslint, knip and the editor, which need its JavaScript API.
  checks.push(run('typecheck', node, [bin('typescript-native/bin/tsc'), '--noEmit', '-p', '.'], { quiet: true }));
  // Typed linting makes garbage fast: young generations of 128 MB instead of V8's 16 MB leave it a
  // fifth less CPU to spend collecting (decision 0072: 157 CPU-s alone, 129 with it).
  checks.push(run('eslint', node, ['--max-semi-space-size=128', bin('eslint/bin/eslint.js'), '.', '--max-warnings=0'], { quiet: true }));
  checks.push(run('knip', node, [bin('knip/bin/knip.js')], { quiet: true }));
}
// First the build, alone with the checks: the journeys serve it, and unit tests read dist/.
const build = (runE2e || wholeRun) && isBuildStale() ? await run('web build', node, ['-e', "import('./scripts/build-if-stale.mjs').then((m) => m.buildIfStale({ force: true }))"], { quiet: true }) : undefined;

const together = runUnit && runE2e;
// Each half also writes vitest's JSON report, read at the end for the slowest files (unless the caller chose reporters).
const reportDir = mkdtempSync(join(tmpdir(), 'hm-test-report-'));
const reporting = !options.some((option) => option.startsWith('--reporter'));
const reportArgs = (half) => (reporting ? ['--reporter=default', '--reporter=json', `--outputFile.json=${join(reportDir, `${half}.json`)}`] : []);

/** The ten files that took longest, from both halves' reports: where a faster run has to start. */
function slowestFiles() {
  const files = [];
  for (const half of ['unit', 'e2e']) {
    try {
      const report = JSON.parse(readFileSync(join(reportDir, `${half}.json`), 'utf8'));
      for (const file of report.testResults ?? []) files.push({ half, name: relative(process.cwd(), file.name), seconds: (file.endTime - file.startTime) / 1000 });
    } catch {
      // That half did not run, or ended before writing its report.
    }
  }
  return files.sort((a, b) => b.seconds - a.seconds).slice(0, 10);
}
const journeys = async () => {
  if (!runE2e) return;
  if (build && !build.ok) {
    steps.push({ label: 'e2e (not run: no web build)', ok: false, seconds: 0 });
    return;
  }
  await run('e2e', node, [...TEST_NODE_FLAGS, bin('vitest/vitest.mjs'), 'run', '--config', 'vitest.e2e.config.ts', ...reportArgs('e2e'), ...options, ...e2eFilters], { prefix: together ? 'e2e' : undefined });
};
const unitHalf = async () => {
  // The native projects take the fresh build: a broken capacitor.config.ts or project fails here
  // (and the unit half's native checks read what it copies).
  if (wholeRun) await run('native sync', node, ['scripts/native.mjs', 'sync'], { quiet: true });
  if (runUnit) await run('unit+integration', node, [...TEST_NODE_FLAGS, bin('vitest/vitest.mjs'), 'run', ...reportArgs('unit'), ...options, ...unitFilters], { prefix: together ? 'unit' : undefined });
};
await Promise.all([journeys(), unitHalf(), ...checks]);

const slowest = slowestFiles();
rmSync(reportDir, { recursive: true, force: true });
if (slowest.length > 0) console.log(`Slowest files:\n${slowest.map((f) => `  ${f.seconds.toFixed(0).padStart(4)} s  ${f.half.padEnd(4)}  ${f.name}`).join('\n')}\n`);
console.log(steps.map((s) => `${s.label}: ${s.ok ? 'passed' : 'FAILED'} ${s.seconds.toFixed(0)} s${cpuText(s.cpu)}`).join('; '));
const ok = steps.every((s) => s.ok);
const totalCpu = childCpuSeconds();
const kinds = cpuByKind.stop();
if (kinds) console.log(`CPU by kind of process (sampled, test-cpu.mjs): ${kinds.map(([kind, cpu]) => `${kind} ${cpu.toFixed(0)} s`).join(', ')}; ${kinds.reduce((sum, [, cpu]) => sum + cpu, 0).toFixed(0)} s in all`);
console.log(`npm test: ${ok ? 'passed' : 'FAILED'} in ${seconds(started).toFixed(0)} s${cpuText(totalCpu)}`);
process.exit(ok ? 0 : 1);
