/**
 * `npm run test:cluster`: two app processes on one PostgreSQL and one Redis behind Debian's nginx
 * (round-robin), with the main journeys driven through the proxy (tests/cluster/, docs/cluster.md).
 * Not part of `npm test`. Needs PostgreSQL on 127.0.0.1:5432 (trust auth; the run creates its own
 * database and drops it) and Redis on 127.0.0.1:6379 (the run empties database 13 only). Installs
 * nginx when it is missing, without starting the system service: the test runs its own nginx.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { connect } from 'node:net';
import { buildIfStale } from './build-if-stale.mjs';

const NGINX = process.env.NGINX_PATH ?? '/usr/sbin/nginx';
const POLICY = '/usr/sbin/policy-rc.d';

function asRoot(args) {
  const [command, rest] = process.getuid?.() === 0 ? [args[0], args.slice(1)] : ['sudo', args];
  const result = spawnSync(command, rest, { stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`${args.join(' ')} failed (${result.status ?? result.error?.message})`);
}

function installNginx() {
  console.log("Installing Debian's nginx for the cluster test…");
  // Debian starts a service when its package is installed unless policy-rc.d forbids it (Docker
  // images ship one). Add one for the install only when the machine has none.
  const ownPolicy = !existsSync(POLICY);
  if (ownPolicy) asRoot(['sh', '-c', `printf '#!/bin/sh\\nexit 101\\n' > ${POLICY} && chmod 755 ${POLICY}`]);
  try {
    asRoot(['apt-get', 'update', '-q']);
    asRoot(['env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get', 'install', '-y', '-q', '--no-install-recommends', 'nginx']);
  } finally {
    if (ownPolicy) asRoot(['rm', '-f', POLICY]);
  }
}

function reachable(port, host = '127.0.0.1') {
  return new Promise((resolve) => {
    const socket = connect({ port, host, timeout: 1500 });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('timeout', () => (socket.destroy(), resolve(false)));
    socket.once('error', () => resolve(false));
  });
}

const started = Date.now();
if (!existsSync(NGINX)) installNginx();
const missing = [];
if (!process.env.CLUSTER_POSTGRES_URL && !(await reachable(5432))) missing.push('PostgreSQL on 127.0.0.1:5432 (or set CLUSTER_POSTGRES_URL)');
if (!process.env.CLUSTER_REDIS_URL && !(await reachable(6379))) missing.push('Redis on 127.0.0.1:6379 (or set CLUSTER_REDIS_URL)');
if (missing.length) {
  console.error(`The cluster test needs:\n${missing.map((m) => `  - ${m}`).join('\n')}`);
  process.exit(1);
}
buildIfStale();

const result = spawnSync(process.execPath, ['node_modules/vitest/vitest.mjs', 'run', '--config', 'vitest.cluster.config.ts', ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: { ...process.env, NODE_ENV: 'test' },
});
console.log(`\ncluster test: ${result.status === 0 ? 'passed' : 'FAILED'} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
process.exit(result.status ?? 1);
