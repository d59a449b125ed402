/**
 * The apps' cross-origin path, for real (issue 35, item 8). Inside the shells the app is served by
 * the device from its own origin (`capacitor://localhost` on iOS, `https://localhost` on Android) and
 * calls the server named at build time, another origin. native-shell.e2e.ts serves the app from the
 * server's own origin, where none of this happens; here Chromium loads the built app from
 * `https://localhost` (a proxy that answers only that host, with a certificate of its own) and the app
 * calls the test server at http://127.0.0.1:<port> directly, so the browser itself applies CORS: the
 * preflights, the bearer session read from `set-auth-token`, the signed audio asked for with
 * `crossorigin="anonymous"` under `Cross-Origin-Resource-Policy: same-origin`, the purchase synced to
 * /api/iap/validate-receipt, and the apps' Content-Security-Policy, written into index.html as
 * `native:sync` writes it (scripts/native.mjs), allowing exactly that server.
 *
 * Not Playwright's routing: with any route set, Playwright answers every CORS preflight itself with
 * "allow everything", so nothing here is routed. The build is npm test's (no VITE_SERVER_URL, no
 * RevenueCat key); the two values an app build carries are put where Vite put the missing ones (the
 * server the platform layer falls back to, and `import.meta.env` as inlined beside RevenueCat's keys),
 * and the journey fails at once if the build no longer has them there.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import type { Browser } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { appCsp, withCspMeta } from '#scripts/native.mjs';
import { BILLING_MESSAGES } from '#shared/billing.ts';
import { openPage } from '#tests/e2e/support/browser.ts';
import { signedInMember } from '#tests/e2e/support/people.ts';
import { waitForPlaying } from '#tests/e2e/support/player.ts';
import { startSuite, toast } from '#tests/e2e/support/suite.ts';
import { createAppleTestChain, type AppleTestChain } from '#tests/fakes/apple-signing.ts';
import { fakeRevenueCat } from '#tests/fakes/revenuecat.ts';
import type { RunningServer } from '#tests/setup/server-process.ts';

const APP_ORIGIN = 'https://localhost';
const BUNDLE_ID = 'app.harbourmind';
const DIST = 'dist/web';
const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.wasm': 'application/wasm',
  '.mp3': 'audio/mpeg',
  '.m4a': 'audio/mp4',
};

/** A throwaway certificate for `localhost` (the context ignores that no one vouches for it). */
function localhostCertificate(): { key: Buffer; cert: Buffer } {
  const dir = mkdtempSync(join(tmpdir(), 'hm-localhost-'));
  try {
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-days', '1', '-subj', '/CN=localhost', '-addext', 'subjectAltName=DNS:localhost'], { stdio: 'ignore' });
    return { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The built app as an app build for `server` would be: index.html with the apps' CSP, and in the
 * chunks the server address and RevenueCat's iOS key where `VITE_SERVER_URL` and
 * `VITE_REVENUECAT_IOS_KEY` would have put them.
 */
function appBuildFor(server: string, revenueCatKey: string): Map<string, Buffer | string> {
  const files = new Map<string, Buffer | string>();
  const html = readFileSync(join(DIST, 'index.html'), 'utf8');
  files.set('/index.html', withCspMeta(html, appCsp(html, server)));
  // platform.ts: `import.meta.env.VITE_SERVER_URL || window.location.origin`, folded by the minifier to the fallback.
  // The native code's chunk is native-platform-* or the 'native' group itself (vite.config.ts), as the bundler chooses.
  const fallback = /window\.location\.origin(?=,\w+=\w+\(\(\)=>import\(`\.\/native-)/g;
  // store-purchases.ts: `import.meta.env` inlined as an object beside the keys it lacks.
  const env = /\{BASE_URL:`\/`,DEV:!1,MODE:`production`,PROD:!0,SSR:!1\}(?=;return \w+\?\?=\w+\(\{kind:\w+,apiKey:\(\w+===`ios`\?\w+\.VITE_REVENUECAT_IOS_KEY)/g;
  let servers = 0;
  let keys = 0;
  for (const file of readdirSync(join(DIST, 'assets')).filter((name) => name.endsWith('.js'))) {
    const text = readFileSync(join(DIST, 'assets', file), 'utf8');
    const rewritten = text
      .replace(fallback, () => {
        servers += 1;
        return JSON.stringify(server);
      })
      .replace(env, (literal) => {
        keys += 1;
        return literal.replace('{', `{VITE_REVENUECAT_IOS_KEY:${JSON.stringify(revenueCatKey)},`);
      });
    if (rewritten !== text) files.set(`/assets/${file}`, rewritten);
  }
  if (servers !== 1 || keys !== 1) throw new Error(`The build no longer has the server fallback (${servers} found) or RevenueCat's env (${keys} found) where this journey expects them: update appBuildFor`);
  return files;
}

/**
 * `https://localhost`, as the WebView serves the app: a proxy for the browser that answers CONNECT
 * to localhost:443 with TLS and the built app (any other path is the app's index.html, as Capacitor's
 * handler answers), and refuses everything else (the API is never proxied: the browser goes there itself).
 */
async function serveTheAppAtLocalhost(server: string, revenueCatKey: string) {
  const rewritten = appBuildFor(server, revenueCatKey);
  const served: string[] = [];
  const refused: string[] = [];
  const answer = (request: IncomingMessage, response: ServerResponse) => {
    const path = normalize(decodeURIComponent(new URL(request.url ?? '/', APP_ORIGIN).pathname));
    served.push(path);
    const file = rewritten.get(path) ?? (path.startsWith('/assets/') || extname(path) ? read(path) : undefined) ?? rewritten.get('/index.html');
    if (file === undefined) {
      response.writeHead(404).end();
      return;
    }
    const type = file === rewritten.get('/index.html') ? TYPES['.html'] : (TYPES[extname(path)] ?? 'application/octet-stream');
    response.writeHead(200, { 'content-type': type }).end(file);
  };
  const read = (path: string) => {
    try {
      return readFileSync(join(DIST, path));
    } catch {
      return undefined;
    }
  };
  const app = createHttpsServer(localhostCertificate(), answer);
  const proxy: Server = createHttpServer((request, response) => {
    refused.push(`${request.method ?? ''} ${request.url ?? ''}`);
    response.writeHead(403).end();
  });
  proxy.on('connect', (request: IncomingMessage, socket: Socket, head: Buffer) => {
    if (request.url !== 'localhost:443') {
      refused.push(`CONNECT ${request.url ?? ''}`);
      socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
      return;
    }
    socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length) socket.unshift(head);
    app.emit('connection', socket);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return {
    proxy: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    served,
    refused,
    close: () => {
      proxy.closeAllConnections();
      app.closeAllConnections();
      return new Promise<void>((resolve) => proxy.close(() => resolve()));
    },
  };
}

/**
 * The iOS shell as the app's plugins see it: WebKit's bridge, the Keychain behind secure storage,
 * RevenueCat's plugin and the app's StoreKit bridge, whose native halves the test answers
 * (window.device, exposed by the test).
 */
function fakeIosShell() {
  const keychain = new Map<string, string>(JSON.parse(sessionStorage.getItem('fake-keychain') ?? '[]') as [string, string][]);
  const promise = (name: string) => ({ name, rtype: 'promise' });
  const device = (window as unknown as { device: (plugin: string, method: string, options: unknown) => Promise<unknown> }).device;
  Object.assign(window, {
    webkit: { messageHandlers: { bridge: { postMessage: () => undefined } } },
    keychain: () => [...keychain.values()],
    Capacitor: {
      PluginHeaders: [
        { name: 'App', methods: [{ name: 'addListener', rtype: 'callback' }, promise('removeListener'), promise('removeAllListeners')] },
        { name: 'SecureStorage', methods: ['internalGetItem', 'internalSetItem', 'internalRemoveItem', 'internalClearItemsWithPrefix', 'internalGetPrefixedKeys', 'setSynchronizeKeychain'].map(promise) },
        { name: 'Purchases', methods: ['setLogLevel', 'configure', 'logIn', 'getOfferings', 'purchasePackage', 'restorePurchases'].map(promise) },
        { name: 'HarbourStoreKit', methods: ['signedTransaction', 'finishTransaction'].map(promise) },
      ],
      nativeCallback: () => '1',
      nativePromise: (plugin: string, method: string, options: { prefixedKey?: string; data?: string } = {}) => {
        // @capacitor/app's listeners (opened links) are registered and removed; nothing opens a link here.
        if (plugin === 'App') return Promise.resolve();
        if (plugin !== 'SecureStorage') return device(plugin, method, options);
        const key = options.prefixedKey ?? '';
        if (method === 'internalGetItem') return Promise.resolve({ data: keychain.get(key) ?? null });
        if (method === 'internalSetItem') keychain.set(key, options.data ?? '');
        if (method === 'internalRemoveItem') keychain.delete(key);
        sessionStorage.setItem('fake-keychain', JSON.stringify([...keychain]));
        return Promise.resolve({});
      },
    },
  });
}

let server: RunningServer;
let browser: Browser;
let chain: AppleTestChain;
beforeAll(async () => {
  chain = createAppleTestChain();
  const suite = await startSuite({ APPLE_IAP_BUNDLE_ID: BUNDLE_ID, APPLE_IAP_ENVIRONMENT: 'Sandbox', APPLE_ROOT_CA_FILES: chain.rootPath });
  ({ server, browser } = suite);
  return async () => {
    await suite.stop();
    chain.cleanup();
  };
});

describe('the app from its own origin, the API from the server (issue 35, item 8)', () => {
  it('signs in with a bearer session, buys Premium through the store and syncs it, and plays signed audio, all across origins', async () => {
    const maker = await openPage(browser);
    const mia = await signedInMember(server, maker.context, { name: 'Mia Cross', password: 'harbour-origin-1' });
    await maker.context.close();

    const localhost = await serveTheAppAtLocalhost(server.url, 'appl_cross_origin');
    const { page, context, problems } = await openPage(browser, {
      // Only localhost goes through the proxy (`<-loopback>` lifts Chromium's own bypass of loopback); the server at 127.0.0.1 is reached directly.
      proxy: { server: localhost.proxy, bypass: '<-loopback>,127.0.0.1' },
      ignoreHTTPSErrors: true,
    });
    // The store: RevenueCat's native half (tests/fakes/revenuecat.ts), and the StoreKit bridge signing the
    // transaction RevenueCat reported for the account's appAccountToken (RevenueCat's appUserID) with the Apple test chain.
    const store = fakeRevenueCat();
    let appAccountToken = '';
    const finished: string[] = [];
    await context.exposeFunction('device', async (plugin: string, method: string, options: Record<string, unknown>) => {
      if (plugin === 'HarbourStoreKit' && method === 'finishTransaction') return void finished.push(String(options.transactionId));
      if (plugin === 'HarbourStoreKit') {
        const now = Date.now();
        const signedTransaction = chain.signJws({ appAccountToken, transactionId: options.transactionId, originalTransactionId: `2000000${now}`, bundleId: BUNDLE_ID, productId: options.productId, purchaseDate: now, originalPurchaseDate: now, expiresDate: now + 7 * 86_400_000, offerType: 1, quantity: 1, type: 'Auto-Renewable Subscription', inAppOwnershipType: 'PURCHASED', signedDate: now, environment: 'Sandbox', transactionReason: 'PURCHASE', storefront: 'GBR', currency: 'GBP', price: 7990 });
        return { signedTransaction, transactionId: options.transactionId };
      }
      // RevenueCat's appUserID: null while signed out (the offer is listed first), the account's token once buying.
      const appUserID = (options as { appUserID?: string | null }).appUserID;
      if ((method === 'configure' || method === 'logIn') && appUserID) appAccountToken = appUserID;
      const native = (store.plugin as unknown as Partial<Record<string, (o: unknown) => Promise<unknown>>>)[method];
      if (!native) throw new Error(`${plugin}.${method} is not on this device`);
      return (await native(options)) ?? {};
    });
    await context.addInitScript(fakeIosShell);
    // What crossed origins, as Chromium's network layer saw it: each preflight and each answer's CORS consent.
    const cdp = await context.newCDPSession(page);
    const preflights: string[] = [];
    const consents = new Map<string, string | undefined>();
    cdp.on('Network.requestWillBeSent', (event) => {
      if (event.type === 'Preflight' || event.initiator.type === 'preflight') preflights.push(`${event.request.method} ${new URL(event.request.url).pathname}`);
    });
    cdp.on('Network.responseReceived', (event) => {
      if (event.response.url.startsWith(server.url)) consents.set(new URL(event.response.url).pathname, (event.response.headers as Record<string, string | undefined>)['access-control-allow-origin']);
    });
    await cdp.send('Network.enable');

    await page.goto(`${APP_ORIGIN}/sign-in`);
    expect(await page.evaluate(() => [location.origin, document.documentElement.dataset.platform])).toEqual([APP_ORIGIN, 'ios']);
    // The apps' CSP, which allows this server and no other (a violation would be a console error, failing the journey).
    expect(await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content')).toContain(`connect-src 'self' ${server.url};`);
    await page.getByLabel('Email').fill(mia.email);
    await page.getByLabel('Password', { exact: true }).fill('harbour-origin-1');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.waitForURL(`${APP_ORIGIN}/`);
    await page.getByRole('heading', { level: 1, name: 'Today' }).waitFor();
    // The session is the bearer token the server sent in set-auth-token (exposed to this origin), kept in the Keychain; no cookie anywhere.
    expect(await page.evaluate(() => (window as unknown as { keychain: () => string[] }).keychain())).toHaveLength(1);
    expect(await context.cookies()).toEqual([]);
    expect(preflights).toContain('OPTIONS /api/auth/sign-in/email');
    expect(consents.get('/api/auth/sign-in/email')).toBe(APP_ORIGIN);
    expect(consents.get('/api/me')).toBe(APP_ORIGIN);
    // And the browser holds the server to its word: a header the consent does not list is refused at the preflight.
    const refusedByCors = await page.evaluate(async (url) => fetch(`${url}/api/health`, { headers: { 'x-not-listed': '1' } }).then(() => 'answered', (error: unknown) => (error instanceof TypeError ? 'refused' : String(error))), server.url);
    expect(refusedByCors).toBe('refused');

    // Premium bought through the store: RevenueCat configured for the account, the signed transaction
    // synced to the server across origins, then finished.
    await page.goto(`${APP_ORIGIN}/subscribe`);
    await page.getByRole('button', { name: /Harbour Mind Plus \(Monthly\): £7\.99/ }).click();
    await toast(page, BILLING_MESSAGES.welcomeTitle);
    expect(appAccountToken).not.toBe('');
    expect(store.methods()).toEqual(expect.arrayContaining(['configure', 'getOfferings', 'purchasePackage']));
    expect(finished).toEqual(['2000000123456789']);
    expect(preflights).toContain('OPTIONS /api/iap/validate-receipt');
    expect(consents.get('/api/iap/validate-receipt')).toBe(APP_ORIGIN);

    // Signed audio from the server, asked for with CORS, plays (the server signs the address only for an
    // account with Premium: this is also the server's word that the synced purchase granted it).
    await page.goto(`${APP_ORIGIN}/meditations/mindfulness`);
    await page.getByTestId('meditation-card').filter({ hasText: 'A Single Breath' }).getByRole('button', { name: 'A Single Breath', exact: true }).click();
    await waitForPlaying(page, 0.3);
    const audio = page.getByTestId('player-audio');
    expect(await audio.getAttribute('crossorigin')).toBe('anonymous');
    const source = (await audio.evaluate((element: HTMLAudioElement) => element.currentSrc)) || '';
    expect(source.startsWith(`${server.url}/media/`)).toBe(true);
    expect(consents.get(new URL(source).pathname)).toBe(APP_ORIGIN);

    // The app came from localhost alone; nothing else went through the proxy.
    expect(localhost.served).toContain('/sign-in');
    expect(localhost.refused).toEqual([]);
    // The only complaints: Chromium's about the refused request above.
    expect(problems).toEqual([expect.stringMatching(/blocked by CORS policy: Request header field x-not-listed is not allowed/), 'console: Failed to load resource: net::ERR_FAILED']);
    await context.close();
    await localhost.close();
  });
});
