/**
 * No secret reaches the log: a whole journey (sign-up, verification, password reset, checkout,
 * playback) runs with the log captured at its most talkative level, and nothing issued during it
 * (tokens, signatures, passwords, session ids, checkout ids) may appear in what was written.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { session } from '#server/db/schema/auth.ts';
import { redactPath } from '#server/request-log.ts';
import { origin, signedInBrowser, signUp } from '#tests/setup/auth-helpers.ts';
import { buildMeditation } from '#tests/factories.ts';
import { waitForMail } from '#tests/setup/outbox.ts';
import { captureLog, createTestApp, type TestApp } from '#tests/setup/test-app.ts';

describe('secrets stay out of the log', () => {
  let t: TestApp;
  const { lines, stream } = captureLog();
  beforeAll(async () => {
    t = await createTestApp({ logger: { level: 'trace', stream } });
  });
  afterAll(() => t.close());

  it('logs route patterns, never a token, signature, password or session id issued during a journey', async () => {
    const secrets = new Set<string>();
    const password = 'first-Secret-pass-1';
    const newPassword = 'second-Secret-pass-2';
    secrets.add(password).add(newPassword);

    expect((await signUp(t, { name: 'Lena Log', email: 'lena@example.com', password })).statusCode).toBe(200);
    const verifyMail = await waitForMail(t.dataDir, 'lena@example.com', /Confirm your e-mail/);
    const verifyLink = new URL(verifyMail.links.find((l) => l.includes('/api/auth/verify-email'))!);
    secrets.add(verifyLink.searchParams.get('token')!);
    expect((await t.app.inject({ method: 'GET', url: verifyLink.pathname + verifyLink.search })).statusCode).toBeLessThan(400);

    const resetRequest = await t.app.inject({ method: 'POST', url: '/api/auth/request-password-reset', headers: origin(t), payload: { email: 'lena@example.com', redirectTo: '/reset-password' } });
    expect(resetRequest.statusCode).toBe(200);
    const resetMail = await waitForMail(t.dataDir, 'lena@example.com', /Reset your Harbour Mind password/);
    const resetLink = new URL(resetMail.links.find((l) => l.includes('/api/auth/reset-password/'))!);
    const resetToken = resetLink.pathname.split('/').pop()!;
    secrets.add(resetToken);
    // Opening the link puts the token in the request path: the case that leaked.
    const opened = await t.app.inject({ method: 'GET', url: resetLink.pathname + resetLink.search });
    expect(opened.statusCode).toBe(302);
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/reset-password', headers: origin(t), payload: { token: resetToken, newPassword } })).statusCode).toBe(200);

    const lena = await signedInBrowser(t, 'lena@example.com', newPassword);
    for (const part of lena.cookie().split('; ')) secrets.add(decodeURIComponent(part.split('=')[1]).split('.')[0]);

    const post = (url: string, payload: Record<string, unknown> = {}) => lena.inject({ method: 'POST', url, payload });
    const checkout = await post('/api/billing/checkout', { plan: 'monthly' });
    expect(checkout.statusCode).toBe(200);
    const checkoutId = new URL(checkout.json().url, t.config.publicUrl).searchParams.get('session_id')!;
    secrets.add(checkoutId);
    expect((await lena.inject({ method: 'GET', url: `/api/billing/sandbox/sessions/${checkoutId}` })).statusCode).toBe(200);
    expect((await post(`/api/billing/sandbox/sessions/${checkoutId}/complete`)).statusCode).toBe(200);

    const meditation = await buildMeditation(t.database.db);
    const playback = await lena.inject({ method: 'GET', url: `/api/meditations/${meditation.id}/playback` });
    expect(playback.statusCode).toBe(200);
    const mediaUrl = new URL(playback.json().url, t.config.publicUrl);
    for (const value of mediaUrl.searchParams.values()) if (value.length >= 16) secrets.add(value);
    await t.app.inject({ method: 'GET', url: mediaUrl.pathname + mediaUrl.search });

    for (const row of await t.database.db.select().from(session)) secrets.add(row.id).add(row.token);

    const log = lines.join('');
    for (const secret of secrets) {
      expect(secret.length, 'a secret worth looking for').toBeGreaterThanOrEqual(6);
      expect(log.includes(secret), `the log holds a secret issued during the journey (${secret.slice(0, 4)}…)`).toBe(false);
    }
    // The requests were logged, by pattern.
    expect(log).toContain('/api/auth/reset-password/:redacted');
    expect(log).toContain('/api/billing/sandbox/sessions/:id');
    // One line per request, at its end, with everything an operator asks of it.
    const requestLines = lines.flatMap((l) => l.split('\n')).filter(Boolean).map((l) => JSON.parse(l) as { msg: string; req?: { method: string; route: string }; res?: { statusCode: number }; responseTime?: number });
    expect(requestLines.some((l) => l.msg === 'incoming request')).toBe(false);
    const completed = requestLines.filter((l) => l.msg === 'request completed');
    expect(completed.length).toBeGreaterThan(5);
    for (const line of completed) expect(line).toMatchObject({ req: { method: expect.any(String), route: expect.any(String) }, res: { statusCode: expect.any(Number) }, responseTime: expect.any(Number) });
  });

  it('redacts identifier-like path segments of wildcard and unknown routes', () => {
    expect(redactPath('/api/auth/reset-password/AbCdEf0123456789xyzQ')).toBe('/api/auth/reset-password/:redacted');
    expect(redactPath('/meditations/all')).toBe('/meditations/all');
  });
});
