import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { VitePWA } from 'vite-plugin-pwa';
import { PAGE_ROUTE_PATTERNS } from './src/shared/routes.ts';
import { THEME_BOOT_SCRIPT } from './src/shared/theme.ts';
import { bundleReport } from './scripts/build/bundle-report.ts';
import { compileHints } from './scripts/build/compile-hints.ts';
import { precompress } from './scripts/build/precompress.ts';

/**
 * The service worker answers navigations to the app's own pages from the cached shell (so the app
 * opens offline); anything else, unknown paths included, goes to the server (real 404s, logged).
 * Workbox tests pathname + search, so each page pattern also accepts a query string.
 */
const pageNavigations = PAGE_ROUTE_PATTERNS.map((pattern) => new RegExp(pattern.source.replace(/\$$/, '\\/?(?:\\?.*)?$')));

/** The face every page's headings use (src/web/fonts.css, decision 0028): the one file worth preloading. */
const HEADING_FONT = fileURLToPath(import.meta.resolve('@fontsource/fraunces/files/fraunces-latin-600-normal.woff2'));

/**
 * Preloads the headings' typeface from index.html by its hashed name, so the browser fetches it with
 * the page rather than once styles have matched a heading, and the swap from its metric-compatible
 * stand-in comes early (decision 0028). Prepared pages keep the link: they replace only the
 * stylesheet's (prepared-pages.ts). Fails the build when fonts.css no longer uses that file.
 */
function preloadFonts(): Plugin {
  let root = '';
  return {
    name: 'harbour-mind:preload-fonts',
    apply: 'build',
    configResolved(config) {
      root = config.root;
    },
    transformIndexHtml: {
      order: 'post',
      handler(_html, { bundle }) {
        const font = Object.values(bundle ?? {}).find(
          (file) => file.type === 'asset' && file.originalFileNames.some((name) => resolve(root, name) === HEADING_FONT),
        );
        if (!font) throw new Error(`preloadFonts: the build does not use ${HEADING_FONT} (src/web/fonts.css)`);
        return [{ tag: 'link', attrs: { rel: 'preload', as: 'font', type: 'font/woff2', crossorigin: true, href: `/${font.fileName}` }, injectTo: 'head' }];
      },
    },
  };
}

/**
 * The theme chosen on this device, applied before the first paint: the one inline script, in
 * <head>, allowed by its hash in the CSP (the server hashes the same text: security-headers.ts).
 */
function themeBootScript(): Plugin {
  return {
    name: 'harbour-mind:theme-boot',
    transformIndexHtml: () => [{ tag: 'script', children: THEME_BOOT_SCRIPT, injectTo: 'head' }],
  };
}

/**
 * Which of a lazy chunk's imports are fetched ahead with `<link rel=modulepreload>` (Vite's default:
 * all of them, for every dynamic import). Inserting one link each into <head> was most of several
 * 50-200 ms tasks while a phone-speed page settled (issue 39; decision 0058), so they are kept only
 * where a person waits on a round trip: the app's chunk (main.tsx), a page reached by navigation,
 * the sign-in dialog. Elsewhere the browser finds a chunk's imports as it reads it: the player's
 * parts, the toasts and the dialogs the idle prefetch loads, and the landing page's chunk, whose
 * few small imports arrive long before the app's 117 KB that it waits for. CSS is not in `deps`.
 */
function preloadWhereSomeoneWaits(file: string, deps: string[], { hostId }: { hostId: string }): string[] {
  if (/(?:^|\/)index-[\w-]+\.js$|\.html$/.test(hostId)) return /\/boot-[\w-]+\.js$/.test(file) ? deps : [];
  return /-page-[\w-]+\.js$/.test(file) || /\/auth-dialog-[\w-]+\.js$/.test(file) ? deps : [];
}

