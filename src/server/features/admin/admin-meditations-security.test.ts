/**
 * Issue 33, row 14: a title that is only markup passes the checks (they read it as sent) and was
 * stored as an empty title. An edit or an upload whose title sanitises to nothing is refused with the
 * spec's required-fields message, and nothing changes.
 */
import { readFileSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { UPLOAD_MESSAGES } from '#shared/uploads.ts';
import { adminAuditLog } from '#server/db/schema/admin.ts';
import { meditationPreviews } from '#server/db/schema/catalogue.ts';
import { buildMeditation } from '#tests/factories.ts';
import { origin } from '#tests/setup/auth-helpers.ts';
import { openUploadSuite } from '#server/features/admin/upload-test-support.ts';

const MP3 = readFileSync('tests/fixtures/audio/tone-3s.mp3');
const EMPTY_AFTER_SANITISING = ['<b></b>', '<i> </i>', '<span></span>\n'];

describe('meditation titles that sanitise to nothing', () => {
  const { t, session, upload } = openUploadSuite('title-editor@example.com', 'editor');

  it('refuses an edit whose title is only markup, and keeps the title and the audit log as they were', async () => {
    const meditation = await buildMeditation(t.database.db, { title: 'Harbour Light' });
    for (const title of EMPTY_AFTER_SANITISING) {
      const res = await t.app.inject({ method: 'PATCH', url: `/api/admin/meditations/${meditation.id}`, headers: { ...origin(t), cookie: session.cookie }, payload: { title } });
      expect(res.statusCode, JSON.stringify(title)).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'validation/invalid-input', message: UPLOAD_MESSAGES.required });
    }
    const [row] = await t.database.db.select({ title: meditationPreviews.title }).from(meditationPreviews).where(eq(meditationPreviews.id, meditation.id));
    expect(row.title).toBe('Harbour Light');
    expect(await t.database.db.select().from(adminAuditLog).where(eq(adminAuditLog.targetId, meditation.id))).toEqual([]);
    // A real title with markup around it is still taken, as plain text.
    const ok = await t.app.inject({ method: 'PATCH', url: `/api/admin/meditations/${meditation.id}`, headers: { ...origin(t), cookie: session.cookie }, payload: { title: '<b>Harbour</b> Dusk' } });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().meditation.title).toBe('Harbour Dusk');
  });

  it('refuses an upload whose title is only markup, and stores nothing', async () => {
    const before = await t.database.db.select({ id: meditationPreviews.id }).from(meditationPreviews);
    const res = await upload({ title: '<b></b>', file: { name: 'tone.mp3', type: 'audio/mpeg', bytes: MP3 } });
    expect(res.status).toBe(400);
    expect(res.body.error?.message).toBe(UPLOAD_MESSAGES.required);
    expect(await t.database.db.select({ id: meditationPreviews.id }).from(meditationPreviews)).toEqual(before);
  });
});
