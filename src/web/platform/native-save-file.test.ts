/**
 * Files saved inside the apps (issue 35, item 5) through the plugins' own JavaScript
 * (@capacitor/filesystem and @capacitor/share, as they cross the bridge) and a fake of their native
 * halves that answers as the devices do: the share sheet resolves with the chosen activity, or
 * rejects 'Share canceled' when closed without a choice (iOS's `completed == false`, Android's
 * RESULT_CANCELED); the file system writes UTF-8 text or base64.
 */
import type { FilesystemPlugin } from '@capacitor/filesystem';
import type { SharePlugin } from '@capacitor/share';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SAVED_FILE_MESSAGES } from '#shared/saved-files.ts';
import { createNativeFileSaver } from '#web/platform/native-save-file.ts';
import { fakeCapacitorBridge } from '#tests/fakes/capacitor-bridge.ts';

const RECOVERY = 'harbour-mind-journal-recovery-key.txt';

/** A device: its cache's files (path → { data, encoding }), and what the share sheet does when shown. */
function device(kind: 'ios' | 'android', sheet: (options: Record<string, unknown>) => Promise<unknown>) {
  const files = new Map<string, { data: string; encoding?: unknown }>();
  const bridge = fakeCapacitorBridge(kind, {
    Filesystem: {
      writeFile: (options) => {
        const path = `${String(options.directory)}/${String(options.path)}`;
        files.set(path, { data: String(options.data), encoding: options.encoding });
        return Promise.resolve({ uri: `file:///var/mobile/Containers/Data/Application/app/${path}` });
      },
      rmdir: (options) => {
        const folder = `${String(options.directory)}/${String(options.path)}/`;
        const inside = [...files.keys()].filter((path) => path.startsWith(folder));
        if (inside.length === 0) return Promise.reject(new Error('Folder does not exist.'));
        if (!options.recursive) return Promise.reject(new Error('Folder is not empty'));
        inside.forEach((path) => files.delete(path));
        return Promise.resolve();
      },
    },
    Share: { share: sheet, canShare: () => Promise.resolve({ value: true }) },
  });
  const { Filesystem } = bridge.plugin('@capacitor/filesystem') as { Filesystem: FilesystemPlugin };
  const { Share } = bridge.plugin('@capacitor/share') as { Share: SharePlugin };
  const saver = createNativeFileSaver({
    loadFilesystem: () => Promise.resolve({ writeFile: (o) => Filesystem.writeFile(o), rmdir: (o) => Filesystem.rmdir(o) }),
    loadShare: () => Promise.resolve({ share: (o) => Share.share(o) }),
  });
  return { saver, files, calls: bridge.calls };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('saving a file inside the apps', () => {
  it('on iOS writes the recovery key into the app’s cache and hands it to the share sheet; Save to Files is said as saved', async () => {
    const { saver, files, calls } = device('ios', () => Promise.resolve({ activityType: 'com.apple.DocumentManagerUICore.SaveToFiles' }));
    const saved = await saver.save(RECOVERY, 'text/plain', 'Harbour Mind: journal recovery key\n\nABCD-EFGH\n');
    expect(saved).toEqual({ outcome: 'shared', message: SAVED_FILE_MESSAGES.shared(RECOVERY) });
    expect(files.get(`CACHE/saved/${RECOVERY}`)).toEqual({ data: 'Harbour Mind: journal recovery key\n\nABCD-EFGH\n', encoding: 'utf8' });
    // As the calls cross the bridge: what an earlier save left goes first; the file, then the sheet with its file:// URL.
    expect(calls.map((c) => `${c.plugin}.${c.method}`)).toEqual(['Filesystem.rmdir', 'Filesystem.writeFile', 'Share.share']);
    expect(calls[1].options).toEqual({ path: `saved/${RECOVERY}`, directory: 'CACHE', recursive: true, data: 'Harbour Mind: journal recovery key\n\nABCD-EFGH\n', encoding: 'utf8' });
    expect(calls[2].options).toEqual({ title: RECOVERY, dialogTitle: RECOVERY, files: [`file:///var/mobile/Containers/Data/Application/app/CACHE/saved/${RECOVERY}`] });
  });

  it('says so when the sheet is closed without a choice, and leaves no copy of the key behind', async () => {
    const { saver, files } = device('ios', () => Promise.reject(new Error('Share canceled')));
    const saved = await saver.save(RECOVERY, 'text/plain', 'ABCD-EFGH');
    expect(saved).toEqual({ outcome: 'cancelled', message: SAVED_FILE_MESSAGES.cancelled(RECOVERY) });
    expect(saved.outcome).not.toBe('shared');
    expect([...files.keys()]).toEqual([]);
  });

  it('says a failure with the device’s own words, never as saved', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { saver, files } = device('android', () => Promise.reject(new Error('Can’t share while sharing is in progress')));
    const saved = await saver.save('harbour-mind-data-2026-11-28.json', 'application/json', '{}');
    expect(saved).toEqual({ outcome: 'failed', message: SAVED_FILE_MESSAGES.failed('harbour-mind-data-2026-11-28.json', 'Can’t share while sharing is in progress') });
    expect([...files.keys()]).toEqual([]);
    expect(logged).toHaveBeenCalledOnce();
  });

  it('on Android shares a binary file as base64, keeps only the latest shared file, and never lets a name become a path', async () => {
    const shared: unknown[] = [];
    const { saver, files } = device('android', (options) => Promise.resolve(void shared.push(options)).then(() => ({ activityType: 'com.google.android.apps.docs' })));
    expect((await saver.save('waitlist.csv', 'text/csv', new Blob([new Uint8Array([0xef, 0xbb, 0xbf, 0x61, 0x2c, 0x62])]))).outcome).toBe('shared');
    expect(files.get('CACHE/saved/waitlist.csv')).toEqual({ data: Buffer.from([0xef, 0xbb, 0xbf, 0x61, 0x2c, 0x62]).toString('base64'), encoding: undefined });
    expect((await saver.save('../../Documents/notes.md', 'text/markdown', '# Notes')).outcome).toBe('shared');
    expect([...files.keys()]).toEqual(['CACHE/saved/notes.md']);
    expect(shared).toHaveLength(2);
  });
});
