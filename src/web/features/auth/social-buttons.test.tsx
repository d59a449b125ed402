// @vitest-environment jsdom
/** Apple and Google sign-in: shown only when configured; a configured provider that fails says so in the spec's words. */
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { Toaster } from 'sonner';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { authApi } from '#shared/contracts/auth.routes.ts';
import { queryKeyOf } from '#shared/contracts/route.ts';
import { SocialButtons } from '#web/features/auth/social-buttons.tsx';
import { answerFetch, json, renderWithQueries } from '#tests/setup/render-web.tsx';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderButtons(providers: { google: boolean; apple: boolean }, social: () => Response | Promise<Response>) {
  const fetch = answerFetch((url) => (url.includes('/api/auth-providers') ? json(providers) : social()));
  const { client } = renderWithQueries(
    <>
      <div data-testid="social-buttons">
        <SocialButtons variant="dialog" next="/subscribe?start=yearly" />
      </div>
      <Toaster />
    </>,
  );
  return { fetch, client };
}

describe('social sign-in buttons', () => {
  it('shows nothing, not even the divider, when no provider is configured', async () => {
    const { client } = renderButtons({ google: false, apple: false }, () => json({}));
    // Once the server's answer is in, the buttons' place stays empty (before it, it is empty too).
    await vi.waitFor(() => expect(client.getQueryState(queryKeyOf(authApi.providers))?.status).toBe('success'), { timeout: 10_000 });
    const place = screen.getByTestId('social-buttons');
    expect(within(place).queryAllByRole('button')).toHaveLength(0);
    expect(place.textContent).toBe('');
  });

  it('shows only the configured provider and carries the intent into the OAuth return', async () => {
    const { fetch } = renderButtons({ google: true, apple: false }, () => json({ message: 'Provider refused' }, 400));
    fireEvent.click(await screen.findByRole('button', { name: 'Continue with Google' }));
    expect(screen.queryByRole('button', { name: 'Continue with Apple' })).toBeNull();
    expect(await screen.findByText('Google Sign In failed')).toBeTruthy();
    const [, init] = fetch.mock.calls.find(([url]) => url.includes('/sign-in/social'))!;
    expect(JSON.parse(init?.body as string)).toMatchObject({ provider: 'google', callbackURL: '/subscribe?start=yearly' });
  });

  it("says 'currently not available' when a configured provider cannot be reached", async () => {
    renderButtons({ google: true, apple: true }, () => json({ message: 'upstream down' }, 503));
    fireEvent.click(await screen.findByRole('button', { name: 'Continue with Google' }));
    expect(await screen.findByText('Google Sign In is currently not available. Please use email/password or Apple Sign In.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Continue with Apple' }));
    expect(await screen.findByText('Apple Sign In not available on this device')).toBeTruthy();
  });
});
