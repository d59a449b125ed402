import { eq } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { user } from '#server/db/schema/auth.ts';
import { securityAuditLog } from '#server/db/schema/security.ts';
import { origin, signUp } from '#tests/setup/auth-helpers.ts';
import { freePort } from '#tests/setup/server-process.ts';
import { openForSuite } from '#tests/setup/suite-resource.ts';
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts';
import { createTestDatabase } from '#tests/setup/test-db.ts';

type Received = { to: string; raw: string };

async function startSmtp(port: number, inbox: Received[]): Promise<SMTPServer> {
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (chunk: Buffer) => (raw += chunk.toString()));
      stream.on('end', () => {
        inbox.push({ to: session.envelope.rcptTo.map((r) => r.address).join(','), raw: raw.replace(/=\r?\n/g, '') });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return server;
}

/** For vi.waitFor: the value once it exists; until then a throw, which makes vi.waitFor try again. */
function present<T>(value: T | undefined): T {
  if (value === undefined) throw new Error('not yet');
  return value;
}

// An app per test (each has its own SMTP_URL) over one database: each signs up a person of its own.
const database = openForSuite(() => createTestDatabase('pglite'));
let t: TestApp | undefined;
let smtp: SMTPServer | undefined;
afterEach(async () => {
  await t?.close();
  await new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve()));
  t = undefined;
  smtp = undefined;
});

describe('mail over SMTP', () => {
  it('delivers the branded verification mail (text and HTML) to a real SMTP server', async () => {
    const port = await freePort();
    const inbox: Received[] = [];
    smtp = await startSmtp(port, inbox);
    t = await createTestApp({ database, env: { SMTP_URL: `smtp://127.0.0.1:${port}?ignoreTLS=true` } });
    const res = await signUp(t, { name: 'Iris Moon', email: 'iris@example.com', password: 'harbour-1' });
    expect(res.statusCode).toBe(200);
    const mail = await vi.waitFor(() => present(inbox.find((m) => m.to === 'iris@example.com')), { timeout: 10_000 });
    expect(mail.raw).toContain('Subject: Confirm your e-mail for Harbour Mind');
    expect(mail.raw).toContain('text/plain');
    expect(mail.raw).toContain('text/html');
    expect(mail.raw).toMatch(/\/api\/auth\/verify-email\?token=/);
  });

  it('keeps the sign-up when SMTP is down, and the mail can be re-sent once it is back', async () => {
    const port = await freePort(); // nothing listens yet
    t = await createTestApp({ database, env: { SMTP_URL: `smtp://127.0.0.1:${port}?ignoreTLS=true` } });
    const res = await signUp(t, { name: 'Jack Frost', email: 'jack@example.com', password: 'harbour-1' });
    expect(res.statusCode).toBe(200);
    const [row] = await t.database.db.select().from(user).where(eq(user.email, 'jack@example.com'));
    expect(row).toBeDefined();
    const failure = await vi.waitFor(async () => present((await t!.database.db.select().from(securityAuditLog).where(eq(securityAuditLog.eventType, 'mail_delivery_failed'))).at(0)), { timeout: 15_000, interval: 100 });
    expect(failure.userEmail).toBe('jack@example.com');

    const inbox: Received[] = [];
    smtp = await startSmtp(port, inbox);
    const resend = await t.app.inject({
      method: 'POST',
      url: '/api/auth/send-verification-email',
      headers: origin(t),
      payload: { email: 'jack@example.com', callbackURL: '/sign-in?verified=1' },
    });
    expect(resend.statusCode).toBe(200);
    const mail = await vi.waitFor(() => present(inbox.find((m) => m.to === 'jack@example.com')), { timeout: 10_000 });
    expect(mail.raw).toMatch(/verify-email\?token=/);
  });
});
