/**
 * `npm run bench:soundscape`: what a background sound costs (issue 37, item 3). The real production
 * server and player in Debian's headless Chromium play a 20-minute voice-like track (made here with
 * sox: pink noise shaped into syllables and pauses, so the ducking has speech and silence to follow)
 * two ways, in the same run:
 *   - "plain": the player as it was, the voice on its <audio> element and no AudioContext;
 *   - "mixed": Rain chosen, so the voice runs through a MediaElementAudioSourceNode and the bed loops
 *     beneath it on the same graph, with the ducking reading the voice's level 20 times a second.
 * Rounds alternate (plain, mixed, plain, mixed …) in fresh browser contexts, each round at a later
 * point of the 20 minutes, so load from elsewhere on the machine falls on both alike. Each window
 * measures the CPU time of every Chromium process (from /proc: the page, the audio service, the GPU
 * and browser processes) and the page's main-thread task time (Chrome DevTools Protocol). Headless
 * Chromium has no sound card: its audio output is a fake device that pulls the graph on a timer, as
 * a real one would. Prints figures, asserts nothing.
 *   BENCH_SOUNDSCAPE_ROUNDS (3 per way), BENCH_SOUNDSCAPE_SECONDS (30 per window).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { buildIfStale } from '../build-if-stale.mjs';
import { startServer } from '#tests/setup/server-process.ts';
import { signedInSubscriber } from '#tests/e2e/support/people.ts';

const ROUNDS = Number(process.env.BENCH_SOUNDSCAPE_ROUNDS ?? 3);
const WINDOW_SECONDS = Number(process.env.BENCH_SOUNDSCAPE_SECONDS ?? 30);
const TRACK_SECONDS = 20 * 60;
const CHROME_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium-headless-shell';
/** Clock ticks per second of /proc's CPU times (USER_HZ: 100 on Linux). */
const TICKS = 100;

type Way = 'plain' | 'mixed';
type Sample = { way: Way; at: number; cpu: Cpu; mainThreadSeconds: number; wallSeconds: number };

function run(command: string, args: string[]) {
  const result = spawnSync(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  if (result.status !== 0) throw new Error(`${command} failed: ${result.stderr.toString()}. Needs: apt-get install -y sox libsox-fmt-mp3 ffmpeg`);
}

/** The 20-minute track: speech-like bursts (syllables at ~4 Hz inside ~6 s phrases with pauses), as a 56 kbps MP3 like the demo's. */
function makeTrack(dir: string): string {
  const wav = join(dir, 'voice.wav');
  const mp3 = join(dir, 'voice.mp3');
  run('sox', ['-V1', '-n', '-r', '44100', '-c', '1', wav, 'synth', String(TRACK_SECONDS), 'pinknoise', 'highpass', '150', 'lowpass', '3400', 'tremolo', '4', '80', 'tremolo', '0.16', '100', 'norm', '-1']);
  run('ffmpeg', ['-nostdin', '-y', '-loglevel', 'error', '-i', wav, '-ac', '1', '-c:a', 'libmp3lame', '-b:a', '56k', mp3]);
  return mp3;
}

const KINDS = ['renderer', 'audio', 'gpu', 'other'] as const;
type Kind = (typeof KINDS)[number];
type Cpu = Record<Kind, number>;

/**
 * Which Chromium process this is, from its command line: the page's renderer (where the graph is
 * rendered, on its audio thread), the audio service (which pulls the output, here a fake device),
 * the GPU process (compositing in software: --disable-gpu), or another (the browser, the network).
 */
function kindOf(pid: number): Kind {
  let command = '';
  try {
    command = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return 'other';
  }
  if (command.includes('--type=renderer')) return 'renderer';
  if (command.includes('audio.mojom.AudioService')) return 'audio';
  if (command.includes('--type=gpu-process')) return 'gpu';
  return 'other';
}

/** utime + stime of the browser process and all its descendants, in seconds, by kind of process. */
function treeCpuSeconds(rootPid: number): Cpu {
  const stats = new Map<number, { ppid: number; ticks: number }>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const text = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // The command name may hold spaces: the fields start after its closing parenthesis.
      const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
      stats.set(Number(entry), { ppid: Number(fields[1]), ticks: Number(fields[11]) + Number(fields[12]) });
    } catch {
      // The process ended while the list was read: it is not part of the window any more.
    }
  }
  const inTree = (pid: number): boolean => {
    for (let at = pid, hops = 0; at > 1 && hops < 32; hops += 1) {
      if (at === rootPid) return true;
      at = stats.get(at)?.ppid ?? 0;
    }
    return false;
  };
  const cpu: Cpu = { renderer: 0, audio: 0, gpu: 0, other: 0 };
  for (const [pid, stat] of stats) if (inTree(pid)) cpu[kindOf(pid)] += stat.ticks / TICKS;
  return cpu;
}

const total = (cpu: Cpu) => KINDS.reduce((sum, kind) => sum + cpu[kind], 0);

async function mainThreadSeconds(page: Page): Promise<() => Promise<number>> {
  const session = await page.context().newCDPSession(page);
  await session.send('Performance.enable');
  const read = async () => {
    const { metrics } = await session.send('Performance.getMetrics');
    return metrics.find((metric) => metric.name === 'TaskDuration')?.value ?? 0;
  };
  const start = await read();
  return async () => (await read()) - start;
}

