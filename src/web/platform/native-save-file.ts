/**
 * Files the person asks for inside the apps (issue 35, item 5): the data export, the journal's
 * exports and its recovery key. Neither WKWebView nor Android's WebView saves `<a download
 * href="blob:…">` (the tap does nothing), so the file is written into the app's cache with
 * @capacitor/filesystem and handed to the system's share sheet (@capacitor/share): Save to Files,
 * Drive, Mail, another app. The sheet says whether the person chose somewhere or closed it, and
 * that is what they are told: a recovery key must never look saved when it went nowhere.
 *
 * Plugins are handed in (the real ones in the apps, loaded with the native chunk; local fakes of
 * their native sides in tests).
 */
import { Directory, Encoding, type FilesystemPlugin } from '@capacitor/filesystem';
import type { SharePlugin } from '@capacitor/share';
import { SAVED_FILE_MESSAGES, type SavedFile } from '#shared/saved-files.ts';

/** The part of @capacitor/filesystem used here. */
export type FileWriterLike = Pick<FilesystemPlugin, 'writeFile' | 'rmdir'>;
/** The part of @capacitor/share used here. */
export type ShareLike = Pick<SharePlugin, 'share'>;

/** In the app's cache (private to the app; Android's FileProvider shares it: `cache-path` in file_paths.xml). */
const SAVED_FILES_DIRECTORY = Directory.Cache;
const SAVED_FILES_FOLDER = 'saved';

/**
 * The share sheet's own rejection when it is closed without a choice: iOS's
 * `completionWithItemsHandler` with `completed == false`, Android's chooser with RESULT_CANCELED
 * (both plugins reject with exactly these words).
 */
const CANCELLED = 'Share canceled';

/** A plain file name: the last part of the caller's, with anything that could make it a path replaced. */
function safeName(name: string): string {
  const plain = (name.split(/[\\/]/).pop() ?? '').replace(/[^\w.-]+/g, '-').replace(/^\.+/, '');
  return plain || 'harbour-mind-file';
}

const reasonOf = (error: unknown) => (error instanceof Error ? error.message : typeof error === 'string' ? error : '') || 'unknown error';

async function base64Of(blob: Blob): Promise<string> {
  const bytes = new Uint8Array(await blob.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

export type NativeFileSaver = { save(name: string, mime: string, data: string | Blob): Promise<SavedFile> };

export function createNativeFileSaver({ loadFilesystem, loadShare }: { loadFilesystem: () => Promise<FileWriterLike>; loadShare: () => Promise<ShareLike> }): NativeFileSaver {
  return {
    async save(name, _mime, data) {
      const fileName = safeName(name);
      let filesystem: FileWriterLike | undefined;
      let written = false;
      const removeAll = () => filesystem?.rmdir({ path: SAVED_FILES_FOLDER, directory: SAVED_FILES_DIRECTORY, recursive: true }).catch(() => undefined);
      try {
        filesystem = await loadFilesystem();
        // One file at a time: what an earlier save left goes first. The one just shared stays until the
        // next save, since the app that received it (Mail, Drive) may read it after the sheet has closed.
        await removeAll();
        const { uri } = await filesystem.writeFile({
          path: `${SAVED_FILES_FOLDER}/${fileName}`,
          directory: SAVED_FILES_DIRECTORY,
          recursive: true,
          ...(typeof data === 'string' ? { data, encoding: Encoding.UTF8 } : { data: await base64Of(data) }),
        });
        written = true;
        const share = await loadShare();
        await share.share({ title: fileName, files: [uri], dialogTitle: fileName });
        return { outcome: 'shared', message: SAVED_FILE_MESSAGES.shared(fileName) };
      } catch (error) {
        // Nothing was saved: the copy in the cache goes at once (a recovery key should not linger).
        if (written) await removeAll();
        if (reasonOf(error) === CANCELLED) return { outcome: 'cancelled', message: SAVED_FILE_MESSAGES.cancelled(fileName) };
        console.error('saving a file failed', error);
        return { outcome: 'failed', message: SAVED_FILE_MESSAGES.failed(fileName, reasonOf(error)) };
      }
    },
  };
}
