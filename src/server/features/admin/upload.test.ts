/**
 * Uploads over a real HTTP socket (multipart, as the browser sends it) with real files: MP3 and
 * M4A in; a text file, a Windows executable and a 51 MB file out; dangerous and path-laden names
 * refused; nothing left behind on any failure.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { UPLOAD_MESSAGES as U } from '#shared/uploads.ts';
import { MAX_AUDIO_SECONDS, MIN_AUDIO_BYTES_PER_SECOND } from '#shared/constants.ts';
import { meditationContent, meditationPreviews } from '#server/db/schema/catalogue.ts';
import { checkAudioDuration, createMeditationFromUpload, processTempDir, sweepUploads, uploadTempDir } from '#server/features/admin/meditation-upload.service.ts';
import { openUploadSuite, type Upload } from '#server/features/admin/upload-test-support.ts';

const MP3 = readFileSync('tests/fixtures/audio/tone-3s.mp3');
const M4A = readFileSync('tests/fixtures/audio/tone-4s.m4a');

/**
 * The attack from the security review: the first 8 KB of a real MP3 whose Info (Xing) header
 * claims 2^32-1 frames, which music-metadata reads as ~1.87 million minutes.
 */
const LYING_MP3 = (() => {
  const bytes = Buffer.from(MP3.subarray(0, 8192));
  const info = bytes.indexOf('Info');
  bytes.writeUInt32BE(0xffffffff, info + 8); // flags (4 bytes), then the frame count
  return bytes;
})();
/** A real M4A whose movie and track headers claim 2^31-1 time units (13 hours at 44.1 kHz). */
const LYING_M4A = (() => {
  const bytes = Buffer.from(M4A);
  for (const box of ['mvhd', 'tkhd', 'mdhd']) {
    const at = bytes.indexOf(box);
    bytes.writeUInt32BE(0x7fffffff, box === 'tkhd' ? at + 24 : at + 20); // version 0 duration field
  }
  return bytes;
})();

