/**
 * Meditation uploads: limits, checks and words (admin document §8 'Upload form', 'Audio file check').
 * The server enforces every rule here; the form uses them to answer at once.
 */
import { z } from 'zod';
import { ASSIGNABLE_CATEGORIES } from '#shared/catalogue.ts';
import { validateContent, type Validation } from '#shared/validation.ts';

export const UPLOAD = {
  maxBytes: 50 * 1024 * 1024,
  titleMax: 200,
  descriptionMax: 2000,
  transcriptMax: 20_000,
  tagMax: 40,
  tagsMax: 20,
  /** The form's broad audio check (spec 'Audio file check'). */
  audioTypes: ['mpeg', 'mp3', 'wav', 'm4a', 'mp4', 'x-m4a', 'aac', 'ogg', 'webm'],
  /** What the upload step itself stores (spec 'Upload form'). */
  storedTypes: ['audio/mpeg', 'audio/mp3', 'audio/mp4', 'audio/x-m4a'],
  storedExtensions: ['mp3', 'm4a', 'mp4'],
  dangerous: ['.exe', '.bat', '.cmd', '.scr', '.pif', '.js', '.jar', '.app'],
} as const;

export const UPLOAD_MESSAGES = {
  required: 'Please fill in all required fields, select at least one category, and select an audio file',
  invalidTitle: 'Invalid Title',
  invalidDescription: 'Invalid Description',
  invalidFile: 'Invalid File',
  tooLarge: 'File size must be less than 50MB',
  notAudio: 'File must be an audio file (MP3, WAV, M4A, AAC, OGG, or WebM)',
  dangerousName: 'File name contains potentially dangerous content',
  pathCharacters: 'File name contains invalid path characters',
  unsupportedType: (type: string) => `Unsupported file type: ${type}. Supported types are MP3 and M4A.`,
  unsupportedExtension: (ext: string) => `Unsupported file extension: ${ext}`,
  contentMismatch: 'The file is not the audio it claims to be. Supported types are MP3 and M4A.',
  unreadableAudio: 'The audio file could not be read. Please check it plays, then try again.',
  durationMismatch: 'The audio file’s length does not match its size. Please check it plays, then try again.',
  tooLong: 'The audio is longer than 4 hours. Please upload a shorter recording.',
  duplicateCategory: 'Each category can be picked only once.',
  unknownCategory: 'Unknown category',
  uploadedTitle: 'Meditation Uploaded',
  uploadFailedTitle: 'Upload Failed',
  deletedTitle: 'Meditation Deleted',
  deleteFailed: 'Failed to delete meditation',
  updatedTitle: 'Meditation Updated',
  updateFailed: 'Failed to update meditation',
} as const;

/** Spec 'Audio file check' on the name, size and declared type. */
export function checkAudioFile(file: { name: string; size: number; type: string }): Validation {
  if (file.size >= UPLOAD.maxBytes) return { valid: false, error: UPLOAD_MESSAGES.tooLarge };
  const subtype = file.type.split('/')[1]?.toLowerCase() ?? '';
  if (!file.type.toLowerCase().startsWith('audio/') || !(UPLOAD.audioTypes as readonly string[]).includes(subtype)) return { valid: false, error: UPLOAD_MESSAGES.notAudio };
  const name = file.name.toLowerCase();
  if (UPLOAD.dangerous.some((d) => name.includes(d))) return { valid: false, error: UPLOAD_MESSAGES.dangerousName };
  if (hasPathCharacters(file.name)) return { valid: false, error: UPLOAD_MESSAGES.pathCharacters };
  return { valid: true };
}

function hasPathCharacters(name: string): boolean {
  return name.includes('..') || /[/\\\0]/.test(name) || /^[a-z]:/i.test(name);
}

/** Spec 'Upload form': the step that stores only MP3 and M4A. */
export function checkStoredType(file: { name: string; type: string }): Validation {
  const ext = file.name.split('.').pop()?.toLowerCase() ?? '';
  if (!(UPLOAD.storedTypes as readonly string[]).includes(file.type.toLowerCase())) return { valid: false, error: UPLOAD_MESSAGES.unsupportedType(file.type || 'unknown') };
  if (!(UPLOAD.storedExtensions as readonly string[]).includes(ext)) return { valid: false, error: UPLOAD_MESSAGES.unsupportedExtension(ext || 'none') };
  return { valid: true };
}

