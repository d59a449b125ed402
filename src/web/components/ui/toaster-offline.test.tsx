// @vitest-environment jsdom
/**
 * The toast region when sonner cannot load (offline before the idle prefetch reached it): the page
 * stays as it is, and the region comes once the browser is back online. With React.lazy the
 * failed import was thrown to the error boundary and took the whole page with it.
 */
import { act, cleanup, render, waitFor } from '@testing-library/react';
import { Component, type ReactNode } from 'react';
import { afterEach, expect, it, vi } from 'vitest';

const sonner = vi.hoisted(() => ({ fail: true }));
vi.mock('#web/lib/toast.ts', async () => {
  const actual = await vi.importActual<typeof import('#web/lib/toast.ts')>('#web/lib/toast.ts');
  return {
    ...actual,
    loadSonner: () => (sonner.fail ? Promise.reject(new TypeError('Failed to fetch dynamically imported module')) : import('sonner')),
    toasterStore: { subscribe: () => () => undefined, isWanted: () => true },
  };
});
const { Toaster } = await import('#web/components/ui/toaster.tsx');

class Boundary extends Component<{ children: ReactNode }, { error: boolean }> {
  state = { error: false };
  static getDerivedStateFromError() {
    return { error: true };
  }
  render() {
    return this.state.error ? <p>The page broke</p> : this.props.children;
  }
}

afterEach(cleanup);
// sonner follows the system theme; jsdom has no media queries.
vi.stubGlobal('matchMedia', () => ({ matches: false, addEventListener: () => undefined, removeEventListener: () => undefined, addListener: () => undefined, removeListener: () => undefined }));

it('leaves the page whole when sonner fails to load, and mounts the toasts once back online', async () => {
  const { container } = render(
    <Boundary>
      <h1>The page</h1>
      <Toaster />
    </Boundary>,
  );
  await act(() => new Promise((resolve) => setTimeout(resolve, 20)));
  expect(container.textContent).toBe('The page');
  expect(container.querySelector('section[aria-label^="Notifications"]')).toBeNull();

  sonner.fail = false;
  act(() => {
    window.dispatchEvent(new Event('online'));
  });
  // Until sonner's import has resolved and the region rendered (50 ms was not always enough on a loaded machine).
  await waitFor(() => expect(document.querySelector('section[aria-label^="Notifications"]')).not.toBeNull());
  expect(container.textContent).toContain('The page');
});
