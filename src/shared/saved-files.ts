/**
 * What the person is told after asking for a file (an export, the journal's recovery key; issue 35,
 * item 5). On the web the browser's own download shows it. Inside the apps the file goes through the
 * share sheet (Save to Files, Drive, Mail …), which the person can close without choosing: then the
 * file went nowhere and they must not believe it saved.
 */
export const SAVED_FILE_MESSAGES = {
  /** The share sheet completed: the file went where the person chose (Files, Drive, an app, a message). */
  shared: (name: string) => `“${name}” is saved where you chose in the share sheet.`,
  /** The sheet was closed without a choice. */
  cancelled: (name: string) => `“${name}” was not saved: the share sheet was closed before you chose where to keep it.`,
  /** Writing the file or opening the sheet failed, with the device's own words. */
  failed: (name: string, reason: string) => `“${name}” could not be saved: ${reason}`,
} as const;

/**
 * How a save ended: the browser's download (web), the share sheet's completion, its closing, or a
 * failure; and, where the person must be told (inside the apps), the words.
 */
export type SavedFile = { outcome: 'downloaded' | 'shared' | 'cancelled' | 'failed'; message: string | null };
