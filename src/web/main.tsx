/**
 * The entry: the stylesheet, then the app once the browser has painted the page. A prepared page
 * (src/server/features/prerender) is complete HTML, so nothing it shows waits for JavaScript; starting
 * the app's downloads after the first frame keeps them off the path to that first paint (on a slow
 * phone they would share the connection with it). The app's chunks then load together, in parallel.
 */
import '#web/styles.css';
import { startEarly, VIEWER_PATH } from '#web/lib/early-requests.ts';
import { detectPlatformKind } from '#web/platform/detect.ts';

/** The page stays readable (it is real HTML) but would not answer taps: say so rather than look broken. */
function showLoadFailure(): void {
  const notice = document.createElement('p');
  notice.setAttribute('role', 'alert');
  notice.className = 'fixed inset-x-0 top-0 z-50 bg-amber-100 px-4 py-3 text-center text-sm font-medium text-amber-950';
  notice.textContent = 'Harbour Mind could not finish loading. Check your connection, then reload the page.';
  document.body.prepend(notice);
}

/**
 * The chunk of the page on screen, fetched together with the app rather than one round trip after
 * it (when the app renders the route). routes.tsx imports the same modules, so each loads once. The
 * pages people land on most: home, the catalogue, subscribe.
 */
function startPageChunk(path: string): void {
  const chunk =
    path === '/'
      ? import('#web/features/home/home-page.tsx')
      : path === '/meditations' || path.startsWith('/meditations/')
        ? import('#web/features/catalogue/meditations-page.tsx')
        : path === '/subscribe'
          ? import('#web/features/billing/subscribe-page.tsx')
          : undefined;
  // A failure shows when the route renders (its lazy import tries again).
  chunk?.catch(() => {});
}

requestAnimationFrame(() => {
  setTimeout(() => {
    // Marks when the app starts taking over the prepared page (tests measure what moves after it).
    performance.mark('hm:app-start');
    startPageChunk(location.pathname);
    // Who is looking, asked beside the app's download (the apps ask with their own session, later).
    if (detectPlatformKind() === 'web') startEarly(VIEWER_PATH);
    import('#web/boot.tsx').catch((error: unknown) => {
      console.error('the app could not load', error);
      showLoadFailure();
    });
  }, 0);
});
