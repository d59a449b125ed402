/** The user and session factories make what better-auth itself would accept, and nothing it would not. */
import { describe, expect, it } from 'vitest';
import { buildSession, buildUser } from '#tests/factories.ts';
import { signIn } from '#tests/setup/auth-helpers.ts';
import { openForSuite } from '#tests/setup/suite-resource.ts';
import { createTestApp } from '#tests/setup/test-app.ts';

describe('buildUser and buildSession', () => {
  const t = openForSuite(() => createTestApp());

  it('makes a verified user who can sign in over HTTP with the password', async () => {
    const user = await buildUser(t, { email: 'Factory@Example.com', password: 'quiet-tide-7' });
    expect(user.emailVerified).toBe(true);
    expect((await signIn(t, 'factory@example.com', 'quiet-tide-7')).statusCode).toBe(200);
    expect((await signIn(t, 'factory@example.com', 'not-the-password')).statusCode).toBe(401);
  });

  it('makes a session cookie the app accepts, and refuses it once tampered with', async () => {
    const user = await buildUser(t, { name: 'Rowan Ash' });
    const { cookie } = await buildSession(t, user.id);
    const me = await t.app.inject({ method: 'GET', url: '/api/me', headers: { cookie } });
    expect(me.json()).toMatchObject({ user: { id: user.id, name: 'Rowan Ash' } });
    expect((await t.app.inject({ method: 'GET', url: '/api/favourites', headers: { cookie } })).statusCode).toBe(200);

    // The signature's first character: its last one carries base64 padding bits, and a lenient
    // decoder reads 'A' and 'B' there as the same bytes (a no-op tamper 1 time in 16).
    const tampered = cookie.replace(/\.(.)([^.]*)$/, (_whole, first: string, rest: string) => `.${first === 'A' ? 'B' : 'A'}${rest}`);
    expect(tampered).not.toBe(cookie);
    expect((await t.app.inject({ method: 'GET', url: '/api/me', headers: { cookie: tampered } })).json()).toMatchObject({ user: null });
    expect((await t.app.inject({ method: 'GET', url: '/api/favourites', headers: { cookie: tampered } })).statusCode).toBe(401);
  });
});
