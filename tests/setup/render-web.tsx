/**
 * Component tests of the web app: a JSON answer as the server sends it, fetch answered by the
 * test (the edge of the world a component test stands at), and the component rendered with a
 * query cache of its own (no retries: a failure shows at once) and, when asked, a router.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { vi } from 'vitest';

export const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

/** Answers every fetch with `answer(url, init)`; returns the mock, whose calls list the requests. */
export function answerFetch(answer: (url: string, init?: RequestInit) => Response | Promise<Response>) {
  const fetch = vi.fn((url: string, init?: RequestInit) => Promise.resolve(answer(url, init)));
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

/** `router`: true for a router at '/', or the path the router starts at. */
export function renderWithQueries(ui: ReactNode, { router = false, retry = false }: { router?: boolean | string; retry?: boolean } = {}) {
  const client = new QueryClient({ defaultOptions: { queries: { retry } } });
  const routed = router ? <MemoryRouter initialEntries={[typeof router === 'string' ? router : '/']}>{ui}</MemoryRouter> : ui;
  return { ...render(<QueryClientProvider client={client}>{routed}</QueryClientProvider>), client };
}
