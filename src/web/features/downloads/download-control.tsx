/**
 * Download on a catalogue card and in the full player (issue 38, item 5: Download was only in
 * Account › Favourites), and the "Downloaded" badge once a copy is on this device. Its own chunk:
 * it brings the download code (and IndexedDB's) only to people who may download.
 */
import CircleCheck from 'lucide-react/icons/circle-check';
import CloudDownload from 'lucide-react/icons/cloud-download';
import type { MeditationCard } from '#shared/contracts/catalogue.ts';
import { DOWNLOAD_MESSAGES as M } from '#shared/download-messages.ts';
import { useViewer } from '#web/features/auth/use-viewer.ts';
import { useDownloads } from '#web/features/downloads/use-downloads.ts';
import { useOnline } from '#web/lib/use-online.ts';

export function DownloadControl({ meditation }: { meditation: MeditationCard }) {
  const viewer = useViewer();
  const online = useOnline();
  const downloads = useDownloads();
  const progress = downloads.progress[meditation.id];
  if (downloads.isOffline(meditation.id)) {
    return (
      <span data-testid="downloaded-badge" className="inline-flex items-center gap-1.5 rounded-full bg-teal-100 px-2.5 py-0.5 font-medium text-teal-900 dark:bg-teal-900 dark:text-teal-100">
        <CircleCheck className="size-4" aria-hidden />
        {M.downloaded}
      </span>
    );
  }
  // Only subscribers get a copy (the server checks again), and only while a connection can fetch it.
  if (!viewer.canListen || !online) return null;
  return (
    <button
      type="button"
      onClick={() => downloads.download(meditation)}
      disabled={progress !== undefined}
      aria-label={progress === undefined ? M.downloadLabel(meditation.title) : undefined}
      className="relative z-10 inline-flex min-h-9 items-center gap-1.5 rounded-full px-3 font-medium text-teal-800 ring-1 ring-teal-200 hover:bg-teal-50 disabled:cursor-wait dark:text-teal-200 dark:ring-teal-800 dark:hover:bg-teal-950"
    >
      <CloudDownload className="size-4" aria-hidden />
      {progress === undefined ? M.download : M.downloading(progress)}
    </button>
  );
}
