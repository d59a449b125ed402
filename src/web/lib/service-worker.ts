/**
 * The service worker (vite-plugin-pwa's sw.js: the app shell and its chunks offline), registered
 * once the first page has settled, not in the window's load event as the plugin's registerSW.js
 * did: its script, the load handler and the registration were one more long task on a phone while
 * the page was becoming usable (issue 39). Offline still works from the first visit: the prefetch
 * before this has every chunk a listener needs in memory, and the worker caches the rest.
 */
export function registerServiceWorker(): void {
  if (!('serviceWorker' in navigator)) return;
  navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch((error: unknown) => {
    console.warn('service worker not registered (the app works, but not offline)', error);
  });
}
