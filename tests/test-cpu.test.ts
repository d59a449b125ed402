/**
 * npm test's CPU by kind of process (scripts/test-cpu.mjs): what a run reports it spent, beside the
 * kernel's lower count, is what issue 32's work is steered by.
 */
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isBelow, kindOf, sampleCpuByKind, sampleCpuElsewhere } from '#scripts/test-cpu.mjs';

/** The CPU a process has used, in clock ticks (a hundredth of a second), from its /proc entry. */
function usedTicks(pid: number | undefined): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return Number(fields[11]) + Number(fields[12]);
}

describe('kindOf', () => {
  it('names Chromium by process type, the checks, and the servers tests start', () => {
    expect(kindOf('/usr/lib/chromium/chromium-headless-shell --type=renderer --enable-blink')).toBe('Chromium renderer');
    expect(kindOf('/usr/bin/chromium-headless-shell --headless --no-sandbox')).toBe('Chromium browser');
    expect(kindOf('/usr/bin/node node_modules/eslint/bin/eslint.js . --max-warnings=0')).toBe('ESLint');
    expect(kindOf('/usr/bin/node --liftoff-only --import file:///w/tests/setup/exit-with-parent.mjs /w/.tmp/server.mjs')).toBe('servers the tests start');
    expect(kindOf('/usr/bin/node --liftoff-only /w/.tmp/cli-4242.mjs grant-role a@example.com admin')).toBe('CLI the tests start');
    expect(kindOf('/usr/bin/node --liftoff-only --import tsx src/server/cli.ts backup')).toBe('CLI the tests start');
    expect(kindOf('/usr/bin/node /w/node_modules/some-client/index.js')).toBe('other Node');
  });

  it('counts a vitest worker with the run that forked it', () => {
    const journeys = kindOf('/usr/bin/node --liftoff-only node_modules/vitest/vitest.mjs run --config vitest.e2e.config.ts');
    expect(journeys).toBe('journeys (vitest)');
    expect(kindOf('/usr/bin/node --liftoff-only /w/node_modules/vitest/dist/workers/forks.js', journeys)).toBe('journeys (vitest)');
    expect(kindOf('/usr/bin/node --liftoff-only /w/node_modules/vitest/dist/workers/forks.js', 'unit half (vitest)')).toBe('unit half (vitest)');
  });
});

describe('sampleCpuByKind', () => {
  it.skipIf(process.platform !== 'linux')('counts the CPU a child process burns', async () => {
    const sampler = sampleCpuByKind();
    const child = spawn(process.execPath, ['-e', 'for (;;) {}']);
    try {
      // Until the child has used a second of CPU (its own /proc entry says so), then stop while it is alive.
      await expect.poll(() => usedTicks(child.pid), { timeout: 30_000, interval: 100 }).toBeGreaterThanOrEqual(100);
      const kinds = new Map(sampler.stop());
      expect(kinds.get('other Node')).toBeGreaterThanOrEqual(1);
    } finally {
      child.kill('SIGKILL');
    }
  });
});

describe('sampleCpuElsewhere (what bench:web says was running beside it)', () => {
  it('tells a descendant from a process elsewhere', () => {
    const stats = new Map([
      [10, { parent: 1 }],
      [11, { parent: 10 }],
      [12, { parent: 11 }],
      [20, { parent: 1 }],
    ]);
    expect(isBelow(12, stats, 10)).toBe(true);
    expect(isBelow(10, stats, 10)).toBe(true);
    expect(isBelow(20, stats, 10)).toBe(false);
  });

  it.skipIf(process.platform !== 'linux')('counts the CPU of a process that is not below this one', async () => {
    const sampler = sampleCpuElsewhere(100);
    // Started through a shell that exits at once: the spinner is handed to init, as another session's work would be.
    const pid = Number(execFileSync('sh', ['-c', `"${process.execPath}" -e 'for (;;) {}' > /dev/null 2>&1 & echo $!`], { encoding: 'utf8' }).trim());
    try {
      await expect.poll(() => usedTicks(pid), { timeout: 30_000, interval: 100 }).toBeGreaterThanOrEqual(100);
      // The first look may have come a moment after the spinner began: most of its second is counted.
      expect(sampler.stop()).toBeGreaterThanOrEqual(0.8);
    } finally {
      process.kill(pid, 'SIGKILL');
    }
  });
});