/** The web app lives in src/web; the server serves dist/web in production. */
export default defineConfig(({ isSsrBuild }) => ({
  root: 'src/web',
  publicDir: isSsrBuild ? false : 'public',
  // The server's page renderer (entry-server.tsx) needs only the app's code: no service worker,
  // no CSS, no compressed copies.
  plugins: isSsrBuild ? [react()] : [
    react(),
    tailwindcss(),
    VitePWA({
      registerType: 'autoUpdate',
      // Registered by the app once the first page has settled (src/web/lib/service-worker.ts), not in the load event.
      injectRegister: false,
      includeAssets: ['favicon.svg', 'icons/apple-touch-icon-180.png'],
      manifest: {
        name: 'Harbour Mind',
        short_name: 'Harbour Mind',
        description: 'Guided meditations, a private journal and gentle routines for sleep, mornings, hard chapters and living with chronic illness.',
        lang: 'en-GB',
        start_url: '/',
        scope: '/',
        display: 'standalone',
        background_color: '#fafaf9',
        theme_color: '#0f766e',
        icons: [
          { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png' },
          { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png' },
          { src: '/icons/maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        ],
      },
      workbox: {
        // woff2: offline pages keep the headings' typeface (decision 0028).
        // The timer's bells too (issue 20, item 1): a sitting offline must still begin and end with them;
        // and guided breathing's cues (issue 37, item 1; ~36 KB), so an exercise offline keeps its sounds.
        globPatterns: ['**/*.{js,css,html,svg,png,webmanifest,woff2}', 'sounds/bells/*.mp3', 'sounds/breathing/*.mp3'],
        // The native shells' code (Capacitor and its plugins, the store's purchases) is never used on the web; the apps carry it themselves.
        globIgnores: ['**/native-*.js', '**/store-purchases-*.js', '**/store-offer-*.js'],
        navigateFallback: '/index.html',
        navigateFallbackAllowlist: pageNavigations,
        navigateFallbackDenylist: [/^\/api\//, /^\/media\//],
        // Meditation audio never goes into the service worker's cache: offline copies are encrypted in
        // IndexedDB. The free ambient beds do, once played (the timer's, and the player's background sound,
        // which fetches a bed as soon as it is chosen), so a sitting or a track offline keeps its bed.
        // The cache keeps its first name so devices that hold a bed keep it; room for every bed (4, ~240 KB each).
        runtimeCaching: [{ urlPattern: ({ url, sameOrigin }) => sameOrigin && url.pathname.startsWith('/sounds/beds/'), handler: 'CacheFirst', options: { cacheName: 'timer-beds', expiration: { maxEntries: 8 } } }],
        // Daily reminders (issue 20, item 4): the push and notification-click handlers.
        importScripts: ['/reminder-sw.js'],
        cleanupOutdatedCaches: true,
        clientsClaim: true,
        skipWaiting: true,
      },
    }),
    preloadFonts(),
    themeBootScript(),
    bundleReport(),
    compileHints({ chunks: ['boot'] }),
    precompress(),
  ],
  build: isSsrBuild ? { outDir: '../../dist/ssr', emptyOutDir: true, sourcemap: false } : {
    outDir: '../../dist/web',
    emptyOutDir: true,
    // The catalogue's artwork stays in files (styles.css says why); other small assets are inlined as usual.
    assetsInlineLimit: (file: string) => (file.includes('/catalogue/artwork/') ? false : undefined),
    // Keep the app free of inline scripts so the CSP can forbid them.
    modulePreload: { polyfill: false, resolveDependencies: preloadWhereSomeoneWaits },
    // Which chunks each page needs, for `npm run bench:bundle` (first-load bytes per route).
    manifest: true,
    // The app as one chunk, loaded after the first paint (decision 0021): React, the router, TanStack
    // Query, the layout, the player and the small shared modules every page needs. Rolldown puts a
    // group's static imports into the group (`includeDependenciesRecursively`), so naming boot.tsx
    // is enough. One chunk rather than a handful: fewer requests before a page is live, and one
    // compression context (measured: ~2–4 KB gzip less on every first load than framework + app-core +
    // boot). The lazy chunks' loaders (lazy-chunks.ts) stay in it. Without that, rolldown split them
    // into a chunk of their own once a lazy page imported them too. The preload helper stays out of
    // it, in the entry's own chunk (with main.tsx), so the entry imports nothing before the first
    // paint: no module preload at all (decision 0021).
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            { name: 'index', test: /preload-helper|src[\\/]web[\\/]main\.tsx$/ },
            // next-path (sign-in links with `next`) is every page's too: it came into boot through the auth client that
            // signing out used; now that signing out loads on the click (sign-out-here.tsx), it is named here, or rolldown
            // files it with the catalogue's cards and /subscribe fetches those for it (+4 KB gzip, measured).
            // The route table's helpers, call() and the catalogue's routes too: home's "Try a free one" and the listings
            // both call the catalogue, and filed with the listing's cards they drew that whole chunk into home's first load
            // (+5 KB gzip, measured: / 122 872 bytes).
            { name: 'boot', test: /src[\\/](?:web[\\/](?:boot\.tsx|lazy-chunks\.ts|lib[\\/]call\.ts)|shared[\\/](?:next-path\.ts|contracts[\\/](?:route|catalogue\.routes)\.ts))$/ },
            // Modules of a few hundred bytes that the catalogue's chunks share (its icons, the spinner,
            // the Played marks) cost more as six files of their own (each under the 1 KB compression
            // threshold, so sent raw, each a request) than as one compressed file (measured: the
            // /meditations first load 120.7 → 119.7 KB gzip). The same for the heart button and
            // react-query's mutations, and the player's time format the cards' 'Continue from' uses.
            { name: 'catalogue-shared', test: /lucide-react[\\/]dist[\\/]esm[\\/]icons[\\/](?:loader-circle|play|rotate-cw|lock|clock)\.mjs$|src[\\/]web[\\/](?:components[\\/]ui[\\/]spinner\.tsx|features[\\/]practice[\\/]use-played\.ts|features[\\/]player[\\/]format-time\.ts|lib[\\/]use-when-known\.ts)$|@tanstack[\\/](?:react-query[\\/]build[\\/]modern[\\/]useMutation|query-core[\\/]build[\\/]modern[\\/]mutationObserver)\.js$/ },
            // The catalogue's cards, the hook that lists them and the catalogue's words: the listing pages'
            // first load needs all three (one compressed file rather than two, for the 120 KB budget). With
            // them what home's Today shares with the listing (issue 38): the order and offline rules, and the
            // ids downloaded (each a chunk of its own otherwise, sent raw under the compression threshold).
            { name: 'catalogue-cards', test: /src[\\/](?:web[\\/]features[\\/](?:catalogue[\\/](?:meditation-card\.tsx|use-meditations\.ts|listing-order\.ts)|downloads[\\/]use-downloaded-ids\.ts)|shared[\\/]catalogue-messages\.ts)$/ },
            // The heart button and the favourites it reads: wherever one is needed the other is too.
            { name: 'favourites', test: /src[\\/]web[\\/]features[\\/]favourites[\\/](?:favourite-button\.tsx|use-favourites\.ts)$/ },
            // The native shells' code and Capacitor's plugins: one chunk, loaded only inside the apps (src/web/platform).
            // Their own dependencies stay where the rest of the app has them (the reminders' words and the
            // affirmations are the web's too: pulled in here, every page would fetch this chunk for them).
            { name: 'native', test: /node_modules[\\/](?:@capacitor|@capgo[\\/]capacitor-(?:health|media-session)|@revenuecat)[\\/]|src[\\/]web[\\/]platform[\\/]native-/, includeDependenciesRecursively: false },
            // The apps' sign-in plugins, loaded when a person signs in on the device, never on the web, and kept
            // out of the web's precache (named native-*). Their dependencies stay where they were (Capacitor's
            // core in 'native'; tslib, which the journal shares, in its own chunk).
            { name: 'native-sign-in', test: /node_modules[\\/](?:@capacitor-community[\\/]apple-sign-in|@capgo[\\/]capacitor-social-login)[\\/]/, includeDependenciesRecursively: false },
          ],
        },
      },
    },
    sourcemap: false,
  },
  server: {
    proxy: { '/api': 'http://127.0.0.1:3000', '/media': 'http://127.0.0.1:3000' },
  },
}));
