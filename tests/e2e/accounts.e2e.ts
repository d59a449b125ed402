/**
 * Accounts in Chromium against the real server: sign-up, the verification e-mail (read from the
 * outbox the server writes), sign-in on the screen and in the dialog, account tabs, sign-out,
 * password reset and the error paths.
 */
import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { setUpJournal } from '#tests/e2e/support/journal.ts';
import { openPage } from '#tests/e2e/support/browser.ts';
import { signedInMember, signedInSubscriber } from '#tests/e2e/support/people.ts';
import { startSuite, toast } from '#tests/e2e/support/suite.ts';
import type { RunningServer } from '#tests/setup/server-process.ts';
import { readOutbox, waitForMail } from '#tests/setup/outbox.ts';

let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  const suite = await startSuite();
  ({ server, browser } = suite);
  return suite.stop;
});

/** Signs up on the /sign-up screen, as a person does; returns the e-mailed verification link. */
async function signUpOnScreen(page: Page, name: string, email: string, password: string) {
  await page.goto(`${server.url}/sign-up`);
  await page.getByLabel('Full Name').fill(name);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Create account' }).click();
  // /sign-up is the sign-up dialog: it says so in the dialog, not in a toast over it (issue 38).
  await page.getByRole('dialog').getByRole('status').getByText('Account created successfully! Please check your email to verify your account.').waitFor();
  const mail = await waitForMail(server.dataDir, email, /Confirm your e-mail/);
  return mail.links.find((l) => l.includes('/api/auth/verify-email'))!;
}

/** Follows a verification link in another browser, so this page stays signed out (the link signs in where it is opened). */
async function verifyElsewhere(link: string) {
  const elsewhere = await browser.newContext();
  const response = await elsewhere.request.get(link);
  await elsewhere.close();
  expect(response.ok()).toBe(true);
}

