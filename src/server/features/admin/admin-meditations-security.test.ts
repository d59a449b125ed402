/**
 * Issue 33, row 14: a title that is only markup passes the checks (they read it as sent) and was
 * stored as an empty title. An edit or an upload whose title sanitises to nothing is refused with the
 * spec's required-fields message, and nothing changes.
 */
import { readFileSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { UPLOAD_MESSAGES } from '#shared/uploads.ts';
import { adminAuditLog } from '#server/db/schema/admin.ts';
import { meditationPreviews } from '#server/db/schema/catalogue.ts';
import { buildMeditation } from '#tests/factories.ts';
import { origin, createSignedInStaff } from '#tests/setup/auth-helpers.ts';
import { openForSuite } from '#tests/setup/suite-resource.ts';
import { createTestApp } from '#tests/setup/test-app.ts';

const MP3 = readFileSync('tests/fixtures/audio/tone-3s.mp3');
const EMPTY_AFTER_SANITISING = ['<b></b>', '<i> </i>', '<span></span>\n'];

describe('meditation titles that sanitise to nothing', () => {
  const t = openForSuite(() => createTestApp());
  let cookie: string;
  let base: string;
  beforeAll(async () => {
    const editor = await createSignedInStaff(t, 'title-editor@example.com', 'editor');
    cookie = editor.cookie;
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });

  it('refuses an edit whose title is only markup, and keeps the title and the audit log as they were', async () => {
    const meditation = await buildMeditation(t.database.db, { title: 'Harbour Light' });
    for (const title of EMPTY_AFTER_SANITISING) {
      const res = await t.app.inject({ method: 'PATCH', url: `/api/admin/meditations/${meditation.id}`, headers: { ...origin(t), cookie }, payload: { title } });
      expect(res.statusCode, JSON.stringify(title)).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'validation/invalid-input', message: UPLOAD_MESSAGES.required });
    }
    const [row] = await t.database.db.select({ title: meditationPreviews.title }).from(meditationPreviews).where(eq(meditationPreviews.id, meditation.id));
    expect(row.title).toBe('Harbour Light');
    expect(await t.database.db.select().from(adminAuditLog).where(eq(adminAuditLog.targetId, meditation.id))).toEqual([]);
    // A real title with markup around it is still taken, as plain text.
    const ok = await t.app.inject({ method: 'PATCH', url: `/api/admin/meditations/${meditation.id}`, headers: { ...origin(t), cookie }, payload: { title: '<b>Harbour</b> Dusk' } });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().meditation.title).toBe('Harbour Dusk');
  });

  it('refuses an upload whose title is only markup, and stores nothing', async () => {
    const before = await t.database.db.select({ id: meditationPreviews.id }).from(meditationPreviews);
    const form = new FormData();
    form.append('title', '<b></b>');
    form.append('description', 'A short, steady practice.');
    form.append('categories', 'mindfulness');
    form.append('file', new Blob([new Uint8Array(MP3)], { type: 'audio/mpeg' }), 'tone.mp3');
    const res = await fetch(`${base}/api/admin/meditations`, { method: 'POST', body: form, headers: { cookie, origin: t.config.publicUrl } });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).toBe(UPLOAD_MESSAGES.required);
    expect(await t.database.db.select({ id: meditationPreviews.id }).from(meditationPreviews)).toEqual(before);
  });
});
