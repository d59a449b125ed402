/**
 * The app in the browser, loaded by main.tsx once the page has had its first paint.
 */
import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { PRERENDER_SEED_ID, type PrerenderSeed } from '#shared/prerender.ts';
import { App } from '#web/app.tsx';
import { viewerQuery } from '#web/features/auth/use-viewer.ts';
import { isEarly, VIEWER_PATH } from '#web/lib/early-requests.ts';
import { prefetchWhenIdle } from '#web/lazy-chunks.ts';
import { queryClient } from '#web/lib/query-client.ts';
import { applyTheme, readTheme } from '#web/lib/theme.ts';

// The boot script in <head> already set the page's theme; this gives the browser's bar its colour too.
const theme = readTheme();
if (theme !== 'system') applyTheme(theme);

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

/**
 * A page the server prepared (see src/server/features/prerender) arrives with its HTML and the data it
 * was rendered with: the cache starts with that data so the first render matches and React adopts
 * the HTML (hydration). The app shell (service worker, personal pages) arrives empty and renders here.
 */
function readSeed(): PrerenderSeed | null {
  const text = document.getElementById(PRERENDER_SEED_ID)?.textContent;
  if (!text) return null;
  try {
    return JSON.parse(text) as PrerenderSeed;
  } catch (error) {
    console.warn('page data unreadable; rendering afresh', error);
    return null;
  }
}

const seed = root.firstElementChild ? readSeed() : null;
const app = (
  <StrictMode>
    <BrowserRouter>
      <App queryClient={queryClient} hydrating={seed !== null} />
    </BrowserRouter>
  </StrictMode>
);

/**
 * The longest hydration waits for the entry's early /api/me (lib/early-requests.ts): it has usually
 * answered while this script downloaded. An answer later than this is shown as before, by a render
 * of everything that depends on who is looking.
 */
const VIEWER_WAIT_MS = 300;

/** Who is looking, in the cache before hydration when the entry asked early, so that showing it is part of the hydration gate's transition. */
async function knowTheViewer(): Promise<void> {
  if (!isEarly(VIEWER_PATH)) return;
  // In a task of its own: this module's evaluation is already one of the longest at start.
  await new Promise((resolve) => setTimeout(resolve, 0));
  await Promise.race([queryClient.query(viewerQuery).catch(() => undefined), new Promise((resolve) => setTimeout(resolve, VIEWER_WAIT_MS))]);
}

if (seed) {
  for (const [key, data] of seed.queries) queryClient.setQueryData(key, data);
  // As a transition, hydration yields to the browser every few milliseconds: the prepared HTML is
  // painted and scrolls meanwhile, and taps during hydration are replayed once their part is live.
  void knowTheViewer().then(() => {
    startTransition(() => {
      hydrateRoot(root, app);
    });
  });
} else {
  root.replaceChildren();
  createRoot(root).render(app);
}

prefetchWhenIdle();