/** Fills and sends the sign-in form (the test says what it expects next). */
async function submitSignIn(page: Page, email: string, password: string) {
  await page.goto(`${server.url}/sign-in`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

describe('accounts', () => {
  it('has one sign-up screen: /sign-up is the subscribe screen with the dialog on Sign Up, as a trial from /subscribe is', async () => {
    const { page, context, problems } = await openPage(browser);
    await page.goto(`${server.url}/sign-up`);
    // The plans are behind the modal dialog, so out of the accessibility tree while it is open.
    await page.getByRole('heading', { name: 'Unlock Your Full Potential', includeHidden: true }).waitFor();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: 'Welcome to Harbour Mind' }).waitFor();
    expect(await dialog.getByRole('tab', { name: 'Sign Up' }).getAttribute('aria-selected')).toBe('true');
    await dialog.getByLabel('Full Name').waitFor();

    await page.goto(`${server.url}/subscribe`);
    await page.getByRole('button', { name: 'Start 7-day free trial' }).first().click();
    expect(await page.getByRole('dialog').getByRole('tab', { name: 'Sign Up' }).getAttribute('aria-selected')).toBe('true');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('answers a broken or used verification link with its own page and sends a new link', async () => {
    const { page, context, problems } = await openPage(browser);
    const link = await signUpOnScreen(page, 'Ines Park', 'ines@example.com', 'calm-seas-2');
    const mailsBefore = readOutbox(server.dataDir).filter((m) => m.to.includes('ines@example.com')).length;
    await page.goto(link.replace(/token=[^&]+/, 'token=not-a-real-token'));
    await page.waitForURL(/\/verify-email\?error=/);
    await page.getByRole('heading', { name: 'This link is not valid' }).waitFor();
    await page.getByRole('button', { name: 'Send a new link' }).click();
    await page.getByText('Email is required').waitFor();
    await page.getByLabel('Email').fill('Ines@Example.com');
    await page.getByRole('button', { name: 'Send a new link' }).click();
    await page.getByRole('status').getByText('If ines@example.com still needs verifying, a new link is on its way.', { exact: false }).waitFor();
    await vi.waitFor(() => expect(readOutbox(server.dataDir).filter((m) => m.to.includes('ines@example.com')).length).toBe(mailsBefore + 1), { timeout: 10_000 });

    // The page is a real page: HTTP 200 with the app, not the 404 screen.
    const response = await page.goto(`${server.url}/verify-email?error=token_expired`);
    expect(response?.status()).toBe(200);
    await page.getByRole('heading', { name: 'This link has expired' }).waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });

  it('signs up, verifies by e-mail, signs in, visits the account and signs out', async () => {
    const { page, context, problems } = await openPage(browser);
    await page.goto(`${server.url}/sign-up`);
    // The password toggle reveals and hides the password.
    const password = page.getByLabel('Password', { exact: true });
    await password.fill('calm-seas-1');
    expect(await password.getAttribute('type')).toBe('password');
    await page.getByRole('button', { name: 'Show password' }).click();
    expect(await password.getAttribute('type')).toBe('text');
    await page.getByText('Minimum 6 characters').waitFor();

    const link = await signUpOnScreen(page, 'Nora Bell', 'nora@example.com', 'calm-seas-1');
    await page.getByRole('heading', { name: 'Check your inbox' }).waitFor();

    await submitSignIn(page, 'nora@example.com', 'calm-seas-1');
    await page.getByText('Please verify your email address before signing in').first().waitFor();

    // The link confirms the address and signs in (issue 17): home, signed in, told so.
    await page.goto(link);
    await page.waitForURL(`${server.url}/`);
    await toast(page, 'Email verified');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Account' }).waitFor();

    // Used a second time, signed out, it signs no one in: its page offers sign-in instead.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Sign Out' }).click();
    await page.waitForURL(`${server.url}/sign-in`);
    await page.goto(link);
    await page.waitForURL(`${server.url}/verify-email`);
    await page.getByRole('heading', { name: 'Email verified' }).waitFor();

    await page.getByLabel('Email').fill('nora@example.com');
    await page.getByLabel('Password', { exact: true }).fill('calm-seas-1');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await toast(page, 'Welcome back!');
    await page.waitForURL(`${server.url}/`);
    // Replacing history: Back does not return to the sign-in screen.
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Account' }).waitFor();
    await nav.getByRole('button', { name: 'Sign Out' }).waitFor();
    expect(await nav.getByRole('link', { name: 'Sign In' }).count()).toBe(0);

    await nav.getByRole('link', { name: 'Account' }).click();
    await page.waitForURL(`${server.url}/account`);
    await page.getByText('nora@example.com').waitFor();
    await page.getByText('Member since').waitFor();
    await page.getByRole('tab', { name: 'Favourites' }).click();
    await page.getByText('No saved meditations yet').waitFor();
    await page.getByRole('tab', { name: 'Settings' }).click();
    await page.getByText('Subscription Management').waitFor();
    await page.getByRole('tab', { name: 'Profile' }).click();
    await page.getByRole('button', { name: 'Sign Out' }).last().click();
    await toast(page, 'Signed Out');
    await page.waitForURL(`${server.url}/`);
    await nav.getByRole('link', { name: 'Sign In' }).waitFor();

    // Signed out, /account and /profile send you to /sign-in.
    await page.goto(`${server.url}/profile`);
    await page.waitForURL(`${server.url}/sign-in`);
    expect(problems.filter((p) => !p.includes('401') && !p.includes('403'))).toEqual([]);
    await context.close();
  });

  it('signs in through the dialog on /subscribe, then signs out from the navigation to /sign-in', async () => {
    const { page, context } = await openPage(browser);
    const link = await signUpOnScreen(page, 'Omar Reed', 'omar@example.com', 'quiet-bay-2');
    await verifyElsewhere(link);
    await page.goto(`${server.url}/subscribe`);
    await page.getByRole('region', { name: 'Already have an account?' }).getByRole('button', { name: 'Sign In' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: 'Welcome to Harbour Mind' }).waitFor();

    // Switching tabs clears the fields and the error.
    await dialog.getByLabel('Email').fill('someone@example.com');
    await dialog.getByRole('tab', { name: 'Sign Up' }).click();
    await dialog.getByLabel('Full Name').waitFor();
    expect(await dialog.getByLabel('Email').inputValue()).toBe('');
    await dialog.getByRole('tab', { name: 'Sign In' }).click();

    await dialog.getByLabel('Email').fill('omar@example.com');
    await dialog.getByLabel('Password', { exact: true }).fill('wrong-password');
    await dialog.getByRole('button', { name: 'Sign in', exact: true }).click();
    // One message, in one place (issue 17, item 7): in the form, under the spec's title, and no toast besides.
    const failure = dialog.getByRole('alert');
    await failure.getByText('Invalid email or password').waitFor();
    expect(await failure.textContent()).toBe('Sign in failedInvalid email or password');
    expect(await page.locator('[data-sonner-toast]').count()).toBe(0);

    await dialog.getByLabel('Password', { exact: true }).fill('quiet-bay-2');
    await dialog.getByRole('button', { name: 'Sign in', exact: true }).click();
    await toast(page, 'Welcome back!');
    await page.waitForURL(`${server.url}/`);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Sign Out' }).click();
    await page.waitForURL(`${server.url}/sign-in`);
    await toast(page, 'You have been successfully signed out.');
    await context.close();
  });

  it('validates in the browser with the spec messages', async () => {
    const { page, context } = await openPage(browser);
    await page.goto(`${server.url}/sign-in`);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByText('Please fill in all fields').waitFor();
    await page.getByLabel('Email').fill('not-an-email');
    await page.getByLabel('Password', { exact: true }).fill('whatever');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('alert').getByText('Invalid Email').waitFor();
    expect(await page.locator('[data-sonner-toast]').count()).toBe(0);

    await page.goto(`${server.url}/sign-up`);
    await page.getByLabel('Email').fill('a@b.co');
    await page.getByLabel('Password', { exact: true }).fill('secret1');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByText('Please enter a full name').waitFor();
    await page.getByLabel('Full Name').fill('Pat Lee');
    await page.getByLabel('Password', { exact: true }).fill('12345');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByText('Password must be at least 6 characters long').waitFor();

    await page.getByLabel('Full Name').fill('Nora Again');
    await page.getByLabel('Email').fill('nora@example.com');
    await page.getByLabel('Password', { exact: true }).fill('another-1');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByText('An account with this email already exists. Please sign in instead.').waitFor();
    await context.close();
  });

  it('changes the name and the password, lists the devices signed in, and signs the others out', async () => {
    const person = { name: 'Iris Vale', email: 'iris@example.com', password: 'first-light-1' };
    await verifyElsewhere(await signUpOnScreen((await openPage(browser)).page, person.name, person.email, person.password));
    const other = await openPage(browser, { userAgent: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36' });
    await other.page.goto(`${server.url}/sign-in`);
    await submitSignIn(other.page, person.email, person.password);
    await other.page.waitForURL(`${server.url}/`);

    const { page, context, problems } = await openPage(browser);
    await page.goto(`${server.url}/sign-in`);
    await submitSignIn(page, person.email, person.password);
    await page.waitForURL(`${server.url}/`);
    await page.goto(`${server.url}/account`);

    // The name: checked with the spec's rules, then saved and used at once.
    const name = page.getByRole('form', { name: 'Your name' });
    await name.getByLabel('Full Name').fill('I');
    await name.getByRole('button', { name: 'Save name' }).click();
    await name.getByText('Name must be at least 2 characters').waitFor();
    await name.getByLabel('Full Name').fill('Iris Morgan');
    await name.getByRole('button', { name: 'Save name' }).click();
    await toast(page, 'Your name is saved');
    await page.getByText('Hello, Iris Morgan.').waitFor();

    // Every device is listed (the e-mail link signed in a third), this one marked.
    const devices = page.getByTestId('account-session');
    await devices.nth(2).waitFor();
    expect(await devices.count()).toBe(3);
    expect(await devices.filter({ hasText: 'This device' }).count()).toBe(1);
    await devices.filter({ hasText: 'Chrome on Android' }).waitFor();

    // The password: the current one must be right; then the other device is signed out.
    const password = page.getByRole('form', { name: 'Password' });
    await password.getByLabel('Current password').fill('not-my-password');
    await password.getByLabel('New password', { exact: true }).fill('second-light-2');
    await password.getByLabel('Confirm new password').fill('second-light-2');
    await password.getByRole('button', { name: 'Change password' }).click();
    await password.getByText('Your current password is not correct.').waitFor();
    await password.getByLabel('Current password').fill(person.password);
    await password.getByLabel('Confirm new password').fill('second-light-3');
    await password.getByRole('button', { name: 'Change password' }).click();
    await password.getByText('The two passwords do not match.').waitFor();
    await password.getByLabel('Confirm new password').fill('second-light-2');
    await password.getByRole('button', { name: 'Change password' }).click();
    await password.getByText('Your password is changed, and your other devices are signed out.').waitFor();
    await vi.waitFor(async () => expect(await devices.count()).toBe(1), { timeout: 10_000 });
    expect((await (await other.context.request.get(`${server.url}/api/me`)).json()).user).toBeNull();
    // This device stays signed in, and the new password is the one that works.
    expect((await (await context.request.get(`${server.url}/api/me`)).json()).user.name).toBe('Iris Morgan');
    const signIn = (password: string) => context.request.post(`${server.url}/api/auth/sign-in/email`, { headers: { origin: server.url }, data: { email: person.email, password } });
    expect((await signIn(person.password)).status()).toBe(401);
    expect((await signIn('second-light-2')).status()).toBe(200);
    // The refused password's answer is the one failed request the page may log.
    expect(problems.filter((p) => !p.includes('Failed to load resource'))).toEqual([]);
    await other.context.close();
    await context.close();
  });

  it('keeps a chosen theme on this device from the first paint, with no inline script the policy refuses', async () => {
    const { page, context, problems } = await openPage(browser);
    await signedInMember(server, context, { name: 'Theo Dark', password: 'night-harbour-3' });
    await page.emulateMedia({ colorScheme: 'light' });
    await page.goto(server.url);
    await page.getByRole('region', { name: 'Today' }).waitFor();
    const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const light = await background();

    await page.goto(`${server.url}/account`);
    await page.getByRole('tab', { name: 'Settings' }).click();
    const appearance = page.getByRole('radiogroup', { name: 'Appearance' });
    expect(await appearance.getByRole('radio', { name: 'Match this device' }).isChecked()).toBe(true);
    await appearance.getByRole('radio', { name: 'Dark' }).check();
    await expect.poll(background).not.toBe(light);
    const dark = await background();
    expect(await page.evaluate(() => [...document.querySelectorAll('meta[name="theme-color"]')].map((m) => [m.getAttribute('content'), m.getAttribute('media')]))).toEqual([['#0c0a09', null]]);

    // A prepared page, read before any of the app's code runs: already dark (the boot script in
    // <head>). In a context of its own with the choice stored and no service worker, so every script
    // of the app really is held back (a service worker's fetches would pass the route).
    // (A plain context: openPage would wait for the app to go live, which it never does here.)
    const bare = await browser.newContext({ serviceWorkers: 'block', colorScheme: 'light' });
    await bare.addInitScript(() => localStorage.setItem('hm.theme', 'dark'));
    await bare.route('**/assets/*.js', (route) => route.abort());
    const barePage = await bare.newPage();
    await barePage.goto(`${server.url}/meditations/all`, { waitUntil: 'domcontentloaded' });
    expect(await barePage.evaluate(() => [document.documentElement.className, getComputedStyle(document.body).backgroundColor, document.documentElement.dataset.live ?? null])).toEqual(['dark', dark, null]);
    await bare.close();

    // Back to the device's own setting, which is light here and dark when the device turns dark.
    await page.goto(`${server.url}/account`);
    await page.getByRole('tab', { name: 'Settings' }).click();
    await appearance.getByRole('radio', { name: 'Match this device' }).check();
    await expect.poll(background).toBe(light);
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect.poll(background).toBe(dark);
    await appearance.getByRole('radio', { name: 'Light' }).check();
    await expect.poll(background).toBe(light);
    await page.reload();
    await expect.poll(background).toBe(light);

    // The script ran under the policy: no refused inline script, no page error.
    expect(problems).toEqual([]);
    expect(problems.some((p) => /Content Security Policy/i.test(p))).toBe(false);
    await context.close();
  });

  it('downloads everything held about the person, then deletes the account for good (issue 18)', async () => {
    const { page, context, problems } = await openPage(browser, { acceptDownloads: true });
    const person = await signedInSubscriber(server, context, { name: 'Dana Quill', password: 'low-tide-harbour-5' });
    const list = (await (await context.request.get(`${server.url}/api/meditations?category=all`)).json()) as { meditations: { id: string; title: string }[] };
    expect((await context.request.put(`${server.url}/api/favourites/${list.meditations[0].id}`, { headers: { origin: server.url } })).status()).toBe(201);
    // A journal entry, so the file can carry the journal opened on this device.
    await page.goto(`${server.url}/journal`);
    await setUpJournal(page, 'export me, opened');
    await page.getByRole('form', { name: 'Mindfulness entry' }).getByLabel('Gratitude').fill('The first frost on the hedges.');
    await page.getByRole('form', { name: 'Mindfulness entry' }).getByRole('button', { name: 'Save entry' }).click();
    await page.getByTestId('journal-entry').filter({ hasText: 'The first frost on the hedges.' }).waitFor();
    // The entry shows as soon as it is kept on the device; the file counts what the server holds, so
    // the download waits for the sealed copy to arrive there (the sync line can still say 'synced' from before).
    const heldOnServer = async () => ((await (await context.request.get(`${server.url}/api/journal/records`)).json()) as { records: unknown[] }).records.length;
    await expect.poll(heldOnServer).toBe(1);
    // Through the app's own link: the journal's key lives in the page's memory only (issue 36), so a new page load would lock it.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Account' }).click();
    await page.getByRole('tab', { name: 'Settings' }).click();
    const data = page.getByRole('region', { name: 'Your data' });

    // The download: one JSON file with the account, the subscription, favourites, and the journal opened on this device.
    const [download] = await Promise.all([page.waitForEvent('download'), data.getByRole('button', { name: 'Download my data' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^harbour-mind-data-\d{4}-\d{2}-\d{2}\.json$/);
    const file = JSON.parse(readFileSync((await download.path()), 'utf8')) as Record<string, unknown> & { profile: { email: string }; subscription: { provider: string }; favourites: { title: string }[] };
    expect(file.profile.email).toBe(person.email);
    expect(file.subscription.provider).toBe('sandbox');
    expect(file.favourites.map((f) => f.title)).toEqual([list.meditations[0].title]);
    expect(file.journal).toEqual({ encryptedRecords: 1, hasKeyring: true });
    expect((file.journalEntries as { content: { gratitude: string } }[]).map((e) => e.content.gratitude)).toEqual(['The first frost on the hedges.']);

    // Deleting: a dialog that says what happens, the password and the typed word, refusals said in it.
    await data.getByRole('button', { name: 'Delete account' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
    await dialog.getByText('Your subscription is cancelled at once: nothing more is charged.').waitFor();
    const confirm = dialog.getByRole('button', { name: 'Delete account' });
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByLabel('Your password').fill('not-my-password-1');
    await dialog.getByLabel('Type DELETE to confirm').fill('DELETE');
    await confirm.click();
    await dialog.getByTestId('delete-problem').filter({ hasText: 'Your password is not correct.' }).waitFor();
    await dialog.getByRole('button', { name: 'Keep my account' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(((await (await context.request.get(`${server.url}/api/me`)).json()) as { user: unknown }).user).not.toBeNull();

    await data.getByRole('button', { name: 'Delete account' }).click();
    await dialog.getByLabel('Your password').fill(person.password);
    await dialog.getByLabel('Type DELETE to confirm').fill('DELETE');
    await dialog.getByRole('button', { name: 'Delete account' }).click();
    await page.waitForURL(`${server.url}/`);
    await toast(page, 'Your account has been deleted');
    expect(((await (await context.request.get(`${server.url}/api/me`)).json()) as { user: unknown }).user).toBeNull();
    expect(await page.evaluate(() => localStorage.getItem('hm.viewer'))).toBeNull();
    // Nothing of the journal stays in the browser: its key and sealed copy are gone with the account.
    expect(await page.evaluate(async () => (await indexedDB.databases()).map((d) => d.name))).not.toContain('harbour-mind-journal');
    const mail = await waitForMail(server.dataDir, person.email, /has been deleted/);
    expect(mail.raw).toContain('Any web subscription has been cancelled');
    const again = await context.request.post(`${server.url}/api/auth/sign-in/email`, { data: { email: person.email, password: person.password }, headers: { origin: server.url } });
    expect(again.status()).toBe(401);
    expect(problems.filter((p) => !p.includes('401'))).toEqual([]);
    await context.close();
  });

  it('offers no Apple or Google button when they are not configured (a button that can only fail is a dead end)', async () => {
    const { page, context } = await openPage(browser);
    await page.goto(`${server.url}/sign-in`);
    await page.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
    expect(await page.getByRole('button', { name: /Apple|Google/ }).count()).toBe(0);
    await page.goto(`${server.url}/sign-up`);
    await page.getByRole('dialog').getByLabel('Full Name').waitFor();
    expect(await page.getByRole('dialog').getByRole('button', { name: /Apple|Google/ }).count()).toBe(0);
    await context.close();
  });

  it('resets a forgotten password by e-mail', async () => {
    const { page, context } = await openPage(browser);
    const link = await signUpOnScreen(page, 'Quinn Hart', 'quinn@example.com', 'first-pass-1');
    await verifyElsewhere(link);
    await page.goto(`${server.url}/sign-in`);
    await page.getByRole('button', { name: 'Forgot Password' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Email').fill('quinn@example.com');
    await dialog.getByRole('button', { name: 'Send reset link' }).click();
    await dialog.getByText(/a reset link is on its way/).waitFor();
    const mail = await waitForMail(server.dataDir, 'quinn@example.com', /Reset your Harbour Mind password/);
    await page.goto(mail.links.find((l) => l.includes('reset-password'))!);
    await page.waitForURL(/\/reset-password\?token=/);
    await page.getByLabel('New password', { exact: true }).fill('second-pass-2');
    await page.getByLabel('Confirm new password').fill('second-pass-2');
    await page.getByRole('button', { name: 'Save new password' }).click();
    await page.waitForURL(`${server.url}/sign-in`);
    await submitSignIn(page, 'quinn@example.com', 'second-pass-2');
    await page.waitForURL(`${server.url}/`);
    await context.close();
  });
});
