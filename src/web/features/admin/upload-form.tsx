/** The upload form: fields, categories, tags, transcript and the audio file, checked here before sending. */
import Upload from 'lucide-react/icons/upload';
import X from 'lucide-react/icons/x';
import { zodResolver } from '@hookform/resolvers/zod';
import { useId, useRef, useState, type SubmitEvent } from 'react';
import { useForm, useWatch, type FieldErrors } from 'react-hook-form';
import { toast } from '#web/lib/toast.ts';
import { ASSIGNABLE_CATEGORIES, formatDurationMinutes } from '#shared/catalogue.ts';
import { addTag, checkAudioFile, UPLOAD, UPLOAD_MESSAGES as U, uploadFormSchema, uploadProblemTitle, type UploadFormValues } from '#shared/uploads.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Field, FieldLabel } from '#web/components/ui/field.tsx';
import { TagInput } from '#web/components/ui/tag-input.tsx';
import { TextArea } from '#web/components/ui/text-area.tsx';
import { Panel } from '#web/features/admin/admin-ui.tsx';
import { recordLocalAudit } from '#web/features/admin/local-audit-log.ts';
import { readDuration, sendWithProgress } from '#web/features/admin/upload-request.ts';

const categoryLabel = (id: string) => ASSIGNABLE_CATEGORIES.find((c) => c.id === id)?.label ?? id;
const EMPTY: UploadFormValues = { title: '', description: '', categories: [], tags: [], transcript: '', file: null };
const PROBLEM_FIELDS = ['root', 'title', 'description', 'transcript', 'categories', 'file'] as const;

