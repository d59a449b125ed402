import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { VitePWA } from 'vite-plugin-pwa';
import { PAGE_ROUTE_PATTERNS } from './src/shared/routes.ts';
import { bundleReport } from './scripts/build/bundle-report.ts';
import { precompress } from './scripts/build/precompress.ts';

/**
 * The service worker answers navigations to the app's own pages from the cached shell (so the app
 * opens offline); anything else, unknown paths included, goes to the server (real 404s, logged).
 * Workbox tests pathname + search, so each page pattern also accepts a query string.
 */
const pageNavigations = PAGE_ROUTE_PATTERNS.map((pattern) => new RegExp(pattern.source.replace(/\$$/, '\\/?(?:\\?.*)?$')));

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
      // An external registerSW.js (the CSP forbids inline scripts), deferred so it never holds up the first paint.
      injectRegister: 'script-defer',
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
        globPatterns: ['**/*.{js,css,html,svg,png,webmanifest}'],
        navigateFallback: '/index.html',
        navigateFallbackAllowlist: pageNavigations,
        navigateFallbackDenylist: [/^\/api\//, /^\/media\//],
        // Audio never goes into the service worker's cache: offline copies are encrypted in IndexedDB.
        runtimeCaching: [],
        cleanupOutdatedCaches: true,
        clientsClaim: true,
        skipWaiting: true,
      },
    }),
    bundleReport(),
    precompress(),
  ],
  build: isSsrBuild ? { outDir: '../../dist/ssr', emptyOutDir: true, sourcemap: false } : {
    outDir: '../../dist/web',
    emptyOutDir: true,
    // The catalogue's artwork stays in files (styles.css says why); other small assets are inlined as usual.
    assetsInlineLimit: (file: string) => (file.includes('/catalogue/artwork/') ? false : undefined),
    // Keep the app free of inline scripts so the CSP can forbid them.
    modulePreload: { polyfill: false },
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
            { name: 'boot', test: /src[\\/]web[\\/](?:boot\.tsx|lazy-chunks\.ts)$/ },
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
