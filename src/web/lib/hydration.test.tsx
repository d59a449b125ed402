// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useViewer, VIEWER_QUERY_KEY } from '#web/features/auth/use-viewer.ts';
import { HydrationGate } from '#web/lib/hydration.tsx';

function Status() {
  return <p>{useViewer().status}</p>;
}

function renderSignedIn(hydrating: boolean) {
  const client = new QueryClient();
  // /api/me has already answered: a part of a prepared page that hydrates late sees this.
  client.setQueryData(VIEWER_QUERY_KEY, { user: { id: 'u1', email: 'ada@example.com', name: 'Ada' }, role: 'user', subscribed: true });
  const seen: string[] = [];
  function Recorder() {
    const status = useViewer().status;
    seen.push(status);
    return null;
  }
  render(
    <QueryClientProvider client={client}>
      <HydrationGate hydrating={hydrating}>
        <Status />
        <Recorder />
      </HydrationGate>
    </QueryClientProvider>,
  );
  return seen;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('HydrationGate', () => {
  it('shows the viewer as loading while a prepared page is adopted, then the real viewer', async () => {
    const seen = renderSignedIn(true);
    expect(seen[0]).toBe('loading');
    await screen.findByText('signed-in');
  });

  it('shows the real viewer at once when the browser renders alone', () => {
    const seen = renderSignedIn(false);
    expect(seen[0]).toBe('signed-in');
    expect(screen.getByText('signed-in')).toBeTruthy();
  });
});
