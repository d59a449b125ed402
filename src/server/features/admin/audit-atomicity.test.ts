/**
 * An audited change and its audit row are one transaction: when the audit row cannot be written, the
 * change does not happen either. The audit insert is made to fail for real: the acting admin's id is
 * not a user, so PostgreSQL refuses the row (admin_audit_log.admin_user_id references user.id).
 */
import { randomUUID } from 'node:crypto';
import { copyFileSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminAuditLog } from '#server/db/schema/admin.ts';
import { user, userRoles } from '#server/db/schema/auth.ts';
import { meditationContent, meditationPreviews } from '#server/db/schema/catalogue.ts';
import { updateMeditation } from '#server/features/admin/admin-meditations.service.ts';
import { createMeditationFromUpload, deleteMeditation, processTempDir } from '#server/features/admin/meditation-upload.service.ts';
import type { ActingContext } from '#server/features/admin/request-context.ts';
import { assignRole, changeRole, revokeRole } from '#server/features/admin/roles.service.ts';
import { buildMeditation } from '#tests/factories.ts';
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts';
import { testDatabaseKinds } from '#tests/setup/test-db.ts';

describe.each(testDatabaseKinds())('audited changes on %s', (kind) => {
  let t: TestApp;
  let admin: ActingContext;
  /** An admin whose audit rows cannot be written. */
  let ghost: ActingContext;

  const makeUser = async (email: string) => {
    const [row] = await t.database.db.insert(user).values({ id: randomUUID(), name: 'Pat Doe', email }).returning();
    return row;
  };
  const roleOf = async (userId: string) => (await t.database.db.select().from(userRoles).where(eq(userRoles.userId, userId))).at(0)?.role;
  /** The failure must be the audit row's foreign key (SQLSTATE 23503), possibly wrapped by drizzle, not anything else. */
  const refusedAuditRow = async (change: Promise<unknown>) => {
    const error: unknown = await change.then(() => undefined, (e: unknown) => e);
    const codes: unknown[] = [];
    for (let e = error as { code?: unknown; cause?: unknown } | undefined; e; e = e.cause as typeof e) codes.push(e.code);
    expect(codes).toContain('23503');
  };
  const auditFor = (targetId: string) => t.database.db.select().from(adminAuditLog).where(eq(adminAuditLog.targetId, targetId));

  beforeAll(async () => {
    t = await createTestApp({ kind });
    const person = await makeUser('atomic-admin@example.com');
    admin = { actor: { id: person.id, email: person.email, role: 'admin' }, ip: '203.0.113.5', userAgent: 'vitest' };
    ghost = { ...admin, actor: { id: 'no-such-user', email: 'ghost@example.com', role: 'admin' } };
  });
  afterAll(() => t.close());

  it('writes the role change and its audit row together', async () => {
    const target = await makeUser('atomic-target-1@example.com');
    await expect(changeRole({ db: t.database.db, by: admin, email: target.email, role: 'editor' })).resolves.toEqual({ status: 'assigned' });
    expect(await roleOf(target.id)).toBe('editor');
    expect((await auditFor(target.id)).map((a) => a.action)).toEqual(['role.assign']);
  });

  it('leaves the role as it was when its audit row cannot be written', async () => {
    const target = await makeUser('atomic-target-2@example.com');
    await refusedAuditRow(changeRole({ db: t.database.db, by: ghost, email: target.email, role: 'admin' }));
    expect(await roleOf(target.id)).toBeUndefined();

    await assignRole({ db: t.database.db, userId: target.id, role: 'editor', assignedBy: null });
    await refusedAuditRow(changeRole({ db: t.database.db, by: ghost, email: target.email, role: 'admin' }));
    expect(await roleOf(target.id)).toBe('editor');

    const [record] = await t.database.db.select().from(userRoles).where(eq(userRoles.userId, target.id));
    await refusedAuditRow(revokeRole({ db: t.database.db, by: ghost, id: record.id }));
    expect(await roleOf(target.id)).toBe('editor');
    expect(await auditFor(target.id)).toEqual([]);
  });

  it('leaves a meditation as it was when the audit row of an edit or delete cannot be written', async () => {
    const meditation = await buildMeditation(t.database.db, { title: 'Unchanged' });
    await refusedAuditRow(updateMeditation({ db: t.database.db, by: ghost, id: meditation.id, input: { title: 'Changed', transcript: 'New words.' } }));
    const [preview] = await t.database.db.select().from(meditationPreviews).where(eq(meditationPreviews.id, meditation.id));
    expect(preview.title).toBe('Unchanged');
    const [content] = await t.database.db.select().from(meditationContent).where(eq(meditationContent.meditationId, meditation.id));
    expect(content.transcript).toBeNull();

    await refusedAuditRow(deleteMeditation({ db: t.database.db, storage: t.storage, id: meditation.id, by: ghost }));
    expect(await t.database.db.select().from(meditationPreviews).where(eq(meditationPreviews.id, meditation.id))).toHaveLength(1);
    expect(await t.database.db.select().from(meditationContent).where(eq(meditationContent.meditationId, meditation.id))).toHaveLength(1);
    expect(await auditFor(meditation.id)).toEqual([]);
  });

  it('stores no upload when its audit row cannot be written', async () => {
    const stored = () => readdirSync(join(t.dataDir, 'media', 'meditations'), { withFileTypes: true }).filter((d) => d.isFile()).map((d) => d.name);
    mkdirSync(processTempDir(t.dataDir), { recursive: true });
    const tempPath = join(processTempDir(t.dataDir), 'atomic.part');
    copyFileSync('tests/fixtures/audio/tone-3s.mp3', tempPath);
    mkdirSync(join(t.dataDir, 'media', 'meditations'), { recursive: true });
    const before = stored();
    const input = { title: 'Never Stored', description: '', categories: ['mindfulness'], tags: [], transcript: null, originalName: 'tone.mp3', tempPath };
    await refusedAuditRow(createMeditationFromUpload({ db: t.database.db, storage: t.storage, input, by: ghost }));
    expect(await t.database.db.select().from(meditationPreviews).where(eq(meditationPreviews.title, 'Never Stored'))).toEqual([]);
    expect(stored()).toEqual(before);
  });
});
