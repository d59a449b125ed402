/**
 * Saving a file the person asked for (issue 35, item 5): the data export, the journal's exports,
 * its recovery key. On the web, the browser's download; inside the apps, whose WebViews ignore
 * `<a download>`, the share sheet (native-save-file.ts, in the native chunk, loaded only there).
 * Imported on demand, when the person asks for a file (`import()` at the tap): a static import would
 * name its chunk among the first load's preloads (vite's dependency map in the boot chunk).
 */
import { SAVED_FILE_MESSAGES, type SavedFile } from '#shared/saved-files.ts';
import { downloadBlob } from '#web/lib/download.ts';
import { platform } from '#web/platform/platform.ts';
import { toast } from '#web/lib/toast.ts';

/** Saves `data` as the file `name` of type `mime`, and answers how that ended (see SavedFile). */
export async function saveFile(name: string, mime: string, data: string | Blob): Promise<SavedFile> {
  if (!platform().native) {
    downloadBlob(name, typeof data === 'string' ? new Blob([data], { type: mime }) : data);
    // The browser shows its own download.
    return { outcome: 'downloaded', message: null };
  }
  try {
    const { nativeFileSaver } = await import('#web/platform/native-platform.ts');
    return await nativeFileSaver().save(name, mime, data);
  } catch (error) {
    // The native code could not load (offline before it was ever fetched, say).
    console.error('saving a file failed', error);
    return { outcome: 'failed', message: SAVED_FILE_MESSAGES.failed(name, error instanceof Error ? error.message : String(error)) };
  }
}

/** Says how a save ended, as a toast: inside the apps only (on the web the browser's download says it). */
function sayHowItSaved(saved: SavedFile): SavedFile {
  if (saved.message) {
    if (saved.outcome === 'shared') toast.success(saved.message);
    else if (saved.outcome === 'cancelled') toast.info(saved.message);
    else toast.error(saved.message);
  }
  return saved;
}

/** `saveFile`, then the toast (inside the apps): for the exports. */
export const saveFileAndSay = (name: string, mime: string, data: string | Blob): Promise<SavedFile> => saveFile(name, mime, data).then(sayHowItSaved);
