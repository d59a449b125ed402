/**
 * One contract for both media stores (a folder, and S3 through the official SDK against a local
 * fake speaking S3's protocol), then the whole upload → play → delete path on S3.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalMediaStorage, type MediaStorage } from '#server/features/media/media-storage.ts';
import { createS3Client, createS3MediaStorage } from '#server/features/media/s3-media-storage.ts';
import { startFakeS3, type FakeS3 } from '#tests/fakes/fake-s3.ts';
import { createSignedInStaff } from '#tests/setup/auth-helpers.ts';
import { createTestApp, type TestApp } from '#tests/setup/test-app.ts';

const FIXTURE = 'tests/fixtures/audio/tone-3s.mp3';
const BYTES = readFileSync(FIXTURE);

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

let s3: FakeS3;
let dir: string;
beforeAll(async () => {
  s3 = await startFakeS3('hm-media');
  dir = mkdtempSync(join(tmpdir(), 'hm-storage-'));
});
afterAll(async () => {
  await s3.close();
  rmSync(dir, { recursive: true, force: true });
});

const stores: [string, () => MediaStorage][] = [
  ['a local folder', () => createLocalMediaStorage(dir)],
  ['S3', () => createS3MediaStorage(createS3Client({ bucket: 'hm-media', region: 'us-east-1', endpoint: s3.endpoint, accessKeyId: 'test', secretAccessKey: 'test', forcePathStyle: true }), 'hm-media')],
];

describe.each(stores)('media storage on %s', (_name, make) => {
  it('stores, describes, reads whole and by range, lists and removes', async () => {
    const storage = make();
    const key = '0b6e4a4e-4a55-4b3c-9d44-1f1f1f1f1f1f.mp3';
    expect(await storage.stat(key)).toBeUndefined();
    expect((await storage.putFile(key, FIXTURE)).size).toBe(BYTES.length);
    expect((await storage.stat(key))?.size).toBe(BYTES.length);
    expect((await readAll(storage.read(key))).equals(BYTES)).toBe(true);
    expect((await readAll(storage.read(key, { start: 10, end: 19 }))).equals(BYTES.subarray(10, 20))).toBe(true);
    const listed = await storage.list();
    expect(listed.map((o) => o.key)).toContain(key);
    expect(listed.find((o) => o.key === key)?.size).toBe(BYTES.length);
    await storage.remove(key);
    expect(await storage.stat(key)).toBeUndefined();
    expect((await storage.list()).map((o) => o.key)).not.toContain(key);
  });

  it('refuses keys that could escape the bucket', async () => {
    const storage = make();
    for (const key of ['../etc/passwd', 'a/b.mp3', '', '..']) await expect(storage.putFile(key, FIXTURE)).rejects.toThrow(/Unsafe storage key/);
  });
});

describe('uploads with S3_BUCKET set', () => {
  let t: TestApp;
  let base: string;
  let cookie: string;
  beforeAll(async () => {
    t = await createTestApp({ env: { S3_BUCKET: 'hm-media', S3_ENDPOINT: s3.endpoint, S3_ACCESS_KEY_ID: 'test', S3_SECRET_ACCESS_KEY: 'test', S3_FORCE_PATH_STYLE: 'true' } });
    const admin = await createSignedInStaff(t, 's3-admin@example.com', 'admin');
    cookie = admin.cookie;
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => t.close());

  it('puts the audio in the bucket, streams it to the entitled with Range, and deletes it with the meditation', async () => {
    const form = new FormData();
    form.append('title', 'Bucket Breath');
    form.append('categories', 'mindfulness');
    form.append('file', new Blob([BYTES], { type: 'audio/mpeg' }), 'bucket.mp3');
    const created = await fetch(`${base}/api/admin/meditations`, { method: 'POST', body: form, headers: { cookie, origin: t.config.publicUrl } });
    expect(created.status).toBe(201);
    const { meditation } = (await created.json()) as { meditation: { id: string } };
    const keys = [...s3.objects.keys()].filter((k) => k.startsWith('meditations/'));
    expect(keys).toHaveLength(1);
    expect(s3.objects.get(keys[0])!.body.equals(BYTES)).toBe(true);

    const { url } = (await (await fetch(`${base}/api/meditations/${meditation.id}/playback`, { headers: { cookie } })).json()) as { url: string };
    const partial = await fetch(`${base}${url}`, { headers: { range: 'bytes=0-99' } });
    expect(partial.status).toBe(206);
    expect(Buffer.from(await partial.arrayBuffer()).equals(BYTES.subarray(0, 100))).toBe(true);

    expect((await fetch(`${base}/api/admin/meditations/${meditation.id}`, { method: 'DELETE', headers: { cookie, origin: t.config.publicUrl } })).status).toBe(200);
    expect([...s3.objects.keys()].filter((k) => k.startsWith('meditations/'))).toEqual([]);
    expect(s3.requests.some((r) => r.startsWith('DELETE /hm-media/meditations/'))).toBe(true);
  });
});
