/**
 * The end-to-end journeys run in Debian's Chromium (never a downloaded browser). `npm test` calls
 * this first, so a fresh machine sets itself up instead of failing ten minutes in: as root it installs
 * the package, through `sudo -n` when that needs no password, and otherwise it names the one command
 * to run and fails at once.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
// The fonts give pages the same glyph widths on every machine (screenshots, layout checks).
const PACKAGES = ['chromium', 'fonts-dejavu-core'];
const INSTALL = ['env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get', 'install', '-y', '-q', '--no-install-recommends', ...PACKAGES];

function canSudoWithoutPassword() {
  return spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore' }).status === 0;
}

function runAll(prefix) {
  for (const command of [['apt-get', 'update', '-q'], INSTALL]) {
    const [program, ...args] = [...prefix, ...command];
    const result = spawnSync(program, args, { stdio: 'inherit' });
    if (result.status !== 0) return false;
  }
  return true;
}

/** Returns true when Chromium is there (installed now or before); prints why not otherwise. */
export function ensureChromium() {
  if (existsSync(CHROMIUM_PATH)) return true;
  if (process.env.CHROMIUM_PATH) {
    console.error(`CHROMIUM_PATH is set to ${CHROMIUM_PATH}, and nothing is there.`);
    return false;
  }
  const asRoot = process.getuid?.() === 0;
  const prefix = asRoot ? [] : canSudoWithoutPassword() ? ['sudo', '-n'] : null;
  if (!prefix) {
    console.error(`Debian's Chromium is needed for the end-to-end tests and is not installed; run once:\n  sudo apt-get update && sudo apt-get install -y --no-install-recommends ${PACKAGES.join(' ')}\nthen npm test again.`);
    return false;
  }
  console.log(`Installing Debian's Chromium for the end-to-end tests (${PACKAGES.join(', ')})…`);
  if (!runAll(prefix) || !existsSync(CHROMIUM_PATH)) {
    console.error(`Installing Chromium failed; try: sudo apt-get install -y --no-install-recommends ${PACKAGES.join(' ')}`);
    return false;
  }
  return true;
}
