/** The download control's and filter's words (issue 38, item 5), apart from the first load's offline-messages.ts. */
export const DOWNLOAD_MESSAGES = {
  downloaded: 'Downloaded',
  download: 'Download',
  downloadLabel: (title: string) => `Download ${title} for offline listening`,
  downloading: (percent: number) => `Downloading ${percent}%`,
} as const;
