/**
 * The app inside the native shells' WebViews (issue 19): with the iOS WebView's bridge present
 * (`window.webkit.messageHandlers.bridge`, as WKWebView defines it for Capacitor) or Android's
 * (`window.androidBridge`), the app starts, knows where it is, loads the native code (Capacitor and
 * its plugins, one chunk) without waiting on a bridge that never answers, and stays usable; on iOS a
 * tapped e-mail link (@capacitor/app's `appUrlOpen`) opens its page. The web never fetches that chunk.
 */
import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { openPage } from '#tests/e2e/support/browser.ts';
import { deviceFiles, fakeDevicePlugins, healthStore, localNotifications, lockScreen, pressLockScreen, pressNotificationAction, serveDeviceFiles, signedInOnDevice } from '#tests/e2e/support/native-device.ts';
import { REMINDER, REMINDER_MESSAGES, reminderMessage, WEEKDAYS } from '#shared/reminders.ts';
import { SAVED_FILE_MESSAGES } from '#shared/saved-files.ts';
import { JOURNAL_BIOMETRIC_MESSAGES, JOURNAL_LOCK_MESSAGES } from '#shared/journal-keys.ts';
import { answerBiometricPrompt, biometricKeychain, biometricPrompts, biometricSecretInWebStorage, fakeBiometricPrompt } from '#tests/fakes/biometric-prompt.ts';
import { chooseInShareSheet, fakeShareSheet, shareSheet } from '#tests/fakes/share-sheet.ts';
import { weekdayIndex } from '#shared/days.ts';
import { setUpJournal } from '#tests/e2e/support/journal.ts';
import { audio, waitForPlaying } from '#tests/e2e/support/player.ts';
import { recordRequests } from '#tests/e2e/support/requests.ts';
import { signInOnScreen } from '#tests/e2e/support/subscriber.ts';
import { makePerson, signedInSubscriber, signedInMember, type Person } from '#tests/e2e/support/people.ts';
import { startSuite, toast } from '#tests/e2e/support/suite.ts';
import { appleClaims, googleClaims, startFakeIdTokenKeys, type FakeIdTokenKeys } from '#tests/fakes/fake-id-token-keys.ts';
import { createAppleKeyFile, startFakeAppleId, TEST_KEY_ID, TEST_TEAM_ID, type FakeAppleId } from '#tests/fakes/apple-id-server.ts';
import { appleClientSecret, loadAppleSigningKey } from '#server/features/auth/apple-tokens.ts';
import type { RunningServer } from '#tests/setup/server-process.ts';

let server: RunningServer;
let browser: Browser;
let keys: FakeIdTokenKeys;
let appleId: FakeAppleId;
const APPLE_SERVICES_ID = 'app.harbourmind.web';
const GOOGLE_WEB_CLIENT = 'web-client.apps.googleusercontent.com';
const GOOGLE_IOS_CLIENT = 'ios-client.apps.googleusercontent.com';
beforeAll(async () => {
  // Apple and Google sign-in configured; the server process fetches their keys, and Apple's token endpoint
  // (the redirect flow Android's Apple sign-in goes through), from local fakes (the preload).
  keys = await startFakeIdTokenKeys();
  const appleKey = createAppleKeyFile();
  appleId = await startFakeAppleId({ publicKey: appleKey.publicKey, signIdToken: (claims) => keys.sign(claims) });
  const suite = await startSuite(
    {
      APPLE_CLIENT_ID: APPLE_SERVICES_ID,
      // The Services ID's client secret, made with the Sign in with Apple key as an operator makes it.
      APPLE_CLIENT_SECRET: appleClientSecret(loadAppleSigningKey({ keyId: TEST_KEY_ID, teamId: TEST_TEAM_ID, privateKeyFile: appleKey.path }), APPLE_SERVICES_ID),
      FAKE_APPLE_ID_URL: appleId.url,
      GOOGLE_CLIENT_ID: GOOGLE_WEB_CLIENT,
      GOOGLE_CLIENT_SECRET: 'google-secret',
      GOOGLE_IOS_CLIENT_ID: GOOGLE_IOS_CLIENT,
      FAKE_ID_TOKEN_KEYS_URL: keys.url,
    },
    { preload: [new URL('../fakes/fake-id-token-keys-preload.ts', import.meta.url).href] },
  );
  ({ server, browser } = suite);
  return async () => {
    await suite.stop();
    await appleId.close();
    await keys.close();
  };
});

/**
 * The shells' bridges, as far as the app's plugins see them: the WebView's message handler, and the
 * plugin headers Capacitor's native side announces (here only @capacitor/app's listener methods).
 * Listeners are kept so a test can fire `appUrlOpen` as the OS does when a link opens the app.
 */
