/**
 * Offline copies inside the apps (issue 19, item 5): the real offline store (IndexedDB through
 * fake-indexeddb, WebCrypto) on the native platform's files, driven through local fakes of
 * @capacitor/filesystem (its method names, options and base64 strings, as the native side answers)
 * and of the secure-storage plugin. The platform module is replaced only to say "inside the apps".
 */
import 'fake-indexeddb/auto';
import { IDBFactory } from 'fake-indexeddb';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { memoryStorage } from '#tests/fakes/secure-storage.ts';
import type { MeditationCard } from '#shared/contracts/catalogue.ts';
import { createNativeOfflineFiles, OFFLINE_DIRECTORY, OFFLINE_KEY_NAME, PLAYING_DIRECTORY, type FilesystemLike } from '#web/platform/native-offline-files.ts';
import type { Platform } from '#web/platform/platform.ts';

/** The device's files as the plugin sees them: base64 strings by directory and path; rmdir is recursive only when asked. */
function fakeFilesystem() {
  const files = new Map<string, string>();
  const id = (directory: string | undefined, path: string) => `${directory ?? 'DOCUMENTS'}:${path}`;
  const missing = () => Promise.reject(new Error('File does not exist.'));
  const filesystem: FilesystemLike = {
    writeFile: ({ path, data, directory }) => {
      if (typeof data !== 'string') return Promise.reject(new Error('Blobs are only supported on the web'));
      files.set(id(directory, path), data);
      return Promise.resolve({ uri: `file:///device/${directory ?? 'DOCUMENTS'}/${path}` });
    },
    readFile: ({ path, directory }) => {
      const data = files.get(id(directory, path));
      return data === undefined ? missing() : Promise.resolve({ data });
    },
    deleteFile: ({ path, directory }) => (files.delete(id(directory, path)) ? Promise.resolve() : missing()),
    rmdir: ({ path, directory, recursive }) => {
      const inside = [...files.keys()].filter((key) => key.startsWith(`${id(directory, path)}/`));
      if (inside.length === 0) return missing();
      if (!recursive) return Promise.reject(new Error('Folder is not empty'));
      inside.forEach((key) => files.delete(key));
      return Promise.resolve();
    },
  };
  const bytes = (directory: string, path: string) => Buffer.from(files.get(id(directory, path)) ?? '', 'base64');
  return { filesystem, files, bytes };
}

const device = vi.hoisted(() => ({ current: null as null | Pick<Platform, 'offlineFiles'> }));
vi.mock('#web/platform/platform.ts', () => ({ platform: () => device.current }));

const meditation = { id: 'med-sleep-1', title: 'Falling Asleep' } as MeditationCard;
// Recognisable plain audio: an M4A's `ftyp` box, then a phrase the sealed file must not contain.
const plainAudio = new Uint8Array(Buffer.concat([Buffer.from('\0\0\0\x18ftypM4A '), Buffer.from('the spoken words of a meditation '.repeat(2000))]));
const userId = 'user-1';

let fs: ReturnType<typeof fakeFilesystem>;
let storage: ReturnType<typeof memoryStorage>;
beforeEach(() => {
  globalThis.indexedDB = new IDBFactory();
  fs = fakeFilesystem();
  storage = memoryStorage();
  device.current = { offlineFiles: createNativeOfflineFiles({ filesystem: fs.filesystem, storage: () => Promise.resolve(storage), convertFileSrc: (uri) => uri.replace('file:///device/', 'capacitor://localhost/_capacitor_file_/') }) };
});

async function store() {
  vi.resetModules();
  const offline = await import('#web/features/downloads/offline-store.ts');
  await offline.recordEntitlement({ userId, subscribed: true, validUntil: null, checkedAt: new Date().toISOString() });
  return offline;
}

