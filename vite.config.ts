import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { VitePWA } from 'vite-plugin-pwa';
import { PAGE_ROUTE_PATTERNS } from './src/shared/routes.ts';
import { precompress } from './scripts/build/precompress.ts';

/**
 * The service worker answers navigations to the app's own pages from the cached shell (so the app
 * opens offline); anything else, unknown paths included, goes to the server (real 404s, logged).
 * Workbox tests pathname + search, so each page pattern also accepts a query string.
 */
const pageNavigations = PAGE_ROUTE_PATTERNS.map((pattern) => new RegExp(pattern.source.replace(/\$$/, '\\/?(?:\\?.*)?$')));

/** The web app lives in src/web; the server serves dist/web in production. */
export default defineConfig({
  root: 'src/web',
  publicDir: 'public',
  plugins: [
    react(),
    tailwindcss(),
    VitePWA({
      registerType: 'autoUpdate',
      // An external registerSW.js: the CSP forbids inline scripts.
      injectRegister: 'script',
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
    precompress(),
  ],
  build: {
    outDir: '../../dist/web',
    emptyOutDir: true,
    // Keep the app free of inline scripts so the CSP can forbid them.
    modulePreload: { polyfill: false },
    // Which chunks each page needs, for `npm run bench:bundle` (first-load bytes per route).
    manifest: true,
    sourcemap: false,
  },
  server: {
    proxy: { '/api': 'http://127.0.0.1:3000', '/media': 'http://127.0.0.1:3000' },
  },
});