function fakeShell(kind: 'ios' | 'android') {
  const listeners: { options: { eventName?: string }; callback: (data: unknown) => void }[] = [];
  // Links opened before the app listens: @capacitor/app keeps them for the first listener (its native
  // side notifies `appUrlOpen` with retainUntilConsumed), as a page still starting up needs.
  const retainedLinks: { url: string }[] = [];
  // The Keychain / Keystore behind @aparajita/capacitor-secure-storage's native methods; it outlives a reload, as the device's does.
  const secureStore = new Map(Object.entries(JSON.parse(sessionStorage.getItem('fake-keychain') ?? '{}') as Record<string, string>));
  const keep = () => sessionStorage.setItem('fake-keychain', JSON.stringify(Object.fromEntries(secureStore)));
  const bridge = { postMessage: () => undefined };
  const promise = (name: string) => ({ name, rtype: 'promise' });
  Object.assign(window, kind === 'ios' ? { webkit: { messageHandlers: { bridge } } } : { androidBridge: bridge }, {
    keychain: () => [...secureStore.values()],
    Capacitor: {
      PluginHeaders: [
        { name: 'App', methods: [{ name: 'addListener', rtype: 'callback' }, promise('removeListener'), promise('removeAllListeners')] },
        { name: 'SecureStorage', methods: ['internalGetItem', 'internalSetItem', 'internalRemoveItem', 'internalClearItemsWithPrefix', 'internalGetPrefixedKeys', 'setSynchronizeKeychain'].map(promise) },
        // @capacitor-community/apple-sign-in's native side: the test answers (window.appleAuthorize, exposed by the test).
        { name: 'SignInWithApple', methods: [promise('authorize')] },
        // @capgo/capacitor-social-login's (Google on Android and iOS): the test answers login (window.googleLogin).
        { name: 'SocialLogin', methods: ['initialize', 'login', 'logout', 'isLoggedIn'].map(promise) },
        // @capacitor/browser's (the system browser, for Apple on Android): the test takes the address it opens (window.browserOpen).
        { name: 'Browser', methods: [promise('open'), promise('close')] },
      ],
      nativeCallback: (_plugin: string, _method: string, options: { eventName?: string }, callback: (data: unknown) => void) => {
        listeners.push({ options, callback });
        if (options.eventName === 'appUrlOpen') for (const link of retainedLinks.splice(0)) setTimeout(() => callback(link));
        return String(listeners.length);
      },
      nativePromise: (plugin: string, method: string, options: { prefixedKey?: string; data?: string } = {}) => {
        const answers = window as unknown as { appleAuthorize: (o: unknown) => Promise<unknown>; googleLogin: (o: unknown) => Promise<unknown>; googleSetUp: (o: unknown) => Promise<unknown>; browserOpen: (o: unknown) => Promise<unknown> };
        if (plugin === 'SignInWithApple') return answers.appleAuthorize(options);
        if (plugin === 'Browser') return method === 'open' ? answers.browserOpen(options) : Promise.resolve();
        if (plugin === 'SocialLogin') return method === 'login' ? answers.googleLogin(options) : method === 'initialize' ? answers.googleSetUp(options) : Promise.resolve({});
        if (plugin !== 'SecureStorage') return Promise.resolve();
        const key = options.prefixedKey ?? '';
        if (method === 'internalGetItem') return Promise.resolve({ data: secureStore.get(key) ?? null });
        if (method === 'internalSetItem') {
          secureStore.set(key, options.data ?? '');
          keep();
        }
        if (method === 'internalRemoveItem') {
          const success = secureStore.delete(key);
          keep();
          return Promise.resolve({ success });
        }
        return Promise.resolve({});
      },
    },
    openLink: (url: string) => {
      const taking = listeners.filter((l) => l.options.eventName === 'appUrlOpen');
      if (taking.length === 0) retainedLinks.push({ url });
      for (const listener of taking) listener.callback({ url });
    },
  });
}

/**
 * Someone already signed in on a phone (the session in its Keychain / Keystore), in the shell with the
 * device's plugins faked; the account made beforehand (a subscriber through the sandbox checkout).
 */
async function onDevice(kind: 'ios' | 'android', who: Parameters<typeof makePerson>[1], { subscriber = false } = {}) {
  let person: Person;
  if (subscriber) {
    const maker = await openPage(browser);
    person = await signedInSubscriber(server, maker.context, who);
    await maker.context.close();
  } else person = await makePerson(server, who);
  const opened = await openPage(browser);
  await signedInOnDevice(opened.context, server, person);
  await opened.context.addInitScript(fakeShell, kind);
  await opened.context.addInitScript(fakeDevicePlugins);
  return { ...opened, person };
}

async function usable(page: Page) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Journal' }).first().click();
  await page.waitForURL(`${server.url}/journal`);
  await page.getByRole('heading', { name: 'Therapeutic Journal' }).waitFor();
}

