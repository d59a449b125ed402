// @vitest-environment jsdom
/**
 * /subscribe and Account inside the iOS shell (issue 35, item 3), as App Review sees them: WebKit's
 * bridge is present (window.webkit.messageHandlers.bridge, which is how Capacitor and the platform
 * layer know they are in the iOS app), so the store's offer shows, and beside it a visible 'Restore
 * Purchases', the auto-renewal terms and links to the Terms and the Privacy Policy. The store plugin
 * module and the native platform's plugins are stand-ins (jsdom has no native side); the rest is real.
 */
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { MOCK_PRODUCTS } from '#shared/purchases.ts';
import { VIEWER_QUERY_KEY } from '#web/features/auth/use-viewer.ts';
import { answerFetch, json, renderWithQueries } from '#tests/setup/render-web.tsx';

const restore = vi.fn(() => Promise.resolve({ active: true }));
vi.mock('#web/platform/native-store-plugins.ts', () => ({
  loadPurchases: () => Promise.resolve({ products: () => Promise.resolve([...MOCK_PRODUCTS]), purchase: vi.fn(), restore }),
}));
vi.mock('#web/platform/native-platform.ts', () => ({
  createNativePlatform: () => ({ sessionHeaders: () => Promise.resolve({}), noteResponse: () => Promise.resolve(), forgetSession: () => Promise.resolve(), onOpenedLink: () => () => undefined }),
  loadAppPlugin: vi.fn(), loadSecureStorage: vi.fn(), loadFilesystem: vi.fn(), loadConvertFileSrc: vi.fn(), loadMediaSession: vi.fn(), loadLocalNotifications: vi.fn(), loadHealth: vi.fn(), loadHaptics: vi.fn(),
}));

const member = { user: { id: 'u1', email: 'reviewer@example.com', name: 'Reviewer', emailVerified: true, createdAt: '2026-01-01T00:00:00.000Z' }, role: 'user', subscribed: false, providers: ['credential'] };
const noSubscription = { subscribed: false, trialEligible: true, mode: 'sandbox', products: 2, subscription: null };

beforeAll(() => {
  // What WKWebView puts in the page inside the iOS app (Capacitor's getPlatform reads the same).
  Object.assign(window, { webkit: { messageHandlers: { bridge: { postMessage: () => undefined } } } });
});
afterAll(() => {
  delete (window as { webkit?: unknown }).webkit;
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  restore.mockClear();
});

function answer(me: unknown) {
  return answerFetch((url) => (url.includes('/api/me') ? json(me) : url.includes('/api/subscription') ? json(noSubscription) : json({ error: 'not here' }, 404)));
}

describe('/subscribe inside the iOS app (App Review 3.1.1 and 3.1.2)', () => {
  it('shows the store’s plans, a visible Restore Purchases button, the auto-renewal terms and the Terms and Privacy links', async () => {
    answer(member);
    const { SubscribePage } = await import('#web/features/billing/subscribe-page.tsx');
    const { client } = renderWithQueries(<main><SubscribePage /></main>, { router: '/subscribe' });
    const main = screen.getByRole('main');
    await within(main).findByRole('button', { name: /Premium Monthly: £7\.99/ });
    // The store's plans may show before /api/me has answered; the restore below is a signed-in person's.
    await waitFor(() => expect(client.getQueryState(VIEWER_QUERY_KEY)?.status).toBe('success'));
    const restoreButton = within(main).getByRole('button', { name: 'Restore Purchases' });
    expect(restoreButton.hasAttribute('disabled')).toBe(false);
    expect(main.textContent).toContain('Renews automatically at £7.99 a month until cancelled');
    expect(main.textContent).toContain('£39.99 a year');
    expect(main.textContent).toContain('7-day free trial');
    expect(main.textContent).toContain('Settings › your name › Subscriptions');
    expect(within(main).getByRole('link', { name: 'Terms of Service' }).getAttribute('href')).toBe('/terms');
    expect(within(main).getByRole('link', { name: 'Privacy Policy' }).getAttribute('href')).toBe('/privacy');
    // On iOS the spec hides the web's monthly/yearly toggle.
    expect(within(main).queryByRole('radiogroup')).toBeNull();

    fireEvent.click(restoreButton);
    await waitFor(() => expect(restore).toHaveBeenCalledTimes(1));
  });

  it('asks a visitor to sign in before restoring (purchases belong to an account)', async () => {
    answer({ user: null, role: null, subscribed: false });
    const { SubscribePage } = await import('#web/features/billing/subscribe-page.tsx');
    renderWithQueries(<main><SubscribePage /></main>, { router: '/subscribe' });
    fireEvent.click(await screen.findByRole('button', { name: 'Restore Purchases' }));
    expect(restore).not.toHaveBeenCalled();
    // The sign-in dialog is a lazy chunk (the web tests' waits allow for a busy machine: tests/setup/web-file.ts).
    expect(await screen.findByRole('dialog')).toBeTruthy();
  });

  it('Account › Settings offers Restore Purchases inside the app', async () => {
    answer(member);
    const { SubscriptionCard } = await import('#web/features/billing/subscription-card.tsx');
    renderWithQueries(<SubscriptionCard />, { router: true });
    fireEvent.click(await screen.findByRole('button', { name: 'Restore Purchases' }));
    await waitFor(() => expect(restore).toHaveBeenCalledTimes(1));
  });
});
