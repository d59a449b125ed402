/** What the admin API answers (admin document §5 'Meditations'). */

/** One catalogue entry as staff see it: the card's fields plus the stored file and transcript. */
export type AdminMeditation = {
  id: string;
  title: string;
  description: string;
  category: string;
  categories: string[];
  duration: string;
  durationSeconds: number | null;
  tags: string[];
  fileName: string | null;
  fileType: string | null;
  fileSizeBytes: number | null;
  hasTranscript: boolean;
  transcript: string | null;
  createdAt: string;
  updatedAt: string;
};
