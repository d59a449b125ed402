/**
 * Offline copies inside the apps (issue 19, item 5): each download is a file of its own in the app's
 * private storage (`<meditation id>.m4a`, sealed with AES-GCM exactly as the web seals it), under a
 * key kept in the device's secure store (Keychain / Keystore), not beside the files. Playing one
 * opens it into the app's cache and hands the audio element that file's WebView URL.
 * Plugins are handed in (the real @capacitor/filesystem in the apps, local fakes in tests).
 */
import { Directory, type FilesystemPlugin } from '@capacitor/filesystem';
import type { OfflineFiles } from '#web/platform/platform.ts';
import type { SecureStorageLike } from '#web/platform/native-platform.ts';

/** The part of @capacitor/filesystem used here. */
export type FilesystemLike = Pick<FilesystemPlugin, 'writeFile' | 'readFile' | 'deleteFile' | 'rmdir'>;

/**
 * Library/NoCloud on iOS, the app's private files on Android.
 * Not `Documents`: on Android that is the public Documents folder other apps can read, and on iOS it
 * is backed up to iCloud, which Apple asks apps not to do with content that can be downloaded again
 * (and the key never leaves the device, so a backed-up copy could not be opened anyway).
 */
export const OFFLINE_DIRECTORY = Directory.LibraryNoCloud;
/** The opened copy being played, removed when playback moves on. */
export const PLAYING_DIRECTORY = Directory.Cache;
const OFFLINE_FOLDER = 'offline';
const PLAYING_FOLDER = 'playing';
/** The secure-store entry of the offline copies' key (one per device: sign-out removes every copy with it). */
export const OFFLINE_KEY_NAME = 'harbour-mind.offline-key';

/** Large buffers go to base64 in slices: one `String.fromCharCode(...all)` would overflow the stack. */
function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

function fromBase64(base64: string): Uint8Array<ArrayBuffer> {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** A meditation id names a file: anything but a plain id is refused rather than turned into a path. */
function fileName(meditationId: string): string {
  if (!/^[\w-]{1,128}$/.test(meditationId)) throw new Error('Not a meditation id.');
  return `${meditationId}.m4a`;
}

const ignoreMissing = () => undefined;

export function createNativeOfflineFiles({ filesystem, storage, convertFileSrc }: { filesystem: FilesystemLike; storage: () => Promise<SecureStorageLike>; convertFileSrc: (uri: string) => string }): OfflineFiles {
  let opened: Promise<CryptoKey> | undefined;
  const openKey = async (): Promise<CryptoKey> => {
    const store = await storage();
    const kept = await store.get(OFFLINE_KEY_NAME);
    let raw: Uint8Array<ArrayBuffer>;
    if (typeof kept === 'string' && kept) raw = fromBase64(kept);
    else {
      raw = crypto.getRandomValues(new Uint8Array(32));
      await store.set(OFFLINE_KEY_NAME, toBase64(raw));
    }
    // Opened non-extractable: the page can seal and open with it, but never read it back out.
    return crypto.subtle.importKey('raw', raw, 'AES-GCM', false, ['encrypt', 'decrypt']);
  };
  const offlinePath = (meditationId: string) => `${OFFLINE_FOLDER}/${fileName(meditationId)}`;

  return {
    key: () => {
      opened ??= openKey().catch((error: unknown) => {
        opened = undefined;
        throw error;
      });
      return opened;
    },
    async write(meditationId, sealed) {
      const path = offlinePath(meditationId);
      await filesystem.writeFile({ path, data: toBase64(sealed), directory: OFFLINE_DIRECTORY, recursive: true });
      return path;
    },
    async read(meditationId) {
      try {
        const { data } = await filesystem.readFile({ path: offlinePath(meditationId), directory: OFFLINE_DIRECTORY });
        return typeof data === 'string' ? fromBase64(data) : new Uint8Array(await data.arrayBuffer());
      } catch {
        return null;
      }
    },
    async remove(meditationId) {
      await filesystem.deleteFile({ path: offlinePath(meditationId), directory: OFFLINE_DIRECTORY }).catch(ignoreMissing);
    },
    async removeAll() {
      await filesystem.rmdir({ path: OFFLINE_FOLDER, directory: OFFLINE_DIRECTORY, recursive: true }).catch(ignoreMissing);
      await filesystem.rmdir({ path: PLAYING_FOLDER, directory: PLAYING_DIRECTORY, recursive: true }).catch(ignoreMissing);
      opened = undefined;
      await (await storage()).remove(OFFLINE_KEY_NAME);
    },
    async playable(meditationId, audio) {
      // One opened copy at a time: whatever an earlier play left (the app killed mid-play) goes first.
      await filesystem.rmdir({ path: PLAYING_FOLDER, directory: PLAYING_DIRECTORY, recursive: true }).catch(ignoreMissing);
      const path = `${PLAYING_FOLDER}/${fileName(meditationId)}`;
      const { uri } = await filesystem.writeFile({ path, data: toBase64(new Uint8Array(audio)), directory: PLAYING_DIRECTORY, recursive: true });
      return {
        url: convertFileSrc(uri),
        release: () => void filesystem.deleteFile({ path, directory: PLAYING_DIRECTORY }).catch(ignoreMissing),
      };
    },
  };
}
