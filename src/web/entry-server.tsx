/**
 * The server's renderer for prepared pages (src/server/features/prerender): the app at one URL, as a
 * visitor who is not signed in sees it on first paint, with the given query data, after every lazy
 * page has loaded. Built by `vite build --ssr` into dist/ssr; the browser adopts the HTML (main.tsx).
 */
import { QueryClient } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { prerenderToNodeStream } from 'react-dom/static';
import { StaticRouter } from 'react-router';
import type { PrerenderSeed } from '#shared/prerender.ts';
import { App } from '#web/app.tsx';

export async function renderPage(url: string, seed: PrerenderSeed): Promise<string> {
  // The first pass starts loading the lazy pages it meets; they would be streamed in with inline
  // scripts, which the CSP forbids. The second pass finds them loaded and renders in one piece.
  await renderOnce(url, seed);
  return renderOnce(url, seed);
}

async function renderOnce(url: string, seed: PrerenderSeed): Promise<string> {
  // A cache of its own per render: nothing of one page (or person) reaches another.
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  for (const [key, data] of seed.queries) queryClient.setQueryData(key, data);
  const { prelude } = await prerenderToNodeStream(
    <StrictMode>
      <StaticRouter location={url}>
        <App queryClient={queryClient} hydrating />
      </StaticRouter>
    </StrictMode>,
    // Never split a large part out to be streamed in later (React does above ~12 KB): that takes an
    // inline script too.
    { progressiveChunkSize: Number.POSITIVE_INFINITY, onError: (error) => console.error('page render failed', error) },
  );
  let html = '';
  for await (const chunk of prelude) html += String(chunk);
  queryClient.clear();
  return html;
}