describe('offline copies inside the apps', () => {
  it('keeps each download sealed in a file of its own, with the key in the secure store, and plays it from an opened file', async () => {
    const offline = await store();
    const copy = await offline.saveOfflineCopy({ userId, meditation, transcript: 'Breathe.', mimeType: 'audio/mp4', audio: plainAudio.slice().buffer });
    expect(copy).toMatchObject({ meditationId: meditation.id, localPath: 'offline/med-sleep-1.m4a', size: plainAudio.byteLength });
    expect(copy).not.toHaveProperty('cipher');

    const sealed = fs.bytes(OFFLINE_DIRECTORY, 'offline/med-sleep-1.m4a');
    expect(sealed.byteLength).toBe(12 + plainAudio.byteLength + 16); // iv, ciphertext, GCM tag
    expect(sealed.includes(Buffer.from('spoken words'))).toBe(false);
    expect(sealed.includes(Buffer.from('ftypM4A'))).toBe(false);
    expect(Buffer.from(storage.values.get(OFFLINE_KEY_NAME) ?? '', 'base64').byteLength).toBe(32);

    const opened = await offline.openOfflineCopy(userId, meditation.id);
    expect(opened.url).toBe(`capacitor://localhost/_capacitor_file_/${PLAYING_DIRECTORY}/playing/med-sleep-1.m4a`);
    expect(fs.bytes(PLAYING_DIRECTORY, 'playing/med-sleep-1.m4a').equals(Buffer.from(plainAudio))).toBe(true);
    expect(opened.copy.transcript).toBe('Breathe.');
    opened.release();
    await vi.waitFor(() => expect(fs.files.has(`${PLAYING_DIRECTORY}:playing/med-sleep-1.m4a`)).toBe(false), { timeout: 10_000 });
    expect(await offline.listOfflineCopies(userId)).toHaveLength(1);

    // The app restarted: the same key comes back from the secure store and opens the file.
    const again = await store();
    expect((await again.openOfflineCopy(userId, meditation.id)).url).toContain('med-sleep-1.m4a');
  });

  it('refuses a file that was changed or is gone, and never turns an id into a path', async () => {
    const offline = await store();
    await offline.saveOfflineCopy({ userId, meditation, transcript: null, mimeType: 'audio/mp4', audio: plainAudio.slice().buffer });
    const key = `${OFFLINE_DIRECTORY}:offline/med-sleep-1.m4a`;
    const tampered = Buffer.from(fs.files.get(key) ?? '', 'base64');
    tampered[40] ^= 1;
    fs.files.set(key, tampered.toString('base64'));
    await expect(offline.openOfflineCopy(userId, meditation.id)).rejects.toMatchObject({ reason: 'corrupt' });
    fs.files.delete(key);
    await expect(offline.openOfflineCopy(userId, meditation.id)).rejects.toMatchObject({ reason: 'corrupt' });

    await expect(offline.saveOfflineCopy({ userId, meditation: { ...meditation, id: '../../Documents/x' }, transcript: null, mimeType: 'audio/mp4', audio: new ArrayBuffer(8) })).rejects.toThrow(
      'Not a meditation id.',
    );
    expect([...fs.files.keys()].some((path) => path.includes('..'))).toBe(false);
  });

  it('removes the files, the key and the records when the subscription lapses', async () => {
    const offline = await store();
    await offline.saveOfflineCopy({ userId, meditation, transcript: null, mimeType: 'audio/mp4', audio: plainAudio.slice().buffer });
    await offline.saveOfflineCopy({ userId, meditation: { ...meditation, id: 'med-morning-2' }, transcript: null, mimeType: 'audio/mp4', audio: plainAudio.slice().buffer });
    expect(fs.files.size).toBe(2);
    await offline.removeCopiesOnLapse(userId);
    expect(fs.files.size).toBe(0);
    expect(storage.values.has(OFFLINE_KEY_NAME)).toBe(false);
    expect(await offline.listOfflineCopies(userId)).toEqual([]);
  });

  it('removes one copy’s file with its record', async () => {
    const offline = await store();
    await offline.saveOfflineCopy({ userId, meditation, transcript: null, mimeType: 'audio/mp4', audio: plainAudio.slice().buffer });
    await offline.removeOfflineCopy(userId, meditation.id);
    expect(fs.files.size).toBe(0);
    expect(await offline.listOfflineCopies(userId)).toEqual([]);
  });

  it('leaves no copy, key or record on the device after sign-out', async () => {
    const offline = await store();
    await offline.saveOfflineCopy({ userId, meditation, transcript: null, mimeType: 'audio/mp4', audio: plainAudio.slice().buffer });
    const { forgetPersonalData, OFFLINE_DB_NAME } = await import('#web/lib/forget-personal-data.ts');
    await forgetPersonalData();
    expect(fs.files.size).toBe(0);
    expect(storage.values.size).toBe(0);
    expect((await indexedDB.databases()).map((database) => database.name)).not.toContain(OFFLINE_DB_NAME);
  });
});
