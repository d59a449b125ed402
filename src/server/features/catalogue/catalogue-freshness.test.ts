/**
 * The prepared catalogue is never served stale: an editor's change through the API shows at once
 * in that process, a write by anyone else (SQL, the CLI, another process) through the database's
 * NOTIFY, and on PostgreSQL a second process sees the first one's change within moments.
 */
import { eq } from 'drizzle-orm';
import { inject, describe, expect, it, vi } from 'vitest';
import type { ListMeditationsResponse } from '#shared/contracts/catalogue.ts';
import { buildApp, type App } from '#server/app.ts';
import { loadConfig } from '#server/config.ts';
import { openPostgres } from '#server/db/client.ts';
import { meditationPreviews } from '#server/db/schema/catalogue.ts';
import { openMediaStorage } from '#server/startup.ts';
import { buildMeditation } from '#tests/factories.ts';
import { origin, createSignedInStaff } from '#tests/setup/auth-helpers.ts';
import { openForSuite } from '#tests/setup/suite-resource.ts';
import { createTestApp } from '#tests/setup/test-app.ts';
import { createThrowawayPostgres, testDatabaseKinds } from '#tests/setup/test-db.ts';
import { TEST_PG_CONNECT_TIMEOUT_MS } from '#tests/setup/postgres-database.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const titles = (body: string) => (JSON.parse(body) as ListMeditationsResponse).meditations.map((m) => m.title);
const getList = (app: App, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url: '/api/meditations?category=all', headers });

describe.each(testDatabaseKinds())('catalogue freshness on %s', (kind) => {
  const t = openForSuite(() => createTestApp({ kind }));

  it('revalidates with the ETag, and an edit or delete through the API shows on the next read', async () => {
    const first = await buildMeditation(t.database.db, { title: 'Harbour lights', category: 'sleeping', categories: ['sleeping'] });
    const admin = await createSignedInStaff(t, 'editor-fresh@example.com', 'admin');
    const headers = { cookie: admin.cookie, ...origin(t) };

    const before = await getList(t.app);
    expect(titles(before.body)).toContain('Harbour lights');
    const etag = before.headers.etag as string;
    expect((await getList(t.app, { 'if-none-match': etag })).statusCode).toBe(304);
    // The card is prepared too.
    expect((await t.app.inject({ url: `/api/meditations/${first.id}` })).json()).toMatchObject({ meditation: { title: 'Harbour lights' } });

    const edit = await t.app.inject({ method: 'PATCH', url: `/api/admin/meditations/${first.id}`, headers, payload: { title: 'Harbour at dawn' } });
    expect(edit.statusCode).toBe(200);
    const after = await getList(t.app, { 'if-none-match': etag });
    expect(after.statusCode).toBe(200);
    expect(after.headers.etag).not.toBe(etag);
    expect(titles(after.body)).toContain('Harbour at dawn');
    expect(titles(after.body)).not.toContain('Harbour lights');
    expect((await t.app.inject({ url: `/api/meditations/${first.id}` })).json()).toMatchObject({ meditation: { title: 'Harbour at dawn' } });

    expect((await t.app.inject({ method: 'DELETE', url: `/api/admin/meditations/${first.id}`, headers })).statusCode).toBe(200);
    expect(titles((await getList(t.app)).body)).not.toContain('Harbour at dawn');
    expect((await t.app.inject({ url: `/api/meditations/${first.id}` })).statusCode).toBe(404);
  });

  it('hears a write that did not come through the API (the database notifies every listener)', async () => {
    await getList(t.app); // prepared and kept
    const added = await buildMeditation(t.database.db, { title: 'Written by hand', category: 'morning', categories: ['morning'] });
    await vi.waitFor(async () => expect(titles((await getList(t.app)).body)).toContain('Written by hand'), { timeout: 5000, interval: 20 });
    await t.database.db.update(meditationPreviews).set({ title: 'Rewritten by hand' }).where(eq(meditationPreviews.id, added.id));
    await vi.waitFor(async () => expect(titles((await getList(t.app)).body)).toContain('Rewritten by hand'), { timeout: 5000, interval: 20 });
  });

  it('keeps only the app’s own listings: any other slug is answered but not prepared', async () => {
    const res = await t.app.inject({ url: '/api/meditations?category=made-up-slug' });
    expect(res.statusCode).toBe(200);
    expect(res.headers.etag).toBeUndefined();
  });
});

describe.runIf(inject('postgresUrl'))('two processes on one PostgreSQL database', () => {
  it('serves the other process’s change within moments, never the old list for long', async () => {
    const database = await createThrowawayPostgres('hm_fresh', { migrated: false });
    const dataDir = mkdtempSync(join(tmpdir(), 'hm-fresh-'));
    const open = async () => {
      const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'silent' }, { webDistDir: join(dataDir, 'no-web-build') });
      const handle = openPostgres(database.url, 2, { connectTimeoutMs: TEST_PG_CONNECT_TIMEOUT_MS });
      const app = await buildApp({ config, database: handle, storage: openMediaStorage(config), logger: false });
      await app.ready();
      return { app, handle };
    };
    const a = await open();
    await a.handle.migrate();
    const b = await open();
    try {
      const row = await buildMeditation(a.handle.db, { title: 'One harbour', category: 'anxiety', categories: ['anxiety'] });
      await vi.waitFor(async () => expect(titles((await getList(b.app)).body)).toContain('One harbour'), { timeout: 5000, interval: 20 });
      // B now holds a prepared list; A's change must reach it.
      await a.handle.db.update(meditationPreviews).set({ title: 'Two harbours' }).where(eq(meditationPreviews.id, row.id));
      await vi.waitFor(async () => expect(titles((await getList(b.app)).body)).toContain('Two harbours'), { timeout: 5000, interval: 20 });
    } finally {
      await a.app.close();
      await b.app.close();
      await a.handle.close();
      await b.handle.close();
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