describe('inside the native shells', () => {
  for (const kind of ['ios', 'android'] as const) {
    it(`starts on ${kind}, loads the native code without waiting on the bridge, and stays usable`, async () => {
      const { page, context, problems } = await openPage(browser);
      const requests = recordRequests(context);
      await context.addInitScript(fakeShell, kind);
      await page.goto(`${server.url}/`);
      expect(await page.evaluate(() => document.documentElement.dataset.platform)).toBe(kind);
      await expect.poll(() => requests.some((url) => /\/assets\/native-[\w-]+\.js$/.test(url))).toBe(true);
      await usable(page);
      // A reset link tapped in an e-mail opens its page in the app; a link the app does not claim changes nothing.
      await page.evaluate(() => {
        (window as unknown as { openLink: (url: string) => void }).openLink('https://harbourmind.app/account');
      });
      expect(new URL(page.url()).pathname).toBe('/journal');
      await page.evaluate(() => (window as unknown as { openLink: (url: string) => void }).openLink('https://harbourmind.app/reset-password?token=from-mail'));
      await page.waitForURL(`${server.url}/reset-password?token=from-mail`);
      expect(problems).toEqual([]);
      await context.close();
    });
  }

  it('signs in inside the app with a bearer session kept in secure storage, never a cookie, and forgets it at sign-out', async () => {
    // The account is made elsewhere (its own browser), so the app's browser starts with no cookie at all.
    const ina = await makePerson(server, { name: 'Ina Pike', password: 'harbour-app-2' });

    const { page, context, problems } = await openPage(browser);
    const shell: 'ios' | 'android' = 'ios';
    await context.addInitScript(fakeShell, shell);
    await signInOnScreen(page, server, ina.email, 'harbour-app-2');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Account' }).waitFor();
    expect((await context.cookies()).filter((cookie) => cookie.name.includes('session'))).toEqual([]);
    const keychain = () => page.evaluate(() => (window as unknown as { keychain: () => string[] }).keychain());
    const kept = await keychain();
    expect(kept).toHaveLength(1);
    // The kept token is the session: a reload is still signed in, by the bearer header alone.
    await page.reload();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Account' }).waitFor();
    // Home's own reads first: one still on its way when the session ends comes back 401, which the
    // browser logs as an error (a busy machine once left two in flight).
    await page.waitForLoadState('networkidle');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Sign Out' }).click();
    await page.waitForURL(`${server.url}/sign-in`);
    expect(await keychain()).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('/subscribe on iOS: no monthly/yearly toggle, no ‘Already have an account?’ card, and the store’s offer answers without hanging', async () => {
    const { page, context, problems } = await openPage(browser);
    await context.addInitScript(fakeShell, 'ios' as const);
    await page.goto(`${server.url}/subscribe`);
    await page.getByRole('heading', { name: 'Unlock Your Full Potential' }).waitFor();
    // The store's offer settles: this build carries no RevenueCat key, so it says so (spec: 'RevenueCat not initialized').
    await page.getByRole('alert').filter({ hasText: 'RevenueCat not initialized' }).waitFor();
    expect(await page.getByRole('radiogroup', { name: 'Billing period' }).count()).toBe(0);
    expect(await page.getByRole('heading', { name: 'Already have an account?' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Start 7-day free trial' }).count()).toBe(0);
    await page.getByRole('heading', { name: 'Questions' }).waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });

  it('the diagnostics overlay’s ‘Force Restore Purchases’ restores through the store inside the app, not through the web’s server restore', async () => {
    const rhea = await makePerson(server, { name: 'Rhea Moss', password: 'harbour-app-3' });

    const { page, context, problems } = await openPage(browser);
    const requests = recordRequests(context);
    await context.addInitScript(fakeShell, 'ios' as const);
    await signInOnScreen(page, server, rhea.email, 'harbour-app-3');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Account' }).waitFor();
    await page.goto(`${server.url}/about`);
    const label = page.getByTestId('version-label');
    for (let i = 0; i < 5; i++) await label.click();
    const dialog = page.getByRole('dialog', { name: 'Diagnostics' });
    await dialog.getByRole('button', { name: 'Force Restore Purchases' }).click();
    // The store's restore ran (this build has no RevenueCat key, so it fails with the spec's words).
    await dialog.getByRole('alert').getByText('Failed to restore purchases').waitFor();
    expect(requests.filter((url) => url.includes('/api/billing/restore'))).toEqual([]);
    expect(requests.some((url) => /\/assets\/store-purchases-[\w-]+\.js$/.test(url))).toBe(true);
    // The failure is logged for the debug log; nothing else went wrong.
    expect(problems.filter((problem) => !problem.includes('restore failed'))).toEqual([]);
    await context.close();
  });

  it('/subscribe on the web is as before: the toggle, the trial button and the sign-in card, and no store code fetched', async () => {
    const { page, context, problems } = await openPage(browser);
    const requests = recordRequests(context);
    await page.goto(`${server.url}/subscribe`);
    await page.getByRole('heading', { name: 'Already have an account?' }).waitFor();
    await page.getByRole('radiogroup', { name: 'Billing period' }).getByRole('radio', { name: 'Monthly' }).click();
    expect(await page.getByTestId('price').textContent()).toBe('£7.99 / month');
    await page.getByRole('button', { name: 'Start 7-day free trial' }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(requests.filter((url) => /\/assets\/(?:native|store-offer|store-purchases)-/.test(url))).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('signs in with Apple on iOS: the device’s sheet, a token the server verifies, the session kept in the Keychain', async () => {
    const { page, context, problems } = await openPage(browser);
    const asked: { scopes?: string; nonce?: string }[] = [];
    // Sign in with Apple's sheet: the first time the person closes it (iOS's error 1001), then signs in;
    // Apple's token carries the nonce it was given and is signed by the key the fake publishes as Apple's.
    await context.exposeFunction('appleAuthorize', (options: { scopes?: string; nonce?: string }) => {
      asked.push(options);
      if (asked.length === 1) throw new Error('The operation couldn’t be completed. (com.apple.AuthenticationServices.AuthorizationError error 1001.)');
      const email = 'noor.apple@example.com';
      const identityToken = keys.sign(appleClaims({ nonce: options.nonce, email, sub: '001999.noor' }));
      return { response: { user: '001999.noor', email, givenName: 'Noor', familyName: 'Haddad', identityToken, authorizationCode: 'code-1' } };
    });
    const shell: 'ios' | 'android' = 'ios';
    await context.addInitScript(fakeShell, shell);
    await page.goto(`${server.url}/sign-in`);
    const apple = page.getByRole('button', { name: 'Sign in with Apple' });
    await apple.waitFor();
    // Google is offered beside it, on the device too (issue 35, item 4: the server names its iOS client id).
    await page.getByRole('button', { name: 'Sign in with Google' }).waitFor();
    await apple.click();
    await toast(page, 'Apple Sign In failed');
    await page.getByText('Apple Sign In was cancelled').waitFor();
    await apple.click();
    await page.waitForURL(`${server.url}/`);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Account' }).waitFor();
    expect(asked.map((o) => o.scopes)).toEqual(['email name', 'email name']);
    expect(asked[1].nonce).toMatch(/^[0-9a-f]{64}$/);
    expect(asked[1].nonce).not.toBe(asked[0].nonce);
    // The session is the Keychain's bearer token, never a cookie; a reload is signed in by it alone.
    expect((await context.cookies()).filter((cookie) => cookie.name.includes('session'))).toEqual([]);
    const kept = await page.evaluate(() => (window as unknown as { keychain: () => string[] }).keychain());
    expect(kept).toHaveLength(1);
    // Kept as the plugin stores it (JSON); the token itself is nowhere in localStorage.
    const token = String(JSON.parse(kept[0]));
    expect(token.length).toBeGreaterThan(20);
    expect(await page.evaluate(() => JSON.stringify(localStorage))).not.toContain(token);
    await page.reload();
    await page.goto(`${server.url}/account`);
    await page.getByText('noor.apple@example.com').first().waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });

  it('signs in with Google on Android through the device’s sign-in, for the server’s web client id, the session kept in the Keystore', async () => {
    const { page, context, problems } = await openPage(browser);
    const setUp: unknown[] = [];
    const asked: { provider?: string; options?: { nonce?: string } }[] = [];
    await context.exposeFunction('googleSetUp', (options: unknown) => void setUp.push(options));
    // Credential Manager's answer: a token for the web client id, with the nonce as given, signed by the key the fake publishes as Google's.
    await context.exposeFunction('googleLogin', (options: { provider?: string; options?: { nonce?: string } }) => {
      asked.push(options);
      const email = 'gwen.android@example.com';
      const idToken = keys.sign(googleClaims(GOOGLE_WEB_CLIENT, { nonce: options.options?.nonce, email, name: 'Gwen Android', sub: '2002' }));
      return { provider: 'google', result: { responseType: 'online', accessToken: null, idToken, profile: { email, familyName: 'Android', givenName: 'Gwen', id: '2002', name: 'Gwen Android', imageUrl: null } } };
    });
    const shell: 'ios' | 'android' = 'android';
    await context.addInitScript(fakeShell, shell);
    await page.goto(`${server.url}/sign-in`);
    await page.getByRole('button', { name: 'Sign in with Google' }).waitFor();
    await page.getByRole('button', { name: 'Sign in with Google' }).click();
    await page.waitForURL(`${server.url}/`);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Account' }).waitFor();
    expect(setUp).toEqual([{ google: { webClientId: GOOGLE_WEB_CLIENT } }]);
    expect(asked).toMatchObject([{ provider: 'google', options: { nonce: expect.stringMatching(/^[0-9a-f]{64}$/) as unknown } }]);
    expect((await context.cookies()).filter((cookie) => cookie.name.includes('session'))).toEqual([]);
    expect(await page.evaluate(() => (window as unknown as { keychain: () => string[] }).keychain())).toHaveLength(1);
    await page.goto(`${server.url}/account`);
    await page.getByText('gwen.android@example.com').first().waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });

  it('signs in with Apple on Android through the system browser: Apple’s page there, back to the app by App Link, the session in the Keystore and none left in the browser', async () => {
    const email = 'ines.android@example.com';
    const { page, context, problems } = await openPage(browser);
    const opened: string[] = [];
    await context.exposeFunction('browserOpen', (options: { url: string }) => void opened.push(options.url));
    const shell: 'ios' | 'android' = 'android';
    await context.addInitScript(fakeShell, shell);
    await page.goto(`${server.url}/sign-in`);
    await page.getByRole('button', { name: 'Sign in with Apple' }).click();
    await expect.poll(() => opened.length).toBe(1);
    const start = new URL(opened[0]);
    expect(start.origin + start.pathname).toBe(`${server.url}/api/native/apple/start`);
    expect(start.searchParams.get('challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);

    // The system browser (a Custom Tab: cookies of its own). Apple's page answers as Apple does with
    // response_mode=form_post: a form posted back to better-auth's callback, with the code Apple's token endpoint (the fake) takes.
    const systemBrowser = await browser.newContext();
    await systemBrowser.route('https://appleid.apple.com/auth/authorize**', async (route) => {
      const asked = new URL(route.request().url());
      expect(asked.searchParams.get('client_id')).toBe(APPLE_SERVICES_ID);
      const code = appleId.issueCode({ clientId: APPLE_SERVICES_ID, sub: '001777.ines', email, nonce: asked.searchParams.get('nonce') ?? undefined });
      const fields = { code, state: asked.searchParams.get('state') ?? '', user: JSON.stringify({ name: { firstName: 'Ines', lastName: 'Android' }, email }) };
      const inputs = Object.entries(fields).map(([name, value]) => `<input type="hidden" name="${name}" value="${value.replace(/&/g, '&amp;').replace(/"/g, '&quot;')}">`).join('');
      await route.fulfill({ contentType: 'text/html', body: `<form method="post" action="${asked.searchParams.get('redirect_uri') ?? ''}">${inputs}</form><script>document.forms[0].submit()</script>` });
    });
    const tab = await systemBrowser.newPage();
    // The start's answer is a redirect to Apple, which Playwright's routing does not see: followed by hand
    // (the context's request shares its cookies, better-auth's state among them), then Apple's page opened.
    const started = await systemBrowser.request.get(opened[0], { maxRedirects: 0 });
    expect(started.status()).toBe(302);
    await tab.goto(started.headers().location);
    await tab.waitForURL((url) => url.pathname === '/apple-sign-in');
    const returnLink = new URL(tab.url());
    expect(returnLink.searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Opened in a browser without the app, the link's page says where to finish.
    await tab.getByText('Finish signing in with Apple in the Harbour Mind app.').waitFor();
    expect((await systemBrowser.cookies()).filter((cookie) => cookie.name.includes('session_token'))).toEqual([]);
    await systemBrowser.close();

    // Android opens the app for the verified App Link (https in production; the test server is http).
    await page.evaluate((url) => (window as unknown as { openLink: (u: string) => void }).openLink(url), returnLink.href.replace(/^http:/, 'https:'));
    await toast(page, 'Welcome back!');
    await page.waitForURL(`${server.url}/`);
    expect((await context.cookies()).filter((cookie) => cookie.name.includes('session'))).toEqual([]);
    expect(await page.evaluate(() => (window as unknown as { keychain: () => string[] }).keychain())).toHaveLength(1);
    await page.goto(`${server.url}/account`);
    await page.getByText(email).first().waitFor();

    // The same link again (a second tap, or another app that caught it): the code is spent.
    await page.evaluate((url) => (window as unknown as { openLink: (u: string) => void }).openLink(url), returnLink.href.replace(/^http:/, 'https:'));
    await page.getByRole('alert').filter({ hasText: 'This sign-in has expired. Please sign in with Apple again.' }).waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });

  it('follows the person across platforms: the account made with Google on Android opens with Google on an iPhone, and with Apple sharing the address', async () => {
    const email = 'tove.travels@example.com';
    const googleAnswer = (aud: string) => (options: { options?: { nonce?: string } }) => {
      const idToken = keys.sign(googleClaims(aud, { nonce: options.options?.nonce, email, name: 'Tove Travels', sub: '3003' }));
      return { provider: 'google', result: { responseType: 'online', accessToken: null, idToken, profile: { email, familyName: 'Travels', givenName: 'Tove', id: '3003', name: 'Tove Travels', imageUrl: null } } };
    };
    const signInWith = async (shell: 'ios' | 'android', button: string, answers: Record<string, (options: never) => unknown>) => {
      const opened = await openPage(browser);
      for (const [name, answer] of Object.entries(answers)) await opened.context.exposeFunction(name, answer);
      await opened.context.addInitScript(fakeShell, shell);
      await opened.page.goto(`${server.url}/sign-in`);
      await opened.page.getByRole('button', { name: button }).click();
      await opened.page.waitForURL(`${server.url}/`);
      await opened.page.goto(`${server.url}/account`);
      await opened.page.getByText(email).first().waitFor();
      expect(opened.problems).toEqual([]);
      return opened;
    };
    // Made on an Android phone with Google.
    const android = await signInWith('android', 'Sign in with Google', { googleSetUp: () => undefined, googleLogin: googleAnswer(GOOGLE_WEB_CLIENT) });
    await android.context.close();
    // On an iPhone, Google on the device for the iOS client id: the same account (an address has one account).
    const setUp: unknown[] = [];
    const iphone = await signInWith('ios', 'Sign in with Google', { googleSetUp: (options: unknown) => void setUp.push(options), googleLogin: googleAnswer(GOOGLE_IOS_CLIENT) });
    expect(setUp).toEqual([{ google: { iOSClientId: GOOGLE_IOS_CLIENT, iOSServerClientId: GOOGLE_WEB_CLIENT } }]);
    await iphone.context.close();
    // And with Apple, sharing the same (confirmed) address: joined to the same account, not a new one.
    const apple = await signInWith('ios', 'Sign in with Apple', {
      appleAuthorize: (options: { nonce?: string }) => ({
        response: { user: '001999.tove', email, givenName: null, familyName: null, identityToken: keys.sign(appleClaims({ nonce: options.nonce, email, sub: '001999.tove' })), authorizationCode: 'code-2' },
      }),
    });
    await apple.context.close();
  });

  it('never fetches the native code on the web', async () => {
    const { page, context, problems } = await openPage(browser);
    const requests = recordRequests(context);
    await page.goto(`${server.url}/`);
    expect(await page.evaluate(() => document.documentElement.dataset.platform)).toBe('web');
    await usable(page);
    await page.waitForLoadState('networkidle');
    expect(requests.filter((url) => /\/assets\/native-/.test(url))).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe('downloads and the lock screen, inside the apps and on the web', () => {
  it('keeps a download as a sealed file in the app’s own storage, plays it from the device, shows lock-screen controls on Android, and leaves nothing after sign-out', async () => {
    const { page, context, problems } = await onDevice('android', { name: 'Dara Quill', password: 'harbour-app-3' }, { subscriber: true });
    await serveDeviceFiles(page);

    // The app reads its session from the device before it asks who is signed in: the heart, live at
    // once, can be tapped before /api/me answers. Held there, the tap waits for the answer (it used
    // to say 'Please sign in to save meditations' and save nothing: issue 32).
    let answerMe!: () => void;
    const meHeld = new Promise<void>((resolve) => (answerMe = resolve));
    await page.route('**/api/me', async (route) => {
      await meHeld;
      await route.continue();
    });
    await page.goto(`${server.url}/meditations/mindfulness`);
    const card = page.getByTestId('meditation-card').filter({ hasText: 'A Single Breath' });
    await card.getByRole('button', { name: 'Save A Single Breath to favourites' }).click();
    answerMe();
    await toast(page, 'Saved “A Single Breath” to your favourites');
    await page.unroute('**/api/me');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Account' }).click();
    await page.getByRole('tab', { name: 'Favourites' }).click();
    const item = page.getByTestId('favourite-item').first();
    await item.getByRole('button', { name: 'Download A Single Breath for offline listening' }).click();
    await toast(page, 'Downloaded for offline listening');
    await item.getByTestId('favourite-badge').filter({ hasText: 'Offline' }).waitFor();

    // One file in the app's private, never-backed-up storage, sealed: not the audio the server sent.
    const stored = await deviceFiles(page);
    const [path] = Object.keys(stored);
    expect(Object.keys(stored)).toHaveLength(1);
    expect(path).toMatch(/^LIBRARY_NO_CLOUD\/offline\/[\w-]+\.m4a$/);
    const sealed = Buffer.from(stored[path], 'base64');
    expect(sealed.subarray(12, 15).toString('latin1')).not.toBe('ID3');
    const keychain = () => page.evaluate(() => (window as unknown as { keychain: () => string[] }).keychain());
    expect(await keychain()).toHaveLength(2); // the session and the downloads' key

    // Played from the device: the opened copy is a file in the cache, at its WebView URL.
    await item.getByRole('button', { name: 'Play A Single Breath' }).click();
    await page.getByRole('dialog', { name: 'A Single Breath' }).getByText('Playing your offline copy').waitFor();
    await waitForPlaying(page, 0.3);
    // Inside the apps the server is another origin: audio is asked for with CORS, which its consent covers.
    expect(await page.getByTestId('player-audio').getAttribute('crossorigin')).toBe('anonymous');
    expect((await audio(page)).src).toMatch(new RegExp(`^${server.url}/_capacitor_file_/device/CACHE/playing/[\\w-]+\\.m4a$`));

    // Android's lock screen heard the track and its state, and its pause button pauses.
    await expect.poll(async () => (await lockScreen(page)).find((call) => call.method === 'setMetadata')?.options.title).toBe('A Single Breath');
    expect((await lockScreen(page)).filter((call) => call.method === 'setPlaybackState').at(-1)?.options).toEqual({ playbackState: 'playing' });
    await pressLockScreen(page, 'pause');
    await expect.poll(async () => (await audio(page)).paused).toBe(true);
    await expect.poll(async () => (await lockScreen(page)).filter((call) => call.method === 'setPlaybackState').at(-1)?.options).toEqual({ playbackState: 'paused' });
    await page.getByRole('dialog').getByRole('button', { name: 'Close player' }).click();
    await expect.poll(async () => (await lockScreen(page)).filter((call) => call.method === 'setPlaybackState').at(-1)?.options).toEqual({ playbackState: 'none' });

    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Sign Out' }).click();
    await page.waitForURL(`${server.url}/sign-in`);
    await expect.poll(() => deviceFiles(page)).toEqual({});
    expect(await keychain()).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('on the web, the lock screen is the page’s own Media Session, and the audio is asked for as before', async () => {
    const { page, context, problems } = await openPage(browser);
    await signedInSubscriber(server, context, { name: 'Wren Hale', password: 'harbour-web-4' });
    await page.goto(`${server.url}/meditations/mindfulness`);
    const card = page.getByTestId('meditation-card').filter({ hasText: 'A Single Breath' });
    await card.getByRole('button', { name: 'A Single Breath', exact: true }).click();
    await waitForPlaying(page, 0.3);
    const session = () => page.evaluate(() => ({ title: navigator.mediaSession.metadata?.title ?? null, state: navigator.mediaSession.playbackState }));
    await expect.poll(session).toEqual({ title: 'A Single Breath', state: 'playing' });
    expect(await page.getByTestId('player-audio').getAttribute('crossorigin')).toBeNull();
    await page.getByRole('dialog').getByRole('button', { name: 'Close player' }).click();
    await expect.poll(session).toEqual({ title: null, state: 'none' });
    expect(problems).toEqual([]);
    await context.close();
  });
});


describe('reminders and mindful minutes, inside the apps (issue 20, items 4 and 5)', () => {
  it('schedules the reminders on the device for the chosen days, turns them off from the notification, and adds completed sessions to Apple Health once allowed', async () => {
    const { page, context, problems } = await openPage(browser, { timezoneId: 'Europe/London' });
    const shell: 'ios' | 'android' = 'ios';
    await context.addInitScript(fakeShell, shell);
    await context.addInitScript(fakeDevicePlugins);
    const ash = await makePerson(server, { name: 'Ash Moor', password: 'harbour-app-5' });
    await signInOnScreen(page, server, ash.email, 'harbour-app-5');

    await page.goto(`${server.url}/account?tab=settings`);
    await page.getByRole('heading', { name: 'Daily reminder' }).waitFor();
    await page.getByRole('heading', { name: 'Mindful minutes' }).waitFor();
    await page.getByLabel('Time').fill('07:30');
    for (const day of ['Tuesday', 'Thursday', 'Saturday', 'Sunday']) await page.getByRole('button', { name: day }).click();
    await page.getByRole('switch', { name: 'Remind me' }).click();
    await toast(page, REMINDER_MESSAGES.saved);

    // A fortnight of Monday, Wednesday and Friday reminders at 07:30 on the device, each with its day's affirmation and the off action.
    const device = await localNotifications(page);
    expect(device.permission).toBe('granted');
    expect(device.actionTypes).toEqual([{ id: expect.any(String) as string, actions: [expect.objectContaining({ id: 'turn-off', title: REMINDER_MESSAGES.offAction })] }]);
    expect(device.pending).toHaveLength(REMINDER.scheduledAhead);
    for (const reminder of device.pending) {
      const day = reminder.extra?.day ?? '';
      expect([0, 2, 4].map((d) => WEEKDAYS[d].day)).toContain(weekdayIndex(day));
      expect(new Date(reminder.at ?? '').toLocaleTimeString('en-GB', { timeZone: 'Europe/London', hour: '2-digit', minute: '2-digit' })).toBe('07:30');
      expect(reminder).toMatchObject({ title: REMINDER.title, body: reminderMessage(day), actionTypeId: device.actionTypes[0].id });
    }
    expect(new Set(device.pending.map((r) => r.extra?.day)).size).toBe(REMINDER.scheduledAhead);

    // "Turn off reminders" on a delivered one: off on the device and on the account.
    await pressNotificationAction(page, 'turn-off', device.pending[0].id);
    await toast(page, REMINDER_MESSAGES.turnedOff);
    await expect.poll(async () => (await localNotifications(page)).pending).toEqual([]);
    await expect.poll(() => page.getByRole('switch', { name: 'Remind me' }).getAttribute('aria-checked')).toBe('false');
    // The account's setting too (the page asks the server again).
    await page.reload();
    await expect.poll(() => page.getByRole('switch', { name: 'Remind me' }).getAttribute('aria-checked')).toBe('false');
    expect((await localNotifications(page)).pending).toEqual([]);

    // A sitting finished with no connection is sent when the app opens again: the first completed
    // session is when Apple Health is offered, not before.
    expect((await healthStore(page)).asked).toBe(0);
    const userId = await page.evaluate(() => (JSON.parse(localStorage.getItem('hm.viewer') ?? '{}') as { user?: { id: string } }).user?.id ?? '');
    expect(userId).not.toBe('');
    // Sittings one after another, as a person sits them (the server refuses overlapping ones).
    const sitting = (satSeconds: number, minutesAgo: number) => ({ kind: 'timer', id: crypto.randomUUID(), completedAt: new Date(Date.now() - minutesAgo * 60_000).toISOString(), timer: { plannedSeconds: 600, satSeconds }, userId });
    const whole = sitting(600, 60);
    await page.evaluate((entries) => localStorage.setItem('hm.pendingSessions', JSON.stringify(entries)), [whole]);
    await page.reload();
    const offer = page.getByRole('dialog', { name: 'Add your mindful minutes to Apple Health?' });
    await offer.waitFor();
    await offer.getByRole('button', { name: 'Add to Apple Health' }).click();
    await toast(page, 'Your mindful minutes will go to Apple Health.');
    const written = await healthStore(page);
    expect(written.asked).toBe(1);
    expect(written.samples).toEqual([
      { dataType: 'mindfulness', value: 10, unit: 'minute', startDate: new Date(Date.parse(whole.completedAt) - 600_000).toISOString(), endDate: whole.completedAt, mindfulnessSessionType: 'unguided', metadata: { source: 'Harbour Mind' } },
    ]);

    // From then on each completed session goes without asking; a partial one does not.
    await page.evaluate((entries) => localStorage.setItem('hm.pendingSessions', JSON.stringify(entries)), [sitting(600, 40), sitting(120, 20)]);
    await page.reload();
    await expect.poll(async () => (await healthStore(page)).samples.length).toBe(2);
    await expect.poll(() => page.evaluate(() => localStorage.getItem('hm.pendingSessions'))).toBe('[]');
    expect((await healthStore(page)).samples).toHaveLength(2);
    expect((await healthStore(page)).asked).toBe(1);
    expect(await page.getByRole('switch', { name: 'Add sessions to Apple Health' }).getAttribute('aria-checked')).toBe('true');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('on the web there is nothing of Health, and no native code', async () => {
    const { page, context, problems } = await openPage(browser);
    await signedInMember(server, context, { name: 'Lee Web', password: 'harbour-web-6' });
    await page.goto(`${server.url}/account?tab=settings`);
    await page.getByRole('heading', { name: 'Daily reminder' }).waitFor();
    expect(await page.getByText(/Health/).count()).toBe(0);
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe('files inside the apps (issue 35, item 5)', () => {
  const RECOVERY_FILE = 'harbour-mind-journal-recovery-key.txt';

  it('saves the journal’s recovery key through the iOS share sheet, and says it is not kept when the sheet was closed', async () => {
    const { page, context, problems } = await onDevice('ios', { name: 'Iris Vale', password: 'harbour-app-7' });
    await context.addInitScript(fakeShareSheet);
    await page.goto(`${server.url}/journal`);
    await page.getByRole('region', { name: 'Your journal on this device' }).getByRole('button', { name: 'Set up my journal' }).click();
    const setUp = page.getByRole('dialog', { name: 'Set up your private journal' });
    await setUp.getByLabel('Passphrase', { exact: true }).fill('a harbour at dusk, still');
    await setUp.getByLabel('Passphrase again').fill('a harbour at dusk, still');
    await setUp.getByLabel('I understand that a forgotten passphrase without the recovery key means my journal is lost.').check();
    await setUp.getByRole('button', { name: 'Set up my journal' }).click();
    const keep = page.getByRole('dialog', { name: 'Keep your recovery key' });
    const recoveryKey = (await keep.getByTestId('recovery-key').textContent()) ?? '';
    expect(recoveryKey.length).toBeGreaterThan(20);

    // The person closes the sheet without choosing: the dialog says the key went nowhere, and no copy stays on the device.
    await chooseInShareSheet(page, 'close', 'com.apple.DocumentManagerUICore.SaveToFiles');
    await keep.getByRole('button', { name: 'Download recovery key' }).click();
    await keep.getByRole('alert').filter({ hasText: SAVED_FILE_MESSAGES.cancelled(RECOVERY_FILE) }).getByText(JOURNAL_LOCK_MESSAGES.recoveryNotKept).waitFor();
    expect(await deviceFiles(page)).toEqual({});
    // Then saves it to Files: said as saved, and the sheet was handed the key's file.
    await keep.getByRole('button', { name: 'Download recovery key' }).click();
    await keep.getByRole('status').filter({ hasText: SAVED_FILE_MESSAGES.shared(RECOVERY_FILE) }).waitFor();
    expect(await keep.getByText(JOURNAL_LOCK_MESSAGES.recoveryNotKept).count()).toBe(0);
    const sheets = await shareSheet(page);
    expect(sheets.map((sheet) => [sheet.title, sheet.files, sheet.answer])).toEqual([
      [RECOVERY_FILE, [`file:///device/CACHE/saved/${RECOVERY_FILE}`], 'close'],
      [RECOVERY_FILE, [`file:///device/CACHE/saved/${RECOVERY_FILE}`], 'com.apple.DocumentManagerUICore.SaveToFiles'],
    ]);
    expect(sheets[1].texts[0]).toContain(`\n${recoveryKey}\n`);
    await keep.getByLabel('I have kept my recovery key somewhere safe.').check();
    await keep.getByRole('button', { name: 'Go to my journal' }).click();
    await keep.waitFor({ state: 'detached' });
    expect(problems).toEqual([]);
    await context.close();
  });

  it('saves “Download my data” through the Android share sheet, and says a failure with the device’s words', async () => {
    const { page, context, problems, person: owen } = await onDevice('android', { name: 'Owen Reed', password: 'harbour-app-8' });
    await context.addInitScript(fakeShareSheet);
    await page.goto(`${server.url}/account?tab=settings`);
    const data = page.getByRole('region', { name: 'Your data' });
    await chooseInShareSheet(page, 'com.google.android.apps.docs');
    await data.getByRole('button', { name: 'Download my data' }).click();
    await expect.poll(() => shareSheet(page)).toHaveLength(1);
    const [sheet] = await shareSheet(page);
    const name = sheet.title;
    expect(name).toMatch(/^harbour-mind-data-\d{4}-\d{2}-\d{2}\.json$/);
    await toast(page, SAVED_FILE_MESSAGES.shared(name));
    expect((JSON.parse(sheet.texts[0] ?? '{}') as { profile?: { email?: string } }).profile?.email).toBe(owen.email);

    // The sheet refuses (one is still open): said with the plugin's words, never as saved, and no copy stays.
    await chooseInShareSheet(page, 'error:Can’t share while sharing is in progress');
    await data.getByRole('button', { name: 'Download my data' }).click();
    await toast(page, SAVED_FILE_MESSAGES.failed(name, 'Can’t share while sharing is in progress'));
    expect(await deviceFiles(page)).toEqual({});
    expect(problems.filter((problem) => !problem.includes('saving a file failed'))).toEqual([]);
    await context.close();
  });
});

describe('the journal’s fingerprint unlock inside the apps (issue 36, item 1; decision 0065)', () => {
  it('is offered at a passphrase unlock, then opens the journal with the prompt; a cancelled prompt leaves the passphrase; it turns off', async () => {
    const B = JOURNAL_BIOMETRIC_MESSAGES;
    const { page, context, problems } = await onDevice('android', { name: 'Mira Holt', password: 'harbour-app-9' });
    // The device offers a strong fingerprint (the plugin's BiometryType.FINGERPRINT).
    await context.addInitScript(fakeBiometricPrompt, 3);
    await page.goto(`${server.url}/journal`);
    const journalRegion = page.getByRole('region', { name: 'Your journal on this device' });
    await setUpJournal(page, 'a harbour at dusk, still');

    // Locked, then unlocked with the passphrase and the offer ticked (off until ticked): the secret is kept behind the biometric.
    await page.getByRole('button', { name: 'Lock journal', exact: true }).click();
    await journalRegion.getByRole('button', { name: 'Unlock your journal' }).click();
    const unlock = page.getByRole('dialog', { name: 'Unlock your journal' });
    const offer = unlock.getByRole('checkbox', { name: B.offer('fingerprint'), exact: false });
    expect(await offer.isChecked()).toBe(false);
    await offer.check();
    await unlock.getByLabel('Passphrase', { exact: true }).fill('a harbour at dusk, still');
    await unlock.getByRole('button', { name: 'Unlock', exact: true }).click();
    await toast(page, B.enrolled('fingerprint'));
    await unlock.waitFor({ state: 'detached' });
    expect(await biometricKeychain(page)).toEqual([{ key: 'harbour-mind.journal-unlock', accessControl: 1 }]);
    expect(await biometricSecretInWebStorage(page)).toBe(false);

    // Locked again: the prompt cancelled says to use the passphrase; passed, the journal opens.
    await page.getByRole('button', { name: 'Lock journal', exact: true }).click();
    await journalRegion.getByRole('button', { name: 'Unlock your journal' }).click();
    await answerBiometricPrompt(page, 'cancel');
    await unlock.getByRole('button', { name: B.unlockWith('fingerprint') }).click();
    await unlock.getByRole('alert').filter({ hasText: B.cancelled('fingerprint') }).waitFor();
    await unlock.getByRole('button', { name: B.unlockWith('fingerprint') }).click();
    await unlock.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Lock journal', exact: true }).waitFor();
    expect(await biometricPrompts(page)).toEqual(['cancel', 'pass']);

    // Turned off: the secret goes, and the next unlock offers it again, off.
    await page.getByRole('button', { name: B.turnOff('fingerprint') }).click();
    await toast(page, B.turnedOff('fingerprint'));
    expect(await biometricKeychain(page)).toEqual([]);
    await page.getByRole('button', { name: 'Lock journal', exact: true }).click();
    await journalRegion.getByRole('button', { name: 'Unlock your journal' }).click();
    await offer.waitFor();
    expect(await unlock.getByRole('button', { name: B.unlockWith('fingerprint') }).count()).toBe(0);
    expect(problems).toEqual([]);
    await context.close();
  });
});
