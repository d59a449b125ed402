/** Rows for tests to own. Each factory inserts and returns what it made. */
import { randomUUID } from 'node:crypto';
import { makeSignature } from 'better-auth/crypto';
import type { Database } from '#server/db/client.ts';
import { meditationContent, meditationPreviews } from '#server/db/schema/catalogue.ts';
import type { TestApp } from '#tests/setup/test-app.ts';

let counter = 0;

export async function buildMeditation(
  db: Database,
  overrides: Partial<typeof meditationPreviews.$inferInsert> & { transcript?: string | null; withContent?: boolean } = {},
) {
  counter += 1;
  const { transcript = null, withContent = true, ...preview } = overrides;
  const categories = preview.categories ?? [preview.category ?? 'mindfulness'];
  const [row] = await db
    .insert(meditationPreviews)
    .values({
      id: randomUUID(),
      title: `Test meditation ${counter}`,
      description: `A calm test description ${counter}.`,
      duration: '5 min',
      durationSeconds: 300,
      category: categories[0],
      categories,
      tags: [],
      createdAt: new Date(Date.UTC(2025, 0, 1) + counter * 60_000),
      ...preview,
    })
    .returning();
  if (withContent) {
    await db.insert(meditationContent).values({
      meditationId: row.id,
      storageKey: `${randomUUID()}.mp3`,
      audioFileName: 'test.mp3',
      audioFileType: 'audio/mpeg',
      audioFileSize: 1234,
      transcript,
    });
  }
  return row;
}

const DEFAULT_PASSWORD = 'calm-waters-1';
/** Hashing is deliberately slow (scrypt): the default password's hash is made once per test process. */
let defaultPasswordHash: Promise<string> | undefined;
let userCounter = 0;

/**
 * A verified user who can sign in with `password`, made through better-auth's own adapter (its rows
 * and database hooks, no HTTP, no e-mail): for tests about what a user does, not how they joined.
 */
export async function buildUser(t: TestApp, { email, name = 'Sam Jones', password = DEFAULT_PASSWORD }: { email?: string; name?: string; password?: string } = {}) {
  userCounter += 1;
  const ctx = await t.app.auth.$context;
  const user = await ctx.internalAdapter.createUser({ email: (email ?? `user-${userCounter}-${randomUUID().slice(0, 8)}@example.com`).toLowerCase(), name, emailVerified: true }, { method: 'test' });
  const hash = password === DEFAULT_PASSWORD ? (defaultPasswordHash ??= ctx.password.hash(password)) : ctx.password.hash(password);
  await ctx.internalAdapter.linkAccount({ userId: user.id, providerId: 'credential', accountId: user.id, password: await hash });
  return user;
}

/** A signed-in session for the user: the Cookie header a browser would send after signing in. */
export async function buildSession(t: TestApp, userId: string) {
  const ctx = await t.app.auth.$context;
  const session = await ctx.internalAdapter.createSession(userId);
  const signed = `${session.token}.${await makeSignature(session.token, ctx.secret)}`;
  return { cookie: `${ctx.authCookies.sessionToken.name}=${encodeURIComponent(signed)}`, userId, token: session.token };
}
