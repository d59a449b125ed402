/**
 * Saves a blob as a file through a temporary link: the one way that works in every browser without a
 * library. Browsers only: the apps' WebViews ignore it, so features save through
 * `saveFile` (src/web/platform/save-file.ts), which uses this on the web.
 */
export function downloadBlob(name: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const link = Object.assign(document.createElement('a'), { href: url, download: name });
  document.body.append(link);
  link.click();
  link.remove();
  // Revoking at once can cancel the download in some browsers; a second is plenty for it to start.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
