/**
 * The end-to-end journeys run in Debian's Chromium (never a downloaded browser): its headless shell
 * (package chromium-headless-shell, the same source and version as /usr/bin/chromium, built without
 * the desktop browser around the engine), which opens a page for half the CPU of the full browser in
 * headless mode (decision 0052). The full browser stays for Lighthouse and the screenshots. `npm test`
 * calls this first, so a fresh machine sets itself up instead of failing ten minutes in: as root it
 * installs the packages, through `sudo -n` when that needs no password, and otherwise it names the one
 * command to run and fails at once.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** The browser the journeys drive (tests/e2e/support/browser.ts reads the same default). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium-headless-shell';
/** The full browser: Lighthouse (npm run bench:web), the screenshots and the icon scripts. */
const FULL_CHROMIUM_PATH = '/usr/bin/chromium';
// The fonts give pages the same glyph widths on every machine (screenshots, layout checks).
const PACKAGES = ['chromium', 'chromium-headless-shell', 'fonts-dejavu-core'];
const installed = () => existsSync(CHROMIUM_PATH) && (process.env.CHROMIUM_PATH !== undefined || existsSync(FULL_CHROMIUM_PATH));
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

/** Returns true when both are there (installed now or before); prints why not otherwise. */
export function ensureChromium() {
  if (installed()) return true;
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
  if (!runAll(prefix) || !installed()) {
    console.error(`Installing Chromium failed; try: sudo apt-get install -y --no-install-recommends ${PACKAGES.join(' ')}`);
    return false;
  }
  return true;
}