export type UploadFields = { title: string; description: string; categories: string[]; tags: string[]; transcript?: string };

/** Which part of the upload form a problem is about ('form': the spec's one 'fill in everything' message). */
export type UploadProblemField = 'form' | 'title' | 'description' | 'transcript' | 'categories' | 'file';
type UploadProblem = { field: UploadProblemField; error: string };

/** The toast title the spec gives each kind of problem. */
export const uploadProblemTitle = (field: UploadProblemField): string =>
  ({
    form: UPLOAD_MESSAGES.uploadFailedTitle,
    title: UPLOAD_MESSAGES.invalidTitle,
    description: UPLOAD_MESSAGES.invalidDescription,
    transcript: UPLOAD_MESSAGES.invalidDescription,
    categories: UPLOAD_MESSAGES.uploadFailedTitle,
    file: UPLOAD_MESSAGES.invalidFile,
  })[field];

function uploadFieldsProblem(fields: UploadFields, hasFile: boolean): UploadProblem | undefined {
  if (!fields.title.trim() || fields.categories.length === 0 || !hasFile) return { field: 'form', error: UPLOAD_MESSAGES.required };
  const title = validateContent(fields.title, UPLOAD.titleMax);
  if (!title.valid) return { field: 'title', error: title.error };
  if (fields.description.trim()) {
    const description = validateContent(fields.description, UPLOAD.descriptionMax);
    if (!description.valid) return { field: 'description', error: description.error };
  }
  if (fields.transcript?.trim()) {
    const transcript = validateContent(fields.transcript, UPLOAD.transcriptMax);
    if (!transcript.valid) return { field: 'transcript', error: transcript.error };
  }
  if (new Set(fields.categories).size !== fields.categories.length) return { field: 'categories', error: UPLOAD_MESSAGES.duplicateCategory };
  const known = new Set<string>(ASSIGNABLE_CATEGORIES.map((c) => c.id));
  if (fields.categories.some((c) => !known.has(c))) return { field: 'categories', error: UPLOAD_MESSAGES.unknownCategory };
  return undefined;
}

/** Spec 'Upload form' for the text fields; returns the first problem as the spec's title and detail. */
export function checkUploadFields(fields: UploadFields, hasFile: boolean): { valid: true } | { valid: false; title: string; error: string } {
  const problem = uploadFieldsProblem(fields, hasFile);
  return problem ? { valid: false, title: uploadProblemTitle(problem.field), error: problem.error } : { valid: true };
}

/** The form's schema: the text checks, then the chosen file's (name, size, declared type, stored type). One problem at a time, on its field. */
export const uploadFormSchema = z
  .object({
    title: z.string(),
    description: z.string(),
    categories: z.array(z.string()),
    tags: z.array(z.string()),
    transcript: z.string(),
    file: z.custom<File | null>((value) => value === null || value instanceof File),
  })
  .superRefine(({ file, ...fields }, ctx) => {
    const audio = file ? checkAudioFile(file) : { valid: true as const };
    const stored = file && audio.valid ? checkStoredType(file) : audio;
    const problem = uploadFieldsProblem(fields, file !== null) ?? (stored.valid ? undefined : { field: 'file' as const, error: stored.error });
    if (problem) ctx.addIssue({ code: 'custom', path: [problem.field === 'form' ? 'root' : problem.field], message: problem.error });
  });
export type UploadFormValues = z.infer<typeof uploadFormSchema>;

/** Tags are added on Add or Enter: trimmed, empty ones dropped, no duplicates (case-insensitive). */
export function addTag(tags: readonly string[], raw: string): string[] {
  const tag = raw.trim().replace(/\s+/g, ' ').slice(0, UPLOAD.tagMax);
  if (!tag || tags.some((t) => t.toLowerCase() === tag.toLowerCase()) || tags.length >= UPLOAD.tagsMax) return [...tags];
  return [...tags, tag];
}

export function normaliseTags(raw: readonly string[]): string[] {
  return raw.reduce<string[]>((acc, t) => addTag(acc, t), []);
}