async function measure(browser: Browser, rootPid: number, server: { url: string; dataDir: string }, track: string, way: Way, round: number): Promise<Sample> {
  const context = await browser.newContext({ serviceWorkers: 'block' });
  await signedInSubscriber(server, context, { name: `Bench ${way === "plain" ? "Plain" : "Mixed"} ${"abcdefghij"[round]}`, password: 'quiet-harbour-bench' });
  const page = await context.newPage();
  // The player asks for its link as always; the answer points at the 20-minute track, served from here.
  await page.route('**/api/meditations/*/playback', (route) =>
    route.fulfill({ json: { url: '/bench/voice.mp3', expiresAt: new Date(Date.now() + 3_600_000).toISOString(), mimeType: 'audio/mpeg', transcript: null } }),
  );
  await page.route('**/bench/voice.mp3', (route) => route.fulfill({ path: track, contentType: 'audio/mpeg' }));
  await page.goto(`${server.url}/meditations/sleeping`);
  // On a loaded machine a tap before the page knows the subscriber may be taken for a visitor's.
  await page.waitForLoadState('networkidle');
  // The card's title button plays it once the page knows the subscriber (as listening.e2e.ts starts a track).
  const card = page.getByTestId('meditation-card').filter({ hasText: 'The Slow Tide' });
  await card.getByRole('button', { name: 'The Slow Tide', exact: true }).click();
  const sheet = page.getByRole('dialog', { name: 'The Slow Tide' });
  await sheet.waitFor({ timeout: 60_000 });
  await page
    .waitForFunction(() => {
      const audio = document.querySelector<HTMLAudioElement>('[data-testid="player-audio"]');
      return Boolean(audio && !audio.paused && audio.currentTime > 0.2 && audio.duration > 600);
    }, undefined, { timeout: 120_000 })
    .catch(async (error: unknown) => {
      const state = await page.evaluate(() => {
        const audio = document.querySelector<HTMLAudioElement>('[data-testid="player-audio"]');
        return audio ? { src: audio.currentSrc, paused: audio.paused, time: audio.currentTime, duration: audio.duration, error: audio.error?.message ?? null } : null;
      });
      await page.screenshot({ path: join(tmpdir(), `soundscape-bench-${way}.png`) });
      throw new Error(`${way}: the track did not play: ${JSON.stringify(state)} (screenshot in ${tmpdir()})`, { cause: error });
    });
  // Each round at a later point of the track, so the windows cover the 20 minutes.
  const at = Math.round(((round + 0.5) / ROUNDS) * (TRACK_SECONDS - WINDOW_SECONDS - 10));
  await page.evaluate((seconds) => {
    const audio = document.querySelector<HTMLAudioElement>('[data-testid="player-audio"]');
    if (audio) audio.currentTime = seconds;
  }, at);
  if (way === 'mixed') {
    await sheet.getByRole('radio', { name: 'Rain' }).check();
    await page.locator('section[data-bed-state="playing"]').waitFor({ timeout: 30_000 });
  }
  // Settle (the bed's decode, the seek's buffering), then the window.
  await page.waitForTimeout(3_000);
  const mainThread = await mainThreadSeconds(page);
  const cpuBefore = treeCpuSeconds(rootPid);
  const wallBefore = performance.now();
  await page.waitForTimeout(WINDOW_SECONDS * 1000);
  const cpuAfter = treeCpuSeconds(rootPid);
  const cpu = Object.fromEntries(KINDS.map((kind) => [kind, cpuAfter[kind] - cpuBefore[kind]])) as Cpu;
  const wallSeconds = (performance.now() - wallBefore) / 1000;
  const mainThreadSecondsUsed = await mainThread();
  const stillPlaying = await page.evaluate(() => document.querySelector<HTMLAudioElement>('[data-testid="player-audio"]')?.paused === false);
  if (!stillPlaying) throw new Error(`${way} round ${round}: the track stopped during the window`);
  await context.close();
  return { way, at, cpu, mainThreadSeconds: mainThreadSecondsUsed, wallSeconds };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
const percent = (seconds: number, wall: number) => `${((seconds / wall) * 100).toFixed(1)}%`;

buildIfStale();
const dir = mkdtempSync(join(tmpdir(), 'hm-soundscape-bench-'));
const server = await startServer();
const browserServer = await chromium.launchServer({ executablePath: CHROME_PATH, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'] });
try {
  console.log(`Making a ${TRACK_SECONDS / 60}-minute track with sox…`);
  const track = makeTrack(dir);
  const browser = await chromium.connect(browserServer.wsEndpoint());
  const rootPid = browserServer.process().pid;
  if (rootPid === undefined) throw new Error('Chromium did not start');
  const samples: Sample[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    for (const way of ['plain', 'mixed'] as const) {
      const sample = await measure(browser, rootPid, server, track, way, round);
      samples.push(sample);
      console.log(`${way.padEnd(5)} round ${round + 1}, from ${Math.floor(sample.at / 60)}:${String(sample.at % 60).padStart(2, '0')}: Chromium CPU ${percent(total(sample.cpu), sample.wallSeconds)} of one core (${KINDS.map((kind) => `${kind} ${percent(sample.cpu[kind], sample.wallSeconds)}`).join(', ')}), page main thread ${percent(sample.mainThreadSeconds, sample.wallSeconds)}`);
    }
  }
  await browser.close();
  console.log(`\nMedian of ${ROUNDS} windows of ${WINDOW_SECONDS} s per way (CPU time / wall time; 100% = one core):`);
  console.log(`way    | all Chromium | ${KINDS.join(' | ')} | page main thread`);
  for (const way of ['plain', 'mixed'] as const) {
    const mine = samples.filter((sample) => sample.way === way);
    const cell = (value: (sample: Sample) => number) => `${(median(mine.map((sample) => value(sample) / sample.wallSeconds)) * 100).toFixed(1)}%`;
    console.log(`${way.padEnd(6)} | ${[cell((sample) => total(sample.cpu)), ...KINDS.map((kind) => cell((sample) => sample.cpu[kind])), cell((sample) => sample.mainThreadSeconds)].join(' | ')}`);
  }
} finally {
  await browserServer.close();
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}
