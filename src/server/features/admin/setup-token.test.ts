/**
 * The one-time admin setup token under attack: several signed-in users redeem the same token at
 * the same moment over real HTTP connections, round after round. Exactly one may become admin.
 */
import { request } from 'node:http';
import { and, eq, isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_MESSAGES as M } from '#shared/admin.ts';
import { adminSetupTokens } from '#server/db/schema/admin.ts';
import { userRoles } from '#server/db/schema/auth.ts';
import { issueSetupToken } from '#server/features/admin/setup-token.service.ts';
import { createSignedInUser } from '#tests/setup/auth-helpers.ts';
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts';
import { testDatabaseKinds } from '#tests/setup/test-db.ts';

const RACERS = 4;
const ROUNDS = 15;

describe.each(testDatabaseKinds())('admin setup token race on %s', (kind) => {
  let t: TestApp;
  let port: number;
  const racers: { cookie: string; userId: string }[] = [];

  beforeAll(async () => {
    t = await createTestApp({ kind });
    for (let i = 0; i < RACERS; i += 1) racers.push(await createSignedInUser(t, `racer-${i}@example.com`));
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = Number(new URL(address).port);
  }, 120_000);
  afterAll(() => t.close());

  /** One POST on its own connection, each racer from its own loopback address (per-IP limits stay apart). */
  const redeem = (cookie: string, token: string, index: number) =>
    new Promise<{ status: number; body: { role?: string; error?: { message: string } } }>((resolve, reject) => {
      const payload = JSON.stringify({ token });
      const req = request(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/api/admin/setup',
          localAddress: `127.0.0.${20 + index}`,
          agent: false,
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload), cookie, origin: t.config.publicUrl },
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text || '{}') }));
        },
      );
      req.on('error', reject);
      req.end(payload);
    });

  it('makes exactly one admin when several users redeem the same token at once', async () => {
    const db = t.database.db;
    for (let round = 0; round < ROUNDS; round += 1) {
      await db.delete(userRoles).where(eq(userRoles.role, 'admin'));
      const token = (await issueSetupToken(db))!;
      expect(token).toBeTruthy();
      const results = await Promise.all(racers.map((r, i) => redeem(r.cookie, token, i)));
      const winners = results.filter((r) => r.status === 200);
      expect(winners, `round ${round}: ${JSON.stringify(results)}`).toHaveLength(1);
      for (const loser of results.filter((r) => r.status !== 200)) {
        expect([403, 409]).toContain(loser.status);
        expect([M.setupTokenInvalid, M.setupDone]).toContain(loser.body.error?.message);
      }
      const admins = await db.select().from(userRoles).where(eq(userRoles.role, 'admin'));
      expect(admins, `round ${round}`).toHaveLength(1);
      const used = await db.select().from(adminSetupTokens).where(and(isNotNull(adminSetupTokens.usedAt)));
      expect(used.filter((u) => u.usedBy === admins[0].userId).length).toBeGreaterThanOrEqual(1);
    }
  }, 120_000);

  it('refuses a used token, a wrong token, and any token once an admin exists', async () => {
    const db = t.database.db;
    await db.delete(userRoles).where(eq(userRoles.role, 'admin'));
    const token = (await issueSetupToken(db))!;
    expect((await redeem(racers[0].cookie, `${token}x`, 0)).status).toBe(403);
    expect((await redeem(racers[0].cookie, token, 0)).status).toBe(200);
    const again = await redeem(racers[1].cookie, token, 1);
    expect(again.status).toBe(409);
    expect(again.body.error?.message).toBe(M.setupDone);
    // An admin appointed some other way (CLI grant-role) also closes an unused token.
    await db.delete(userRoles).where(eq(userRoles.role, 'admin'));
    const fresh = (await issueSetupToken(db))!;
    await db.insert(userRoles).values({ userId: racers[2].userId, role: 'admin', assignedBy: null });
    expect((await redeem(racers[3].cookie, fresh, 3)).status).toBe(409);
    const row = (await db.select().from(userRoles).where(eq(userRoles.userId, racers[3].userId))).at(0);
    expect(row?.role).not.toBe('admin');
  });
});
