/**
 * Two processes behind a load balancer, for real (issue 13, item 5; recipe in docs/cluster.md).
 * nginx round-robins between two app processes that share one PostgreSQL database, one Redis and
 * one S3-compatible bucket, each with its own DATA_DIR. The main journeys go through the proxy;
 * where it matters which process answers, requests go to each upstream directly with the same
 * session. nginx's access log says which upstream served each proxied request.
 *
 * Run with `npm run test:cluster` (installs nginx when missing); not part of `npm test`.
 */
import { readFileSync, rmSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import pg from 'pg';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { readOutbox, type OutboxMail } from '#tests/setup/outbox.ts';
import { launchBrowser, openPage } from '#tests/e2e/support/browser.ts';
import { setUpJournal } from '#tests/e2e/support/journal.ts';
import { startFakeS3 } from '#tests/fakes/fake-s3.ts';
import { makeDataDir, startServer, type RunningServer } from '#tests/setup/server-process.ts';
import { clusterEnv, createDatabase, newAuthSecret, S3_BUCKET, startCluster, type Cluster } from '#tests/cluster/support/cluster.ts';
import { createClient, multipartBody, type Client } from '#tests/cluster/support/http-client.ts';

const MP3 = readFileSync('tests/fixtures/audio/tone-3s.mp3');
const SIGN_IN = '/api/auth/sign-in/email';

const SEED_COUNT = (JSON.parse(readFileSync('seed/catalogue.json', 'utf8')) as unknown[]).length;

let cluster: Cluster;
/** Each process's own URL, bypassing the proxy. */
let direct: [string, string];

/** A browser-like client on its own loopback address, talking to the proxy unless told otherwise. */
const client = (from: string) => createClient({ base: cluster.proxy.url, origin: cluster.proxy.url, from });

/** Each process writes mail to its own DATA_DIR/outbox: look in both. */
function mailTo(email: string, subject: RegExp): Promise<{ mail: OutboxMail; process: number }> {
  return vi.waitFor(
    () => {
      for (const [index, app] of cluster.apps.entries()) {
        const mail = readOutbox(app.dataDir).find((m) => m.to.includes(email) && subject.test(m.subject));
        if (mail) return { mail, process: index };
      }
      throw new Error(`No mail to ${email} matching ${subject} in either outbox`);
    },
    { timeout: 10_000, interval: 50 },
  );
}

type Person = { name: string; email: string; password: string };

/** Sign-up, the e-mailed link, sign-in: all through the proxy. Returns the process that sent the mail. */
async function signUpVerifySignIn(c: Client, person: Person): Promise<{ userId: string; mailedBy: number }> {
  const signUp = await c.post('/api/auth/sign-up/email', { ...person, callbackURL: '/sign-in?verified=1' });
  expect(signUp.status, signUp.text()).toBe(200);
  const { mail, process } = await mailTo(person.email, /Confirm your e-mail/);
  const link = mail.links.find((l) => l.includes('/api/auth/verify-email'));
  expect(link?.startsWith(`${cluster.proxy.url}/`), `the link goes to PUBLIC_URL (the proxy): ${link}`).toBe(true);
  const verify = await c.get(link!);
  expect(verify.status, verify.text()).toBeLessThan(400);
  const signIn = await c.post(SIGN_IN, { email: person.email, password: person.password });
  expect(signIn.status, signIn.text()).toBe(200);
  return { userId: signIn.json<{ user: { id: string } }>().user.id, mailedBy: process };
}

const sam: Person = { name: 'Sam Harbour', email: 'sam@cluster.example', password: 'calm-waters-1' };
let samClient: Client;
let firstMeditation: string;

describe('two processes behind nginx', () => {
  beforeAll(async () => {
    // startCluster undoes what it started when it fails: only a cluster that started needs stopping.
    cluster = await startCluster();
    direct = [`http://${cluster.upstreams[0]}`, `http://${cluster.upstreams[1]}`];
    return cluster.stop;
  });

  it('start on one database and one bucket: the catalogue seeded by the first is served by both', async () => {
    const lists = await Promise.all(direct.map(async (base) => (await fetch(`${base}/api/meditations?category=all`)).json() as Promise<{ meditations: { id: string; free: boolean }[] }>));
    expect(lists[0].meditations.length).toBeGreaterThan(0);
    expect(lists[1].meditations.map((m) => m.id)).toEqual(lists[0].meditations.map((m) => m.id));
    // A paid one: the free samples play for anyone.
    firstMeditation = lists[0].meditations.find((m) => !m.free)!.id;
    // The demo audio went to the shared bucket, not to a DATA_DIR.
    expect(cluster.s3.objects.size).toBe(lists[0].meditations.length);
    expect(cluster.apps[0].logs()).toMatch(/seeded demo catalogue/);
    expect(cluster.apps[1].logs()).not.toMatch(/seeded demo catalogue/);
  });

  it('sign-up → verify → sign in → subscribe → play → favourite → journal gate, through the proxy', async () => {
    samClient = client('127.0.0.11');
    await signUpVerifySignIn(samClient, sam);

    // Not subscribed yet: the journal's save gate (GET /api/me → subscribed) is closed, playback refused.
    const before = (await samClient.get('/api/me')).json<{ user: { email: string; emailVerified: boolean }; subscribed: boolean }>();
    expect(before.user).toMatchObject({ email: sam.email, emailVerified: true });
    expect(before.subscribed).toBe(false);
    expect((await samClient.get(`/api/meditations/${firstMeditation}/playback`)).status).toBe(403);

    // Sandbox checkout: the session is created on one process and completed on whichever answers next.
    const checkout = await samClient.post('/api/billing/checkout', { plan: 'monthly' });
    expect(checkout.status, checkout.text()).toBe(200);
    const sessionId = new URL(checkout.json<{ url: string }>().url, cluster.proxy.url).searchParams.get('session_id')!;
    const session = await samClient.get(`/api/billing/sandbox/sessions/${sessionId}`);
    expect(session.json()).toMatchObject({ id: sessionId, plan: 'monthly' });
    const complete = await samClient.post(`/api/billing/sandbox/sessions/${sessionId}/complete`);
    expect(complete.status, complete.text()).toBe(200);

    // One session cookie, valid on each process; each sees the subscription (gate open).
    for (const base of direct) {
      const me = (await samClient.get('/api/me', { base })).json<{ subscribed: boolean }>();
      expect(me.subscribed, base).toBe(true);
      expect((await samClient.get('/api/subscription', { base })).json()).toMatchObject({ subscribed: true, mode: 'sandbox' });
    }

    // Play: a signed URL, then the audio from the shared bucket, whole and in ranges.
    const playback = await samClient.get(`/api/meditations/${firstMeditation}/playback`);
    expect(playback.status, playback.text()).toBe(200);
    const { url } = playback.json<{ url: string }>();
    expect(url).toMatch(/^\/media\/meditations\/.+\?exp=\d+&sig=/);
    const audio = await samClient.get(url);
    expect(audio.status).toBe(200);
    expect(audio.headers['content-type']).toMatch(/^audio\//);
    const key = decodeURIComponent(new URL(url, cluster.proxy.url).pathname.split('/').pop()!);
    expect(audio.body.equals(cluster.s3.objects.get(`meditations/${key}`)!.body)).toBe(true);
    const range = await samClient.get(url, { headers: { range: 'bytes=100-1123' } });
    expect(range.status).toBe(206);
    expect(range.body.equals(audio.body.subarray(100, 1124))).toBe(true);

    // Favourite on one process, listed by both.
    const saved = await samClient.request('PUT', `/api/favourites/${firstMeditation}`);
    expect(saved.status, saved.text()).toBe(201);
    for (const base of direct) {
      const list = (await samClient.get('/api/favourites', { base })).json<{ favourites: { meditation: { id: string } }[] }>();
      expect(list.favourites.map((f) => f.meditation.id), base).toEqual([firstMeditation]);
    }
  });

  let admin: Client;

  it('redeems the setup token once across both processes (four users race, through the proxy and to each process)', async () => {
    // Each start prints a token and replaces the unused one: only the last process's token works.
    const tokens = cluster.apps.map((app) => /one-time setup token: (hm-setup-[\w-]+)/.exec(app.logs())?.[1]);
    expect(tokens[0]).toBeTruthy();
    expect(tokens[1]).toBeTruthy();
    expect(tokens[1]).not.toBe(tokens[0]);

    const candidates = await Promise.all(
      ['Ann', 'Bea', 'Cal', 'Dee'].map(async (name, n) => {
        const c = client(`127.0.0.${40 + n}`);
        await signUpVerifySignIn(c, { name: `${name} Candidate`, email: `${name.toLowerCase()}@cluster.example`, password: `setup-harbour-${n}` });
        return c;
      }),
    );
    const stale = await candidates[0].post('/api/admin/setup', { token: tokens[0] });
    expect(stale.status, stale.text()).toBe(403);

    const bases = [direct[0], direct[1], cluster.proxy.url, cluster.proxy.url];
    const answers = await Promise.all(candidates.map((c, i) => c.post('/api/admin/setup', { token: tokens[1] }, { base: bases[i] })));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200), JSON.stringify(answers.map((a) => a.text()))).toHaveLength(1);
    for (const status of statuses.filter((s) => s !== 200)) expect([403, 409]).toContain(status);
    admin = candidates[statuses.indexOf(200)]!;

    // Both processes agree: one admin, and it is the winner.
    for (const base of direct) {
      expect((await admin.get('/api/admin/status', { base })).json()).toMatchObject({ isAdmin: true, adminExists: true });
      for (const loser of candidates.filter((c) => c !== admin)) expect((await loser.get('/api/admin/status', { base })).json()).toMatchObject({ isAdmin: false, adminExists: true });
    }
  });

  let uploaded: { id: string; key: string };

  it('shows an upload made through one process on the other, with its audio in the shared bucket', async () => {
    const form = new FormData();
    form.append('title', 'Harbour Lights');
    form.append('description', 'A short tone, uploaded through the load balancer.');
    form.append('categories', 'mindfulness');
    form.append('file', new Blob([MP3], { type: 'audio/mpeg' }), 'harbour-lights.mp3');
    const { body, contentType } = await multipartBody(form);
    const upload = await admin.request('POST', '/api/admin/meditations', { body, headers: { 'content-type': contentType } });
    expect(upload.status, upload.text()).toBe(201);
    const id = upload.json<{ meditation: { id: string } }>().meditation.id;

    // Which process took it (nginx's log), then the other one, and both, directly.
    const uploads = () => cluster.proxy.accessLog().filter((e) => e.method === 'POST' && e.uri === '/api/admin/meditations');
    await expect.poll(() => uploads().length).toBe(1);
    const took = uploads()[0];
    const other = cluster.upstreams[0] === took.upstream ? 1 : 0;
    expect(cluster.upstreams).toContain(took.upstream);
    for (const base of [direct[other], ...direct]) {
      const one = await fetch(`${base}/api/meditations/${id}`);
      expect(one.status, base).toBe(200);
      expect(((await one.json()) as { meditation: { title: string } }).meditation.title).toBe('Harbour Lights');
      const all = (await (await fetch(`${base}/api/meditations?category=all`)).json()) as { meditations: { id: string }[] };
      expect(all.meditations.some((m) => m.id === id), base).toBe(true);
      const staff = (await admin.get('/api/admin/meditations', { base })).json<{ meditations: { id: string; fileSizeBytes: number }[] }>();
      expect(staff.meditations.find((m) => m.id === id)?.fileSizeBytes, base).toBe(MP3.length);
    }

    // Minted by the process that did not take the upload, the URL plays the file from the bucket.
    const playback = (await samClient.get(`/api/meditations/${id}/playback`, { base: direct[other] })).json<{ url: string }>();
    const key = decodeURIComponent(new URL(playback.url, cluster.proxy.url).pathname.split('/').pop()!);
    expect(cluster.s3.objects.get(`meditations/${key}`)?.body.equals(MP3)).toBe(true);
    const audio = await samClient.get(playback.url, { base: direct[1 - other] });
    expect(audio.status).toBe(200);
    expect(audio.body.equals(MP3)).toBe(true);
    uploaded = { id, key };
  });

  it('serves a signed media URL minted by one process from the other, and refuses a tampered one on both', async () => {
    for (const [mint, serve] of [
      [0, 1],
      [1, 0],
    ] as const) {
      const playback = await samClient.get(`/api/meditations/${uploaded.id}/playback`, { base: direct[mint] });
      expect(playback.status).toBe(200);
      const { url } = playback.json<{ url: string }>();
      // Without the session cookie: the URL alone is the permission (HMAC over key and expiry, one shared secret).
      const anonymous = client('127.0.0.12');
      const whole = await anonymous.get(url, { base: direct[serve] });
      expect(whole.status, `minted by ${mint}, served by ${serve}`).toBe(200);
      expect(whole.body.equals(MP3)).toBe(true);
      const part = await anonymous.get(url, { base: direct[serve], headers: { range: 'bytes=0-511' } });
      expect(part.status).toBe(206);
      expect(part.headers['content-range']).toBe(`bytes 0-511/${MP3.length}`);

      const sig = new URL(url, cluster.proxy.url).searchParams.get('sig')!;
      const forged = url.replace(`sig=${sig}`, `sig=${sig.startsWith('A') ? 'B' : 'A'}${sig.slice(1)}`);
      for (const base of direct) expect((await anonymous.get(forged, { base })).status).toBe(403);
    }
  });

  it('shares the sign-in limit through Redis: 10 failures spread over both processes lock the account on each', async () => {
    const victim: Person = { name: 'Lee Locked', email: 'lee@cluster.example', password: 'right-harbour-1' };
    await signUpVerifySignIn(client('127.0.0.30'), victim);
    const before = cluster.proxy.accessLog().length;

    const attacker = client('127.0.0.31');
    for (let i = 0; i < 10; i++) {
      const wrong = await attacker.post(SIGN_IN, { email: victim.email, password: `wrong-guess-${i}` });
      expect(wrong.status, wrong.text()).toBe(401);
    }
    // nginx logs a request just after answering it: wait for the last lines.
    const failedAttempts = () => cluster.proxy.accessLog().slice(before).filter((e) => e.uri === SIGN_IN && e.remote === '127.0.0.31');
    await expect.poll(() => failedAttempts().length).toBe(10);
    const failures = failedAttempts();
    for (const upstream of cluster.upstreams) expect(failures.filter((e) => e.upstream === upstream).length, upstream).toBeGreaterThanOrEqual(3);

    // The 11th attempt is refused whichever process answers, even with the right password, from
    // another address, with a forged X-Forwarded-For, or sent to a process directly.
    const owner = client('127.0.0.32');
    for (let i = 0; i < 2; i++) {
      const locked = await owner.post(SIGN_IN, { email: victim.email, password: victim.password });
      expect(locked.status, locked.text()).toBe(429);
      expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    }
    const spoofed = await client('127.0.0.33').post(SIGN_IN, { email: victim.email, password: victim.password }, { headers: { 'x-forwarded-for': '203.0.113.9' } });
    expect(spoofed.status).toBe(429);
    for (const base of direct) expect((await client('127.0.0.34').post(SIGN_IN, { email: victim.email, password: victim.password }, { base })).status, base).toBe(429);
    const lockedOutBy = () => new Set(cluster.proxy.accessLog().filter((e) => e.uri === SIGN_IN && e.status === 429).map((e) => e.upstream));
    await expect.poll(() => [...lockedOutBy()].sort()).toEqual([...cluster.upstreams].sort());

    // The counter is Redis's (one per account), not either process's memory.
    expect(Number(await cluster.redis.get(`hm:rl:signin:account:${victim.email}`))).toBeGreaterThan(10);
    // The attacker's address, not nginx's, is what the processes saw (TRUST_PROXY_HOPS=1).
    const db = new pg.Client({ connectionString: cluster.databaseUrl });
    await db.connect();
    try {
      const { rows } = await db.query<{ ip: string; n: string }>(`select ip_address as ip, count(*) as n from security_audit_log where event_type = 'failed_login' and user_email = $1 group by ip_address`, [victim.email]);
      expect(rows).toEqual([{ ip: '127.0.0.31', n: '10' }]);
    } finally {
      await db.end();
    }
  });

  it('walks the listening and journal journey in Chromium through the proxy', async () => {
    let browser: Browser | undefined;
    try {
      browser = await launchBrowser();
      const { page, context, problems } = await openPage(browser);
      await page.goto(`${cluster.proxy.url}/sign-in`);
      await page.getByLabel('Email').fill(sam.email);
      await page.getByLabel('Password', { exact: true }).fill(sam.password);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await page.waitForURL((url) => !url.pathname.startsWith('/sign-in'));

      // Subscribed: the journal saves, once set up (its keyring and sealed record reach either server).
      await page.goto(`${cluster.proxy.url}/journal`);
      await page.getByRole('tab', { name: 'CBT' }).click();
      const cbt = page.getByRole('form', { name: 'CBT entry' });
      await cbt.getByLabel('Thought patterns').fill('Two servers, one harbour.');
      await cbt.getByRole('button', { name: 'Save entry' }).click();
      await setUpJournal(page, 'two servers, one harbour');
      await page.locator('[data-sonner-toast]', { hasText: 'Journal entry saved successfully' }).first().waitFor();
      await page.getByTestId('journal-sync').filter({ hasText: 'Encrypted and synced' }).waitFor();

      // The uploaded meditation plays from the bucket, through the proxy.
      await page.goto(`${cluster.proxy.url}/meditations/mindfulness`);
      const card = page.getByTestId('meditation-card').filter({ hasText: 'Harbour Lights' });
      await card.getByRole('button', { name: 'Harbour Lights', exact: true }).click();
      await page.waitForFunction(
        () => {
          const el = document.querySelector<HTMLAudioElement>('[data-testid="player-audio"]');
          return Boolean(el && !el.paused && el.currentTime > 0.3 && /\/media\/meditations\//.test(el.currentSrc));
        },
        undefined,
        { timeout: 20_000 },
      );
      expect(problems).toEqual([]);
      await context.close();
    } finally {
      await browser?.close();
    }
  });

  it('spread the journeys over both processes (round-robin)', () => {
    const log = cluster.proxy.accessLog();
    const served = cluster.upstreams.map((u) => log.filter((e) => e.upstream === u).length);
    expect(log.every((e) => cluster.upstreams.includes(e.upstream)), 'every proxied request reached one of the two processes').toBe(true);
    for (const count of served) expect(count).toBeGreaterThanOrEqual(log.length * 0.3);
    expect(log.filter((e) => e.status >= 500)).toEqual([]);
    console.log(`nginx: ${log.length} requests; ${cluster.upstreams.map((u, i) => `${u} served ${served[i]}`).join(', ')}`);
  });
});

describe('two processes started at the same moment on an empty database', () => {
  it('both come up: one migrates while the other waits, the catalogue is seeded once, one setup token is live', async () => {
    const database = await createDatabase();
    const s3 = await startFakeS3(S3_BUCKET);
    const env = clusterEnv({ databaseUrl: database.url, authSecret: newAuthSecret(), publicUrl: 'http://127.0.0.1:9', s3Endpoint: s3.endpoint });
    const dataDirs = [makeDataDir(), makeDataDir()];
    const started = await Promise.allSettled(dataDirs.map((dataDir) => startServer(env, { dataDir })));
    const apps = started.filter((s): s is PromiseFulfilledResult<RunningServer> => s.status === 'fulfilled').map((s) => s.value);
    try {
      expect(started.filter((s) => s.status === 'rejected').map((s) => String((s).reason).slice(0, 2000))).toEqual([]);
      for (const app of apps) {
        const list = (await (await fetch(`${app.url}/api/meditations?category=all`)).json()) as { meditations: unknown[] };
        expect(list.meditations).toHaveLength(SEED_COUNT);
      }
      // The loser of each seeding race removed its copy: exactly one object per meditation.
      expect(s3.objects.size).toBe(SEED_COUNT);
      const db = new pg.Client({ connectionString: database.url });
      await db.connect();
      try {
        expect((await db.query('select count(*)::int as n from admin_setup_tokens where used_at is null')).rows).toEqual([{ n: 1 }]);
      } finally {
        await db.end();
      }
    } finally {
      await Promise.all(apps.map((app) => app.stop()));
      // A process that failed to start left its folder behind.
      for (const dataDir of dataDirs) rmSync(dataDir, { recursive: true, force: true });
      await s3.close();
      await database.drop();
    }
  });
});
