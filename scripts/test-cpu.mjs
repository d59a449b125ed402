/**
 * What `npm test` really spends, by kind of process: every few seconds, the CPU time of each process
 * below the run (from /proc; Linux only, nothing elsewhere). The figure the kernel hands up to the run
 * when children end undercounts the journeys: Chromium's renderers are forked by its zygote, and what
 * they used is not always passed up when the browser closes (a sampler saw 576 CPU-s of Chromium in a
 * run whose own count was 1 163 s in all). Sampled, a process that ends between two looks loses its
 * last seconds, so these figures are a little low too, never inflated.
 */
import { readdirSync, readFileSync } from 'node:fs';

const EVERY_MS = 2_000;
const TICKS_PER_SECOND = 100; // USER_HZ: 100 on every Linux Node runs on

/** A process's kind, from its command line (a vitest worker's from the run that forked it). */
export function kindOf(command, parentKind) {
  if (command.includes('vitest') && !command.includes('vitest.mjs') && parentKind?.endsWith('(vitest)')) return parentKind;
  if (/chrom/i.test(command)) {
    const type = /--type=([\w-]+)/.exec(command)?.[1];
    return type ? `Chromium ${type}` : 'Chromium browser';
  }
  if (command.includes('eslint')) return 'ESLint';
  if (command.includes('typescript-native') || command.includes('/tsc ')) return 'TypeScript';
  if (command.includes('knip')) return 'knip';
  if (command.includes('vite.js build') || command.includes('esbuild')) return 'build';
  if (command.includes('exit-with-parent')) return 'servers the tests start';
  if (command.includes('vitest')) return command.includes('e2e') ? 'journeys (vitest)' : 'unit half (vitest)';
  // The CLI as tests spawn it: the run's bundle (.tmp/cli-<pid>.mjs) or src/server/cli.ts.
  if (/\/cli[-.][\w.]*\b/.test(command)) return 'CLI the tests start';
  if (command.includes('node')) return 'other Node';
  return 'other';
}

function readStat(pid) {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = text.slice(text.lastIndexOf(') ') + 2).split(' ');
    return { parent: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]), started: fields[19] };
  } catch {
    return undefined;
  }
}

function allStats() {
  const stats = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = readStat(name);
    if (stat) stats.set(Number(name), stat);
  }
  return stats;
}

/** Looks now and every `everyMs` (never keeping Node alive for it); `stop()` looks a last time and returns `result()`. */
function lookingEvery(everyMs, look, result) {
  look();
  const timer = setInterval(look, everyMs);
  timer.unref();
  return {
    stop: () => {
      clearInterval(timer);
      look();
      return result();
    },
  };
}

/** True when the process descends from `root` (or is it). */
export function isBelow(pid, stats, root = process.pid) {
  let ancestor = pid;
  for (let hops = 0; ancestor > 1 && ancestor !== root && hops < 40; hops += 1) ancestor = stats.get(ancestor)?.parent ?? 0;
  return ancestor === root;
}

/**
 * Starts counting the CPU every process *not* below this one uses (other sessions, builds, a stray
 * browser): a benchmark's figures are only comparable when this is near nothing, and Lighthouse's
 * benchmarkIndex, taken once before a run, does not show it (issue 39). Looks every second; `stop()`
 * returns CPU-seconds (0 off Linux). A process that starts and ends between two looks is missed.
 */
export function sampleCpuElsewhere(everyMs = 1_000) {
  if (readStat(process.pid) === undefined) return { stop: () => 0 };
  const first = new Map(); // `pid:start` → ticks at the first look that saw it
  const last = new Map();
  const look = () => {
    const stats = allStats();
    for (const [pid, stat] of stats) {
      if (isBelow(pid, stats)) continue;
      const key = `${pid}:${stat.started}`;
      if (!first.has(key)) first.set(key, stat.ticks);
      last.set(key, stat.ticks);
    }
  };
  return lookingEvery(everyMs, look, () => {
    let ticks = 0;
    for (const [key, now] of last) ticks += now - (first.get(key) ?? now);
    return ticks / TICKS_PER_SECOND;
  });
}

/** Starts sampling the processes below this one; `stop()` returns the CPU-seconds by kind, largest first (undefined off Linux). */
export function sampleCpuByKind() {
  if (readStat(process.pid) === undefined) return { stop: () => undefined };
  // By pid and start time: a pid the kernel hands to a new process is another process.
  const seen = new Map(); // `pid:start` → { kind, ticks }
  const look = () => {
    const stats = allStats();
    for (const [pid, stat] of stats) {
      if (pid === process.pid || !isBelow(pid, stats)) continue;
      const key = `${pid}:${stat.started}`;
      const known = seen.get(key);
      if (known) known.ticks = stat.ticks;
      else {
        let command = '';
        try {
          command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
        } catch {
          // Gone already.
        }
        const parent = stats.get(stat.parent);
        seen.set(key, { kind: kindOf(command, parent && seen.get(`${stat.parent}:${parent.started}`)?.kind), ticks: stat.ticks });
      }
    }
  };
  return lookingEvery(EVERY_MS, look, () => {
    const byKind = new Map();
    for (const { kind, ticks } of seen.values()) byKind.set(kind, (byKind.get(kind) ?? 0) + ticks / TICKS_PER_SECOND);
    return [...byKind].sort((a, b) => b[1] - a[1]);
  });
}
