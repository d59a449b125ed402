/**
 * The upload suites' set-up (upload.test.ts, admin-meditations-security.test.ts): an app listening on
 * a real socket, because uploads are multipart and are sent as the browser sends them, one staff
 * member signed in, and the admin page's upload form.
 */
import { beforeAll } from 'vitest';
import type { AdminMeditation } from '#shared/contracts/admin.ts';
import { createSignedInStaff } from '#tests/setup/auth-helpers.ts';
import { openForSuite } from '#tests/setup/suite-resource.ts';
import { createTestApp } from '#tests/setup/test-app.ts';

/** What one upload sends; what it leaves out, the helper fills in as a valid form would. */
export type Upload = { title?: string; description?: string; categories?: string[]; tags?: string[]; transcript?: string; file?: { name: string; type: string; bytes: Uint8Array } };

/** Opens the suite's app (in beforeAll) with `email` signed in as `role`; `session` is filled in once it listens. */
export function openUploadSuite(email: string, role: 'admin' | 'editor') {
  const t = openForSuite(() => createTestApp());
  const session = { base: '', cookie: '' };
  beforeAll(async () => {
    session.cookie = (await createSignedInStaff(t, email, role)).cookie;
    session.base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });

  /** POST /api/admin/meditations as the admin page's form sends it; the reply's body is `{}` when it is not JSON. */
  async function upload({ title = 'Harbour Light', description = 'A short, steady practice.', categories = ['mindfulness'], tags = [], transcript, file }: Upload) {
    const form = new FormData();
    form.append('title', title);
    form.append('description', description);
    for (const c of categories) form.append('categories', c);
    for (const tag of tags) form.append('tags', tag);
    if (transcript) form.append('transcript', transcript);
    if (file) form.append('file', new Blob([file.bytes as Uint8Array<ArrayBuffer>], { type: file.type }), file.name);
    const res = await fetch(`${session.base}/api/admin/meditations`, { method: 'POST', body: form, headers: { cookie: session.cookie, origin: t.config.publicUrl } });
    return { status: res.status, body: (await res.json().catch(() => ({}))) as { meditation?: AdminMeditation; error?: { message: string } } };
  }

  return { t, session, upload };
}
