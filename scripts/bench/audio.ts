/**
 * The audio part of `npm run bench`: signed Range requests for a 5 MB file through the app's media
 * route, next to Debian's nginx serving the same bytes with sendfile (installed here when missing
 * and this runs as root), same run, same connection count.
 */
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { createMediaSigner } from '#server/features/media/media-signing.ts';
import { freePort } from '#tests/setup/server-process.ts';

const FILE_BYTES = 5 * 1024 * 1024;
/**
 * A 64 KiB slice from the middle, as a player reads after a seek. Larger slices measure the load
 * generator's own reading speed (autocannon parses every body), not the servers.
 */
const RANGE = 'bytes=2097152-2162687';

function nginxBinary(): string | undefined {
  const found = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((path) => existsSync(path));
  if (found || process.getuid?.() !== 0) return found;
  spawnSync('apt-get', ['install', '-y', '-q', '--no-install-recommends', 'nginx-light'], { stdio: 'ignore', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  return ['/usr/sbin/nginx', '/usr/bin/nginx'].find((path) => existsSync(path));
}

async function startNginx(binary: string, root: string): Promise<{ url: string; stop: () => Promise<void> }> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'hm-bench-nginx-'));
  writeFileSync(
    join(dir, 'nginx.conf'),
    `${process.getuid?.() === 0 ? 'user root;\n' : ''}daemon off;
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log;
events { worker_connections 4096; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 1000000;
  types { audio/mpeg mp3; }
  server { listen 127.0.0.1:${port}; root ${root}; }
}
`,
  );
  const child = spawn(binary, ['-c', join(dir, 'nginx.conf'), '-p', dir], { stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 50 && !(await fetch(url).then(() => true, () => false)); i++) await new Promise((r) => setTimeout(r, 100));
  return {
    url,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => {
          rmSync(dir, { recursive: true, force: true });
          resolve();
        });
        child.kill('SIGQUIT');
      }),
  };
}

async function measure(url: string, connections: number, seconds: number) {
  const headers = { range: RANGE };
  await autocannon({ url, headers, connections: 4, duration: 1 });
  const result = await autocannon({ url, headers, connections, duration: seconds });
  return { rps: result.requests.average, mbps: result.throughput.average / 1024 / 1024, p99: result.latency.p99, errors: result.errors + result.non2xx };
}

/** `dataDir` and `authSecret` are the running app's; the file goes into its media folder. */
export async function benchAudio({ appUrl, dataDir, authSecret, connections, seconds }: { appUrl: string; dataDir: string; authSecret: string; connections: number; seconds: number }): Promise<void> {
  const key = 'bench-5mb.mp3';
  const bytes = randomBytes(FILE_BYTES);
  // Where the local media storage keeps the 'meditations' bucket (features/media/media-storage.ts).
  writeFileSync(join(dataDir, 'media', 'meditations', key), bytes);
  const signed = createMediaSigner(`media:${authSecret}`).sign(key, 3600);
  const binary = nginxBinary();
  console.log(`\nAudio: Range ${RANGE} of a 5 MB file, ${connections} connections, ${seconds} s each`);
  console.log('what'.padEnd(50), 'req/s'.padStart(10), 'MB/s'.padStart(8), 'p99 ms'.padStart(7), 'ratio'.padStart(6), 'errors'.padStart(7));
  const app = await measure(`${appUrl}${signed.url}`, connections, seconds);
  if (!binary) {
    console.log('app (signed URL)'.padEnd(50), app.rps.toFixed(0).padStart(10), app.mbps.toFixed(0).padStart(8), String(app.p99).padStart(7), '-'.padStart(6), String(app.errors).padStart(7));
    console.log('nginx: not measured (not installed, and not root to install it)');
    return;
  }
  const root = mkdtempSync(join(tmpdir(), 'hm-bench-audio-'));
  chmodSync(root, 0o755);
  writeFileSync(join(root, key), bytes);
  const nginx = await startNginx(binary, root);
  try {
    const theirs = await measure(`${nginx.url}/${key}`, connections, seconds);
    console.log('app, signed URL (GET /media/meditations/:key)'.padEnd(50), app.rps.toFixed(0).padStart(10), app.mbps.toFixed(0).padStart(8), String(app.p99).padStart(7), (app.rps / theirs.rps).toFixed(2).padStart(6), String(app.errors).padStart(7));
    console.log('nginx, sendfile (same bytes)'.padEnd(50), theirs.rps.toFixed(0).padStart(10), theirs.mbps.toFixed(0).padStart(8), String(theirs.p99).padStart(7), '1.00'.padStart(6), String(theirs.errors).padStart(7));
  } finally {
    await nginx.stop();
    rmSync(root, { recursive: true, force: true });
  }
}