describe('meditation uploads', () => {
  const { t, session, upload } = openUploadSuite('uploader@example.com', 'admin');
  const stored = () => readdirSync(join(t.dataDir, 'media', 'meditations'), { withFileTypes: true }).filter((d) => d.isFile()).map((d) => d.name);
  const temp = () => readdirSync(processTempDir(t.dataDir));
  const titles = async () => (await t.database.db.select({ title: meditationPreviews.title }).from(meditationPreviews)).map((r) => r.title);

  it('stores a real MP3 under a generated name with the duration read from the file, and it plays', async () => {
    const res = await upload({ title: 'Tone of Calm', categories: ['mindfulness', 'sleeping'], tags: [' breath ', 'Breath', '', 'evening'], transcript: 'Breathe in.\n\nBreathe out.', file: { name: 'my tone.mp3', type: 'audio/mpeg', bytes: MP3 } });
    expect(res.status).toBe(201);
    const m = res.body.meditation!;
    expect(m).toMatchObject({ title: 'Tone of Calm', category: 'mindfulness', categories: ['mindfulness', 'sleeping'], tags: ['breath', 'evening'], duration: '1 min', fileName: 'my tone.mp3', fileType: 'audio/mpeg', fileSizeBytes: MP3.length, hasTranscript: true });
    expect(Math.abs((m.durationSeconds as number) - 3)).toBeLessThanOrEqual(1);
    const [content] = await t.database.db.select().from(meditationContent).where(eq(meditationContent.meditationId, m.id));
    expect(content.storageKey).toMatch(/^[0-9a-f-]{36}\.mp3$/);
    expect(stored()).toContain(content.storageKey);

    // Visible in the catalogue; the admin (entitled) gets a playable URL.
    const all = (await (await fetch(`${session.base}/api/meditations?category=all`)).json()) as { meditations: { id: string }[] };
    expect(all.meditations.some((x) => x.id === m.id)).toBe(true);
    const playback = (await (await fetch(`${session.base}/api/meditations/${m.id}/playback`, { headers: { cookie: session.cookie } })).json()) as { url: string; transcript: string };
    expect(playback.transcript).toBe('Breathe in.\n\nBreathe out.');
    const audio = await fetch(`${session.base}${playback.url}`);
    expect(audio.status).toBe(200);
    expect(Buffer.from(await audio.arrayBuffer()).equals(MP3)).toBe(true);

    const download = await fetch(`${session.base}/api/admin/meditations/${m.id}/download`, { headers: { cookie: session.cookie } });
    expect(download.headers.get('content-disposition')).toBe('attachment; filename="my tone.mp3"');
    expect(temp()).toEqual([]);
  });

  it('stores a real M4A', async () => {
    const res = await upload({ title: 'Four Seconds', file: { name: 'four.m4a', type: 'audio/x-m4a', bytes: M4A } });
    expect(res.status).toBe(201);
    expect(res.body.meditation).toMatchObject({ fileType: 'audio/mp4', duration: '1 min' });
    expect(Math.abs((res.body.meditation!.durationSeconds as number) - 4)).toBeLessThanOrEqual(1);
  });

  const refusals: [string, Upload, number, string][] = [
    ['a text file renamed .mp3', { file: { name: 'notes.mp3', type: 'audio/mpeg', bytes: new TextEncoder().encode('Just some words, not audio at all.\n'.repeat(200)) } }, 415, U.contentMismatch],
    ['a Windows executable renamed .mp3', { file: { name: 'song.mp3', type: 'audio/mpeg', bytes: Uint8Array.from([0x4d, 0x5a, 0x90, 0x00, 0x03, ...new Array(4000).fill(0)]) } }, 415, U.contentMismatch],
    ['an .exe hiding in the name', { file: { name: 'setup.exe.mp3', type: 'audio/mpeg', bytes: MP3 } }, 400, U.dangerousName],
    ['a path in the name', { file: { name: '../../etc/evil.mp3', type: 'audio/mpeg', bytes: MP3 } }, 400, U.pathCharacters],
    ['a declared non-audio type', { file: { name: 'tone.mp3', type: 'text/plain', bytes: MP3 } }, 400, U.notAudio],
    ['an audio type the store does not take', { file: { name: 'tone.wav', type: 'audio/wav', bytes: MP3 } }, 400, U.unsupportedType('audio/wav')],
    ['a known type with a foreign extension', { file: { name: 'tone.ogg', type: 'audio/mpeg', bytes: MP3 } }, 400, U.unsupportedExtension('ogg')],
    ['no file', {}, 400, U.required],
    ['no category', { categories: [], file: { name: 'tone.mp3', type: 'audio/mpeg', bytes: MP3 } }, 400, U.required],
    ['a category twice', { categories: ['sleeping', 'sleeping'], file: { name: 'tone.mp3', type: 'audio/mpeg', bytes: MP3 } }, 400, U.duplicateCategory],
    ['an unknown category', { categories: ['secret'], file: { name: 'tone.mp3', type: 'audio/mpeg', bytes: MP3 } }, 400, U.unknownCategory],
    ['a harmful title', { title: 'Calm <script>alert(1)</script>', file: { name: 'tone.mp3', type: 'audio/mpeg', bytes: MP3 } }, 400, 'Content contains potentially harmful code'],
    ['a 201-character title', { title: 'x'.repeat(201), file: { name: 'tone.mp3', type: 'audio/mpeg', bytes: MP3 } }, 400, 'Content must be less than 200 characters'],
    ['an 8 KB MP3 whose header claims 1.8 million minutes', { file: { name: 'forever.mp3', type: 'audio/mpeg', bytes: LYING_MP3 } }, 422, U.durationMismatch],
    ['a 25 KB M4A whose header claims 13 hours', { file: { name: 'forever.m4a', type: 'audio/mp4', bytes: LYING_M4A } }, 422, U.durationMismatch],
  ];

  it.each(refusals)('refuses %s and leaves nothing behind', async (_label, input, status, message) => {
    const before = { files: stored(), titles: await titles() };
    const res = await upload({ title: `Refused ${_label}`, ...input });
    expect(res.status).toBe(status);
    expect(res.body.error?.message).toBe(message);
    expect(stored()).toEqual(before.files);
    expect(await titles()).toEqual(before.titles);
    expect(temp()).toEqual([]);
  });

  it('checks a measured duration against the file size, the bitrate and the 4-hour cap', () => {
    const hour = 3600;
    // 30 min at 56 kbps (12.6 MB): fine. The same claimed length in 8 KB: refused.
    expect(() => checkAudioDuration({ seconds: 1800, bytes: 12_600_000, bitrate: 56_000 })).not.toThrow();
    expect(() => checkAudioDuration({ seconds: 1800, bytes: 8192, bitrate: 56_000 })).toThrow(U.durationMismatch);
    // A header whose bitrate says the file holds 2 s cannot claim 3 min, whatever the floor allows.
    expect(() => checkAudioDuration({ seconds: 180, bytes: 8192 * 25, bitrate: 32_000 * 25 })).toThrow(U.durationMismatch);
    // Longer than the cap, even when size and bitrate agree (4 h 10 min at 24 kbps ≈ 45 MB).
    expect(() => checkAudioDuration({ seconds: 4 * hour + 600, bytes: ((4 * hour + 600) * 24_000) / 8, bitrate: 24_000 })).toThrow(U.tooLong);
    expect(() => checkAudioDuration({ seconds: MAX_AUDIO_SECONDS, bytes: (MAX_AUDIO_SECONDS * 24_000) / 8, bitrate: 24_000 })).not.toThrow();
    // No bitrate in the header: the floor of compressed audio alone decides.
    expect(() => checkAudioDuration({ seconds: 60, bytes: 60 * MIN_AUDIO_BYTES_PER_SECOND, bitrate: undefined })).not.toThrow();
    expect(() => checkAudioDuration({ seconds: 600, bytes: 60 * MIN_AUDIO_BYTES_PER_SECOND, bitrate: undefined })).toThrow(U.durationMismatch);
  });

  it('cuts off a 51 MB upload while streaming and keeps nothing', async () => {
    const before = stored();
    const big = new Uint8Array(51 * 1024 * 1024);
    big.set(MP3.subarray(0, 4096));
    const res = await upload({ title: 'Too Big', file: { name: 'big.mp3', type: 'audio/mpeg', bytes: big } });
    expect(res.status).toBe(413);
    expect(res.body.error?.message).toBe(U.tooLarge);
    expect(stored()).toEqual(before);
    expect(temp()).toEqual([]);
    expect(await titles()).not.toContain('Too Big');
  });

  it('removes the stored file again when writing the rows fails', async () => {
    const before = stored();
    const { writeFileSync, mkdirSync } = await import('node:fs');
    mkdirSync(processTempDir(t.dataDir), { recursive: true });
    const tempPath = join(processTempDir(t.dataDir), 'manual.part');
    writeFileSync(tempPath, MP3);
    // PostgreSQL refuses NUL in text: the insert fails after the file was stored.
    await expect(
      createMeditationFromUpload({ db: t.database.db, storage: t.storage, by: { actor: null, ip: '127.0.0.1', userAgent: null }, input: { title: 'Broken\u0000', description: '', categories: ['mindfulness'], tags: [], transcript: null, originalName: 'x.mp3', tempPath } }),
    ).rejects.toThrow();
    expect(stored()).toEqual(before);
    const { rmSync } = await import('node:fs');
    rmSync(tempPath);
  });

  it('sweeps what a killed upload left: temporary parts and stored files no row refers to', async () => {
    const { mkdirSync, writeFileSync } = await import('node:fs');
    // A part from a process that no longer runs (pid 2^22 + 1 is above Linux's pid limit).
    mkdirSync(join(uploadTempDir(t.dataDir), '4194305-1'), { recursive: true });
    writeFileSync(join(uploadTempDir(t.dataDir), '4194305-1', 'killed.part'), 'half an upload');
    await t.storage.putFile('11111111-2222-4333-8444-555555555555.mp3', 'tests/fixtures/audio/tone-3s.mp3');
    const keep = stored().filter((k) => k !== '11111111-2222-4333-8444-555555555555.mp3');
    // The dead process's part goes at once; a fresh unreferenced file waits out the grace period
    // (another process may be between storing it and committing its row)...
    expect(await sweepUploads({ db: t.database.db, storage: t.storage, dataDir: t.dataDir })).toEqual({ temporary: 1, orphans: 0 });
    // ...and goes after it. This process's own folder is never touched.
    const later = Date.now() + 2 * 60 * 60 * 1000;
    expect(await sweepUploads({ db: t.database.db, storage: t.storage, dataDir: t.dataDir, now: later })).toEqual({ temporary: 0, orphans: 1 });
    expect(stored().sort()).toEqual(keep.sort());
    expect(temp()).toEqual([]);
  });
});
