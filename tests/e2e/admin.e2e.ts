/**
 * Administration in Chromium against the real server: an admin made with the CLI's commands uploads a real
 * file, sees it in the public catalogue, edits and deletes it; the waitlist from a visitor's
 * sign-up to the admin's CSV; the one-time setup token on a fresh install; non-admins refused;
 * and an upload killed mid-way leaves nothing behind after a restart.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage } from '#tests/e2e/support/browser.ts';
import { toast } from '#tests/e2e/support/suite.ts';
import { cookieHeader } from '#tests/setup/cookies.ts';
import { startedDataDir, startServer, type RunningServer } from '#tests/setup/server-process.ts';
import { signInOnScreen as signIn } from '#tests/e2e/support/subscriber.ts';
import { serverCommand, signedInMember } from '#tests/e2e/support/people.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
  return () => browser.close();
});

describe('an admin granted by the CLI', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer();
    // The CLI's commands, run by the server it would reach (operations.e2e runs the CLI's own process).
    await serverCommand(server, ['create-user', 'ada@example.com', 'quiet-harbour-9', '--name', 'Ada Admin', '--verified']);
    expect(await serverCommand(server, ['grant-role', 'ada@example.com', 'admin'])).toContain('Role admin assigned');
    return () => server.stop();
  });

  it('uploads a real file, finds it in the catalogue, edits it and deletes it', async () => {
    const { page, context, problems } = await openPage(browser);
    await signIn(page, server, 'ada@example.com', 'quiet-harbour-9');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admin' }).click();
    await page.waitForURL(`${server.url}/admin`);
    await page.getByRole('tab', { name: 'Meditations' }).click();
    const form = page.getByRole('region', { name: 'Upload a meditation' });

    // The form checks before sending: nothing chosen yet.
    await form.getByRole('button', { name: 'Upload meditation' }).click();
    await toast(page, 'Please fill in all required fields, select at least one category, and select an audio file');

    await form.getByLabel('Title').fill('Evening Tide');
    await form.getByLabel('Description').fill('A slow, tidal breath to end the day.');
    await form.getByLabel(/Categories/).selectOption('sleeping');
    await form.getByLabel(/Categories/).selectOption('mindfulness');
    await form.getByRole('textbox', { name: 'Tags' }).fill('  evening ');
    await form.getByRole('textbox', { name: 'Tags' }).press('Enter');
    await form.getByRole('textbox', { name: 'Tags' }).fill('Evening');
    await form.getByRole('button', { name: 'Add' }).click();
    expect(await form.getByRole('list', { name: 'Tags' }).getByRole('listitem').allTextContents()).toEqual(['evening']);
    await form.getByLabel(/Transcript/).fill('Let the breath come in like the tide.');
    await form.getByLabel(/Audio file/).setInputFiles('tests/fixtures/audio/tone-3s.mp3');
    await expect.poll(() => form.getByLabel('Duration').inputValue()).toBe('1 min');
    await form.getByRole('button', { name: 'Upload meditation' }).click();
    await toast(page, 'Meditation Uploaded');
    expect(await form.getByLabel('Title').inputValue()).toBe('');

    const card = page.getByTestId('admin-meditation').filter({ hasText: 'Evening Tide' });
    await card.waitFor();
    // A 3-second file reads as such (to the second under two minutes), not as 1 min.
    expect(await card.textContent()).toMatch(/Sleep & Rest · 3 sec/);
    expect(await card.textContent()).toContain('tone-3s.mp3');
    expect(await card.textContent()).toMatch(/0\.01 MB/);

    // Public catalogue: a visitor sees it (locked).
    const visitor = await browser.newContext();
    const visitorPage = await visitor.newPage();
    await visitorPage.goto(`${server.url}/meditations/all`);
    await visitorPage.getByTestId('meditation-card').filter({ hasText: 'Evening Tide' }).waitFor();
    await visitor.close();

    // Edit the title inline.
    await card.getByRole('button', { name: 'Edit Evening Tide' }).click();
    await page.getByTestId('admin-meditation').getByLabel('Title').fill('Evening Tide, Slowly');
    await page.getByRole('button', { name: 'Save' }).click();
    await toast(page, 'Meditation Updated');
    const renamed = page.getByTestId('admin-meditation').filter({ hasText: 'Evening Tide, Slowly' });
    await renamed.waitFor();

    // Download gives the original file back.
    const [download] = await Promise.all([page.waitForEvent('download'), renamed.getByRole('link', { name: 'Download Evening Tide, Slowly' }).click()]);
    expect(download.suggestedFilename()).toBe('tone-3s.mp3');
    expect(readFileSync((await download.path())).equals(readFileSync('tests/fixtures/audio/tone-3s.mp3'))).toBe(true);

    // Delete, with confirmation: gone from the list, the catalogue and the disk.
    const filesBefore = readdirSync(join(server.dataDir, 'media', 'meditations')).length;
    await renamed.getByRole('button', { name: 'Delete Evening Tide, Slowly' }).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
    await toast(page, 'Meditation Deleted');
    await renamed.waitFor({ state: 'detached' });
    expect(readdirSync(join(server.dataDir, 'media', 'meditations')).length).toBe(filesBefore - 1);
    const all = (await (await context.request.get(`${server.url}/api/meditations?category=all`)).json()) as { meditations: { title: string }[] };
    expect(all.meditations.some((m) => m.title.startsWith('Evening Tide'))).toBe(false);

    // The audit log recorded each step.
    await page.getByRole('tab', { name: 'Audit Log' }).click();
    const audit = page.getByTestId('audit-list');
    await audit.getByText('meditation.delete').waitFor();
    expect(await audit.textContent()).toContain('meditation.update');
    expect(await audit.textContent()).toContain('meditation.upload');
    // The browser keeps its own diagnostic copy as the spec describes.
    const local = await page.evaluate(() => (JSON.parse(localStorage.getItem('admin_audit_logs') ?? '[]') as { action: string }[]).map((e) => e.action));
    expect(local).toEqual(['meditation.delete', 'meditation.update', 'meditation.upload']);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('collects a visitor on the waitlist and exports the CSV', async () => {
    const { page: visitor, context: visitorContext } = await openPage(browser);
    await visitor.goto(`${server.url}/waitlist`);
    await visitor.getByRole('button', { name: 'Join the waitlist' }).click();
    // Decision 0027: one message, in the form (the spec's title and words), and none in a toast.
    const failure = visitor.getByTestId('waitlist-failure');
    await failure.filter({ hasText: 'Invalid informationPlease check your information and try again.' }).waitFor();
    expect(await failure.getAttribute('role')).toBe('alert');
    await visitor.getByText('Please enter a valid email address').waitFor();
    await visitor.getByLabel('Name').fill("Niamh O'Connor");
    await visitor.getByLabel('Email').fill('niamh+beta@example.com');
    // One limit, one number: 'under 500 characters' is a field of 499 with a 499 counter.
    const reason = visitor.getByLabel(/What brings you/);
    expect(await reason.getAttribute('maxlength')).toBe('499');
    await reason.fill('I <3 quiet mornings & sleep');
    await visitor.getByText('27/499').waitFor();
    await visitor.getByRole('button', { name: 'Join the waitlist' }).click();
    // The form gives way to a lasting confirmation (still there after a reload), with a way to add someone else.
    const joined = visitor.getByRole('region', { name: "You're on the list!" });
    await joined.getByText("Thanks for joining our beta waitlist. We'll be in touch soon!").waitFor();
    // Focus moves to it (the button pressed is gone), and no toast repeats it.
    expect(await visitor.evaluate(() => document.activeElement?.id)).toBe('joined-heading');
    expect(await visitor.locator('[data-sonner-toast]').count()).toBe(0);
    await visitor.reload();
    await joined.waitFor();
    await joined.getByRole('button', { name: 'Add someone else' }).click();
    expect(await visitor.getByLabel('Name').inputValue()).toBe('');
    await visitor.getByLabel('Name').fill('Niamh Again');
    await visitor.getByLabel('Email').fill('NIAMH+Beta@example.com');
    await visitor.getByRole('button', { name: 'Join the waitlist' }).click();
    await failure.filter({ hasText: 'Already registeredThis email is already registered on our waitlist. Thank you for your interest!' }).waitFor();
    expect(await visitor.locator('[data-sonner-toast]').count()).toBe(0);
    await visitor.getByRole('link', { name: 'privacy policy', exact: true }).waitFor();

    // Visitors share this page; only an admin sets another address.
    expect(await visitor.getByLabel('Custom share URL').count()).toBe(0);
    await visitorContext.route('https://twitter.com/**', (route) => route.fulfill({ status: 200, body: 'shared' }));
    const [visitorPopup] = await Promise.all([visitor.waitForEvent('popup'), visitor.getByRole('button', { name: 'Twitter' }).click()]);
    expect(decodeURIComponent(visitorPopup.url())).toContain(`${server.url}/waitlist`);
    await visitorContext.close();

    const { page, context, problems } = await openPage(browser, { acceptDownloads: true });
    await signIn(page, server, 'ada@example.com', 'quiet-harbour-9');

    // Sharing: a bad URL is refused, a good one is used by the share popups (550x450).
    await page.goto(`${server.url}/waitlist`);
    await page.getByLabel('Custom share URL').fill('not a url');
    await page.getByRole('button', { name: 'Set URL' }).click();
    await page.getByTestId('share-url-outcome').filter({ hasText: 'Invalid URL Please enter a valid URL including http:// or https://' }).waitFor();
    await page.getByLabel('Custom share URL').fill('https://harbourmind.example/beta');
    await page.getByRole('button', { name: 'Set URL' }).click();
    await page.getByTestId('share-url-outcome').filter({ hasText: /^URL updated / }).waitFor();
    expect(await page.locator('[data-sonner-toast]').count()).toBe(0);
    await context.route('https://twitter.com/**', (route) => route.fulfill({ status: 200, body: 'shared' }));
    const [popup] = await Promise.all([page.waitForEvent('popup'), page.getByRole('button', { name: 'Twitter' }).click()]);
    expect(decodeURIComponent(popup.url())).toContain('Join the beta - limited spots available!');
    expect(decodeURIComponent(popup.url())).toContain('https://harbourmind.example/beta');
    expect(await popup.evaluate(() => [window.outerWidth, window.outerHeight])).toEqual([550, 450]);
    await popup.close();

    await page.goto(`${server.url}/admin`);
    await page.getByRole('tab', { name: 'Waitlist' }).click();
    const table = page.getByTestId('waitlist-table');
    await table.getByText("Niamh O'Connor").waitFor();
    await table.getByText('I <3 quiet mornings & sleep').waitFor();
    await page.getByText('Showing 1 of 1 entry').waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^waitlist-entries-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = readFileSync((await download.path()), 'utf8').replace(/^\uFEFF/, '');
    expect(csv.split('\r\n')[0]).toBe('Name,Email,Reason,Sign-up Date');
    // As typed: the + tag, the lone '<' and the ampersand survive (decision 0017).
    expect(csv).toContain("Niamh O'Connor,niamh+beta@example.com,I <3 quiet mornings & sleep,");
    await toast(page, 'Export successful');

    await page.getByRole('button', { name: 'Clear Data' }).click();
    const confirm = page.getByRole('alertdialog');
    await confirm.getByText('Are you sure you want to clear all waitlist data? This cannot be undone.').waitFor();
    await confirm.getByRole('button', { name: 'Clear all entries' }).click();
    await toast(page, 'Waitlist data cleared');
    await page.getByText('No waitlist entries yet').waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });

  it('shows Access Denied, with the role, to a signed-in user who is not an admin', async () => {
    const { page, context } = await openPage(browser);
    await signedInMember(server, context, { name: 'Ben User', email: 'ben@example.com', password: 'quiet-harbour-8' });
    await page.goto(`${server.url}/admin`);
    await page.getByRole('heading', { name: 'Access Denied' }).waitFor();
    await page.getByText('You need administrator privileges to access this dashboard.').waitFor();
    expect(await page.getByTestId('current-role').textContent()).toBe('user');
    expect(await page.getByTestId('security-status').textContent()).toBe('Standard User');
    expect(await page.getByRole('tab').count()).toBe(0);
    expect(await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admin' }).count()).toBe(0);
    // The server refuses too, whatever the page shows.
    expect((await context.request.get(`${server.url}/api/admin/waitlist`)).status()).toBe(403);
    await context.close();
  });
  it('shows the admin a member probing six admin routes as one admin_privilege_escalation row with its count', async () => {
    const member = await openPage(browser);
    await signedInMember(server, member.context, { name: 'Pip Probe', email: 'pip@example.com', password: 'quiet-harbour-5' });
    const probes = ['/api/admin/roles', '/api/admin/audit', '/api/admin/waitlist', '/api/admin/csrf', '/api/admin/security-logs', '/api/admin/users'];
    for (const path of probes) expect([403, 404]).toContain((await member.context.request.get(`${server.url}${path}`)).status());
    await member.context.close();

    const { page, context } = await openPage(browser);
    await signIn(page, server, 'ada@example.com', 'quiet-harbour-9');
    await page.goto(`${server.url}/admin`);
    await page.getByRole('tab', { name: 'Security Log' }).click();
    // The probe row itself (the critical security_alert it raised names the same type, without a count).
    const count = page.getByLabel(/^\d+ times$/);
    const row = page.getByRole('list', { name: 'Security events' }).getByRole('listitem').filter({ hasText: 'admin_privilege_escalation' }).filter({ has: count }).first();
    await row.waitFor();
    // One row per source and burst, with how many times (an earlier refusal from this address may share it).
    const times = Number(/^(\d+) times$/.exec((await row.getByLabel(/^\d+ times$/).getAttribute('aria-label')) ?? '')?.[1]);
    expect(times).toBeGreaterThanOrEqual(probes.length);
    await context.close();
  });

  it('assigns a role in the User Roles tab; the editor then manages meditations (and programmes) only; revoking ends it', async () => {
    const { page, context, problems } = await openPage(browser);
    await signIn(page, server, 'ada@example.com', 'quiet-harbour-9');
    await page.goto(`${server.url}/admin`);
    await page.getByRole('tab', { name: 'User Roles' }).click();
    const assign = page.getByRole('region', { name: 'Assign a role' });
    await assign.getByLabel('Email').fill('ada@example.com');
    await assign.getByLabel('Role').selectOption('user');
    await assign.getByRole('button', { name: 'Assign role' }).click();
    await toast(page, 'Cannot assign roles to your own account after initial setup');
    await assign.getByLabel('Email').fill('nobody@example.com');
    await assign.getByRole('button', { name: 'Assign role' }).click();
    await toast(page, 'Feature Limited');
    await assign.getByLabel('Email').fill('ben@example.com');
    await assign.getByLabel('Role').selectOption('editor');
    await assign.getByRole('button', { name: 'Assign role' }).click();
    await toast(page, 'Role assigned successfully');
    const records = page.getByTestId('role-record');
    await records.filter({ hasText: 'ben@example.com' }).getByText('editor').waitFor();
    expect(await records.filter({ hasText: 'ada@example.com' }).getByRole('button', { name: /Revoke/ }).isDisabled()).toBe(true);

    const { page: editor, context: editorContext } = await openPage(browser);
    await signIn(editor, server, 'ben@example.com', 'quiet-harbour-8');
    await editor.goto(`${server.url}/admin`);
    await editor.getByRole('region', { name: 'Upload a meditation' }).waitFor();
    // Editors manage the catalogue and the programmes made of it (decision 0051), nothing else.
    expect(await editor.getByRole('tab').allTextContents()).toEqual(['Meditations', 'Programmes']);
    expect((await editorContext.request.get(`${server.url}/api/admin/waitlist`)).status()).toBe(403);

    await records.filter({ hasText: 'ben@example.com' }).getByRole('button', { name: 'Revoke editor from ben@example.com' }).click();
    await toast(page, 'Role revoked successfully');
    await records.filter({ hasText: 'ben@example.com' }).waitFor({ state: 'detached' });
    await editor.reload();
    await editor.getByRole('heading', { name: 'Access Denied' }).waitFor();
    await editorContext.close();
    // The refused assignments above answer 403/404 on purpose; the browser logs those responses.
    expect(problems.filter((p) => !/status of 403/.test(p))).toEqual([]);
    await context.close();
  });
});

describe('a fresh install', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startServer();
    return () => server.stop();
  });

  it('lets the first user become admin only with the token printed at start', async () => {
    const token = /setup token: (hm-setup-[A-Za-z0-9_-]+)/.exec(server.logs())?.[1];
    expect(token).toBeTruthy();
    const { page, context } = await openPage(browser);
    await signedInMember(server, context, { name: 'Fern Founder', password: 'quiet-harbour-7' });
    await page.goto(`${server.url}/admin`);
    const setup = page.getByRole('region', { name: 'Admin Setup' });
    await setup.getByLabel('Setup token').fill('hm-setup-guess');
    await setup.getByRole('button', { name: 'Grant me admin access' }).click();
    await toast(page, 'Role Refresh Failed');
    await setup.getByLabel('Setup token').fill(token!);
    await setup.getByRole('button', { name: 'Grant me admin access' }).click();
    await toast(page, 'Role Status Refreshed');
    await page.getByRole('tab', { name: 'User Roles' }).waitFor();
    await page.getByRole('tab', { name: 'Setup' }).click();
    expect(await page.getByTestId('security-status').textContent()).toBe('Verified Admin');
    await page.getByText('An administrator already exists').waitFor();
    await context.close();
  });
});

describe('a killed upload', () => {
  it('leaves no temporary part, stored file or row once the server restarts', async () => {
    const dataDir = startedDataDir();
    let server = await startServer({}, { dataDir, keepData: true });
    await serverCommand(server, ['create-user', 'kim@example.com', 'quiet-harbour-6', '--name', 'Kim Admin', '--verified']);
    await serverCommand(server, ['grant-role', 'kim@example.com', 'admin']);
    const signIn = await fetch(`${server.url}/api/auth/sign-in/email`, { method: 'POST', headers: { 'content-type': 'application/json', origin: server.url }, body: JSON.stringify({ email: 'kim@example.com', password: 'quiet-harbour-6' }) });
    const cookie = cookieHeader(signIn.headers.getSetCookie());
    const countBefore = ((await (await fetch(`${server.url}/api/meditations?category=all`)).json()) as { meditations: unknown[] }).meditations.length;
    const filesBefore = readdirSync(join(dataDir, 'media', 'meditations')).length;

    // Start a 20 MB multipart upload, send half of it, then kill the server.
    const boundary = 'hm-killed-upload';
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\nHalf Sent\r\n--${boundary}\r\nContent-Disposition: form-data; name="categories"\r\n\r\nsleeping\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="half.mp3"\r\nContent-Type: audio/mpeg\r\n\r\n`,
    );
    const req = request(`${server.url}/api/admin/meditations`, { method: 'POST', headers: { cookie, origin: server.url, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': head.length + 20 * 1024 * 1024 + 40 } });
    req.on('error', () => undefined);
    req.write(head);
    req.write(Buffer.alloc(10 * 1024 * 1024, 0x55));
    const uploads = join(dataDir, 'uploads');
    await expect.poll(() => (existsSync(uploads) ? readdirSync(uploads, { recursive: true }).filter((n) => String(n).endsWith('.part')).length : 0), { timeout: 10_000 }).toBe(1);
    await server.kill();
    req.destroy();

    server = await startServer({}, { dataDir });
    try {
      expect(readdirSync(uploads, { recursive: true }).filter((n) => String(n).endsWith('.part'))).toEqual([]);
      expect(readdirSync(join(dataDir, 'media', 'meditations')).length).toBe(filesBefore);
      const after = (await (await fetch(`${server.url}/api/meditations?category=all`)).json()) as { meditations: { title: string }[] };
      expect(after.meditations.length).toBe(countBefore);
      expect(after.meditations.some((m) => m.title === 'Half Sent')).toBe(false);
    } finally {
      await server.stop();
    }
  });
});