export function UploadForm({ onUploaded }: { onUploaded: () => Promise<void> }) {
  const { register, handleSubmit, reset, setValue, control, formState } = useForm<UploadFormValues>({ resolver: zodResolver(uploadFormSchema), defaultValues: EMPTY, reValidateMode: 'onSubmit' });
  const [categories, tags] = useWatch({ control, name: ['categories', 'tags'] });
  /** Changing it remounts the tag input, which clears its draft. */
  const [tagInputKey, setTagInputKey] = useState(0);
  const [duration, setDuration] = useState('');
  const [progress, setProgress] = useState<number | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const ids = { file: useId(), category: useId() };
  const setList = (name: 'categories' | 'tags', list: string[]) => setValue(name, list, { shouldDirty: true });

  const chooseFile = async (chosen: File | null) => {
    setValue('file', chosen);
    setDuration('');
    if (!chosen) return;
    const check = checkAudioFile({ name: chosen.name, size: chosen.size, type: chosen.type });
    if (!check.valid) { toast.error(U.invalidFile, { description: check.error }); return; }
    const seconds = await readDuration(chosen);
    setDuration(seconds ? formatDurationMinutes(seconds) : '');
  };

  const clear = () => {
    reset(EMPTY);
    setTagInputKey((k) => k + 1);
    setDuration('');
    if (fileInput.current) fileInput.current.value = '';
  };

  const upload = async ({ title, description, categories, tags, transcript, file }: UploadFormValues) => {
    // The schema has refused a form without a file; this only tells the compiler.
    if (!file) return;
    const form = new FormData();
    form.append('title', title);
    form.append('description', description);
    categories.forEach((c) => form.append('categories', c));
    tags.forEach((t) => form.append('tags', t));
    if (transcript.trim()) form.append('transcript', transcript);
    form.append('file', file);
    setProgress(0);
    try {
      const result = await sendWithProgress(form, setProgress);
      if (result.status !== 201) {
        const error = result.body.error;
        toast.error(error?.details?.title ?? U.uploadFailedTitle, { description: error?.message ?? `The server answered ${result.status}.` });
        return;
      }
      const created = result.body.meditation;
      toast.success(U.uploadedTitle, { description: `“${created?.title ?? ''}” is now in the catalogue.` });
      recordLocalAudit({ action: 'meditation.upload', targetResource: 'meditation_previews', targetId: created?.id ?? null, changes: { title: created?.title } });
      clear();
      await onUploaded();
    } catch (error) {
      toast.error(U.uploadFailedTitle, { description: error instanceof Error ? error.message : String(error) });
    } finally {
      setProgress(null);
    }
  };
  const refuse = (errors: FieldErrors<UploadFormValues>) => {
    const field = PROBLEM_FIELDS.find((name) => errors[name]?.message);
    if (field) toast.error(uploadProblemTitle(field === 'root' ? 'form' : field), { description: errors[field]?.message });
  };
  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    if (progress !== null || formState.isSubmitting) {
      event.preventDefault();
      return;
    }
    void handleSubmit(upload, refuse)(event);
  };

  const available = ASSIGNABLE_CATEGORIES.filter((c) => !categories.includes(c.id));
  return (
    <Panel title="Upload a meditation">
      <form onSubmit={submit} noValidate className="grid gap-5" aria-busy={progress !== null}>
        <Field label="Title" maxLength={UPLOAD.titleMax + 20} required {...register('title')} />
        <TextArea label="Description" rows={3} {...register('description')} />
        <div>
          <FieldLabel htmlFor={ids.category} note="(each once; the first is the main one)">
            Categories
          </FieldLabel>
          <div className="flex flex-wrap items-center gap-2">
            {categories.map((c) => (
              <span key={c} className="inline-flex items-center gap-1 rounded-full bg-teal-50 py-1 pl-3 pr-1 text-sm text-teal-900 dark:bg-teal-950 dark:text-teal-100">
                {categoryLabel(c)}
                <button type="button" className="rounded-full p-1 hover:bg-teal-100 dark:hover:bg-teal-900" aria-label={`Remove category ${categoryLabel(c)}`} onClick={() => setList('categories', categories.filter((x) => x !== c))}>
                  <X className="size-3.5" aria-hidden />
                </button>
              </span>
            ))}
            {available.length ? (
              <select
                id={ids.category}
                className="h-9 rounded-full border border-stone-300 bg-white px-3 text-sm dark:border-stone-700 dark:bg-stone-950"
                value=""
                onChange={(e) => {
                  const chosen = e.target.value;
                  if (chosen && !categories.includes(chosen)) setList('categories', [...categories, chosen]);
                }}
              >
                <option value="">Add a category…</option>
                {available.map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.label}
                  </option>
                ))}
              </select>
            ) : null}
          </div>
        </div>
        <TagInput key={tagInputKey} label="Tags" tags={tags} onChange={(list) => setList('tags', list)} add={addTag} />
        <TextArea label="Transcript" note="(optional; shown in the player)" rows={4} {...register('transcript')} />
        <div className="grid gap-4 sm:grid-cols-[2fr_1fr]">
          <div>
            <FieldLabel htmlFor={ids.file}>Audio file (MP3 or M4A, under 50MB)</FieldLabel>
            <input
              ref={fileInput}
              id={ids.file}
              type="file"
              accept=".mp3,.m4a,audio/mpeg,audio/mp4,audio/x-m4a"
              onChange={(e) => void chooseFile(e.target.files?.[0] ?? null)}
              className="block w-full text-sm file:mr-3 file:rounded-full file:border-0 file:bg-teal-50 file:px-4 file:py-2 file:text-teal-900 dark:file:bg-teal-950 dark:file:text-teal-100"
            />
          </div>
          <Field label="Duration" value={duration} readOnly hint="Read from the audio file" placeholder="Choose a file" />
        </div>
        {progress !== null ? <UploadProgress percent={progress} /> : null}
        <Button type="submit" disabled={progress !== null}>
          <Upload className="size-4" aria-hidden /> Upload meditation
        </Button>
      </form>
    </Panel>
  );
}

function UploadProgress({ percent }: { percent: number }) {
  return (
    <div>
      <div role="progressbar" aria-label="Uploading" aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent} className="h-2 w-full overflow-hidden rounded-full bg-stone-200 dark:bg-stone-800">
        <div className="h-full bg-teal-600 transition-[width] dark:bg-teal-400" style={{ width: `${percent}%` }} />
      </div>
      <p className="mt-1 text-sm text-stone-500 dark:text-stone-400">{percent < 100 ? `Uploading… ${percent}%` : 'Checking the audio…'}</p>
    </div>
  );
}
