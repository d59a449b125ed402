/** Meditations tab: the upload form (checked here, checked again on the server) and the catalogue list. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Download, Pencil, Play, Plus, RefreshCw, Trash2, Upload, X } from 'lucide-react';
import { useId, useRef, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { addTag, checkAudioFile, checkStoredType, checkUploadFields, UPLOAD, UPLOAD_MESSAGES as U } from '#shared/admin.ts';
import { ASSIGNABLE_CATEGORIES, formatDurationMinutes } from '#shared/catalogue.ts';
import type { AdminMeditation } from '#shared/contracts/admin.ts';
import type { MeditationCard } from '#shared/contracts/catalogue.ts';
import { Button } from '#web/components/ui/button.tsx';
import { ConfirmDialog } from '#web/components/ui/confirm-dialog.tsx';
import { Field } from '#web/components/ui/field.tsx';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { Panel } from '#web/features/admin/admin-ui.tsx';
import { recordLocalAudit } from '#web/features/admin/local-audit-log.ts';
import { usePlayer } from '#web/features/player/player-context.tsx';
import { api, ApiError } from '#web/lib/api.ts';

const KEY = ['admin', 'meditations'] as const;
const categoryLabel = (id: string) => ASSIGNABLE_CATEGORIES.find((c) => c.id === id)?.label ?? id;
const megabytes = (bytes: number | null) => (bytes == null ? '–' : `${(bytes / (1024 * 1024)).toFixed(2)} MB`);
const textareaClass =
  'w-full rounded-2xl border border-stone-300 bg-white px-4 py-3 text-base text-stone-900 focus:border-teal-600 focus:outline-none focus:ring-2 focus:ring-teal-600/30 dark:border-stone-700 dark:bg-stone-950 dark:text-stone-50';

export function MeditationsTab() {
  const list = useQuery({ queryKey: KEY, queryFn: ({ signal }) => api<{ meditations: AdminMeditation[] }>('/api/admin/meditations', { signal }).then((r) => r.meditations) });
  const client = useQueryClient();
  const refresh = async () => {
    await client.invalidateQueries({ queryKey: KEY });
    // The public catalogue changes too.
    await client.invalidateQueries({ queryKey: ['meditations'] });
  };
  return (
    <div className="grid gap-6">
      <UploadForm onUploaded={refresh} />
      <Panel
        title="Catalogue"
        actions={
          <Button size="sm" variant="outline" onClick={() => void refresh()}>
            <RefreshCw className="size-4" aria-hidden /> Refresh
          </Button>
        }
      >
        {list.isPending ? (
          <Spinner label="Loading meditations..." />
        ) : list.isError ? (
          <p role="alert">The catalogue could not be loaded: {list.error.message}</p>
        ) : list.data.length === 0 ? (
          <p className="text-stone-600 dark:text-stone-300">No meditations yet. Upload the first one above.</p>
        ) : (
          <ul className="grid gap-4 md:grid-cols-2" aria-label="Meditations">
            {list.data.map((m) => (
              <AdminMeditationCard key={m.id} meditation={m} all={list.data} onChanged={refresh} />
            ))}
          </ul>
        )}
      </Panel>
    </div>
  );
}

/** Reads the length of a chosen file in the browser (the server reads it again from the bytes). */
function readDuration(file: File): Promise<number | null> {
  return new Promise((resolve) => {
    const url = URL.createObjectURL(file);
    const audio = new Audio();
    const done = (value: number | null) => {
      URL.revokeObjectURL(url);
      resolve(value);
    };
    audio.preload = 'metadata';
    audio.onloadedmetadata = () => done(Number.isFinite(audio.duration) ? audio.duration : null);
    audio.onerror = () => done(null);
    audio.src = url;
  });
}

type UploadResult = { status: number; body: { meditation?: AdminMeditation; error?: { message: string; details?: { title?: string } } } };

/** XMLHttpRequest rather than fetch: it reports upload progress. */
function sendWithProgress(form: FormData, onProgress: (percent: number) => void): Promise<UploadResult> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/api/admin/meditations');
    xhr.responseType = 'json';
    xhr.upload.onprogress = (event) => event.lengthComputable && onProgress(Math.round((event.loaded / event.total) * 100));
    xhr.onload = () => resolve({ status: xhr.status, body: (xhr.response ?? {}) as UploadResult['body'] });
    xhr.onerror = () => reject(new Error('The upload was interrupted. Please check your connection and try again.'));
    xhr.send(form);
  });
}

function UploadForm({ onUploaded }: { onUploaded: () => Promise<void> }) {
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [categories, setCategories] = useState<string[]>([]);
  const [tags, setTags] = useState<string[]>([]);
  const [tagDraft, setTagDraft] = useState('');
  const [transcript, setTranscript] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [duration, setDuration] = useState('');
  const [progress, setProgress] = useState<number | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const ids = { description: useId(), transcript: useId(), file: useId(), category: useId(), tags: useId() };

  const chooseFile = async (chosen: File | null) => {
    setFile(chosen);
    setDuration('');
    if (!chosen) return;
    const check = checkAudioFile({ name: chosen.name, size: chosen.size, type: chosen.type });
    if (!check.valid) return void toast.error(U.invalidFile, { description: check.error });
    const seconds = await readDuration(chosen);
    setDuration(seconds ? formatDurationMinutes(seconds) : '');
  };

  const reset = () => {
    setTitle('');
    setDescription('');
    setCategories([]);
    setTags([]);
    setTagDraft('');
    setTranscript('');
    setFile(null);
    setDuration('');
    if (fileInput.current) fileInput.current.value = '';
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (progress !== null) return;
    const fields = checkUploadFields({ title, description, categories, tags, transcript }, Boolean(file));
    if (!fields.valid) return void toast.error(fields.title, { description: fields.error });
    const audio = checkAudioFile({ name: file!.name, size: file!.size, type: file!.type });
    const stored = audio.valid ? checkStoredType({ name: file!.name, type: file!.type }) : audio;
    if (!stored.valid) return void toast.error(U.invalidFile, { description: stored.error });
    const form = new FormData();
    form.append('title', title);
    form.append('description', description);
    categories.forEach((c) => form.append('categories', c));
    tags.forEach((t) => form.append('tags', t));
    if (transcript.trim()) form.append('transcript', transcript);
    form.append('file', file!);
    setProgress(0);
    try {
      const result = await sendWithProgress(form, setProgress);
      if (result.status !== 201) {
        const error = result.body.error;
        toast.error(error?.details?.title ?? U.uploadFailedTitle, { description: error?.message ?? `The server answered ${result.status}.` });
        return;
      }
      toast.success(U.uploadedTitle, { description: `“${result.body.meditation?.title}” is now in the catalogue.` });
      recordLocalAudit({ action: 'meditation.upload', targetResource: 'meditation_previews', targetId: result.body.meditation?.id ?? null, changes: { title: result.body.meditation?.title } });
      reset();
      await onUploaded();
    } catch (error) {
      toast.error(U.uploadFailedTitle, { description: (error as Error).message });
    } finally {
      setProgress(null);
    }
  };

  const available = ASSIGNABLE_CATEGORIES.filter((c) => !categories.includes(c.id));
  return (
    <Panel title="Upload a meditation">
      <form onSubmit={submit} noValidate className="grid gap-5" aria-busy={progress !== null}>
        <Field label="Title" value={title} maxLength={UPLOAD.titleMax + 20} onChange={(e) => setTitle(e.target.value)} required />
        <div>
          <label htmlFor={ids.description} className="mb-1.5 block text-sm font-medium text-stone-700 dark:text-stone-200">
            Description
          </label>
          <textarea id={ids.description} rows={3} className={textareaClass} value={description} onChange={(e) => setDescription(e.target.value)} />
        </div>
        <div>
          <label htmlFor={ids.category} className="mb-1.5 block text-sm font-medium text-stone-700 dark:text-stone-200">
            Categories <span className="font-normal text-stone-500">(each once; the first is the main one)</span>
          </label>
          <div className="flex flex-wrap items-center gap-2">
            {categories.map((c) => (
              <span key={c} className="inline-flex items-center gap-1 rounded-full bg-teal-50 py-1 pl-3 pr-1 text-sm text-teal-900 dark:bg-teal-950 dark:text-teal-100">
                {categoryLabel(c)}
                <button type="button" className="rounded-full p-1 hover:bg-teal-100 dark:hover:bg-teal-900" aria-label={`Remove category ${categoryLabel(c)}`} onClick={() => setCategories((list) => list.filter((x) => x !== c))}>
                  <X className="size-3.5" aria-hidden />
                </button>
              </span>
            ))}
            {available.length ? (
              <select
                id={ids.category}
                className="h-9 rounded-full border border-stone-300 bg-white px-3 text-sm dark:border-stone-700 dark:bg-stone-950"
                value=""
                onChange={(e) => e.target.value && setCategories((list) => (list.includes(e.target.value) ? list : [...list, e.target.value]))}
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
        <div>
          <label htmlFor={ids.tags} className="mb-1.5 block text-sm font-medium text-stone-700 dark:text-stone-200">
            Tags
          </label>
          <div className="flex gap-2">
            <input
              id={ids.tags}
              value={tagDraft}
              onChange={(e) => setTagDraft(e.target.value)}
              onKeyDown={(e) => {
                if (e.key !== 'Enter') return;
                e.preventDefault();
                setTags((list) => addTag(list, tagDraft));
                setTagDraft('');
              }}
              className="h-10 min-w-0 flex-1 rounded-full border border-stone-300 bg-white px-4 text-sm dark:border-stone-700 dark:bg-stone-950"
            />
            <Button
              size="sm"
              variant="outline"
              onClick={() => {
                setTags((list) => addTag(list, tagDraft));
                setTagDraft('');
              }}
            >
              <Plus className="size-4" aria-hidden /> Add
            </Button>
          </div>
          {tags.length ? (
            <ul className="mt-2 flex flex-wrap gap-2" aria-label="Tags">
              {tags.map((t) => (
                <li key={t} className="inline-flex items-center gap-1 rounded-full bg-stone-100 py-1 pl-3 pr-1 text-sm dark:bg-stone-800">
                  {t}
                  <button type="button" className="rounded-full p-1 hover:bg-stone-200 dark:hover:bg-stone-700" aria-label={`Remove tag ${t}`} onClick={() => setTags((list) => list.filter((x) => x !== t))}>
                    <X className="size-3.5" aria-hidden />
                  </button>
                </li>
              ))}
            </ul>
          ) : null}
        </div>
        <div>
          <label htmlFor={ids.transcript} className="mb-1.5 block text-sm font-medium text-stone-700 dark:text-stone-200">
            Transcript <span className="font-normal text-stone-500">(optional; shown in the player)</span>
          </label>
          <textarea id={ids.transcript} rows={4} className={textareaClass} value={transcript} onChange={(e) => setTranscript(e.target.value)} />
        </div>
        <div className="grid gap-4 sm:grid-cols-[2fr_1fr]">
          <div>
            <label htmlFor={ids.file} className="mb-1.5 block text-sm font-medium text-stone-700 dark:text-stone-200">
              Audio file (MP3 or M4A, under 50MB)
            </label>
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
        {progress !== null ? (
          <div>
            <div role="progressbar" aria-label="Uploading" aria-valuemin={0} aria-valuemax={100} aria-valuenow={progress} className="h-2 w-full overflow-hidden rounded-full bg-stone-200 dark:bg-stone-800">
              <div className="h-full bg-teal-600 transition-[width] dark:bg-teal-400" style={{ width: `${progress}%` }} />
            </div>
            <p className="mt-1 text-sm text-stone-500">{progress < 100 ? `Uploading… ${progress}%` : 'Checking the audio…'}</p>
          </div>
        ) : null}
        <Button type="submit" disabled={progress !== null}>
          <Upload className="size-4" aria-hidden /> Upload meditation
        </Button>
      </form>
    </Panel>
  );
}

function AdminMeditationCard({ meditation: m, all, onChanged }: { meditation: AdminMeditation; all: AdminMeditation[]; onChanged: () => Promise<void> }) {
  const [editing, setEditing] = useState(false);
  const [title, setTitle] = useState(m.title);
  const [description, setDescription] = useState(m.description);
  const [transcript, setTranscript] = useState(m.transcript ?? '');
  const [confirming, setConfirming] = useState(false);
  const player = usePlayer();
  const transcriptId = useId();
  const descriptionId = useId();

  const save = useMutation({
    mutationFn: () => api(`/api/admin/meditations/${m.id}`, { method: 'PATCH', body: { title, description, transcript } }),
    onSuccess: async () => {
      toast.success(U.updatedTitle);
      recordLocalAudit({ action: 'meditation.update', targetResource: 'meditation_previews', targetId: m.id, changes: { title } });
      setEditing(false);
      await onChanged();
    },
    onError: (error) => toast.error('Error', { description: error instanceof ApiError ? `${U.updateFailed}: ${error.message}` : U.updateFailed }),
  });
  const remove = useMutation({
    mutationFn: () => api(`/api/admin/meditations/${m.id}`, { method: 'DELETE' }),
    onSuccess: async () => {
      toast.success(U.deletedTitle, { description: `“${m.title}” was removed with its audio file.` });
      recordLocalAudit({ action: 'meditation.delete', targetResource: 'meditation_previews', targetId: m.id, changes: { title: m.title }, severity: 'high' });
      await onChanged();
    },
    onError: () => toast.error('Error', { description: U.deleteFailed }),
  });

  const asCard = (x: AdminMeditation): MeditationCard => ({ id: x.id, title: x.title, description: x.description, duration: x.duration, durationSeconds: x.durationSeconds, category: x.category, categories: x.categories, tags: x.tags, hasTranscript: x.hasTranscript, createdAt: x.createdAt });

  return (
    <li className="rounded-2xl p-4 ring-1 ring-stone-200 dark:ring-stone-800" data-testid="admin-meditation">
      {editing ? (
        <form
          className="grid gap-3"
          onSubmit={(e) => {
            e.preventDefault();
            save.mutate();
          }}
        >
          <Field label="Title" value={title} onChange={(e) => setTitle(e.target.value)} />
          <div>
            <label htmlFor={descriptionId} className="mb-1 block text-sm font-medium">
              Description
            </label>
            <textarea id={descriptionId} rows={3} className={textareaClass} value={description} onChange={(e) => setDescription(e.target.value)} />
          </div>
          <div>
            <label htmlFor={transcriptId} className="mb-1 block text-sm font-medium">
              Transcript
            </label>
            <textarea id={transcriptId} rows={4} className={textareaClass} value={transcript} onChange={(e) => setTranscript(e.target.value)} />
          </div>
          <div className="flex gap-2">
            <Button type="submit" size="sm" disabled={save.isPending}>
              Save
            </Button>
            <Button
              size="sm"
              variant="outline"
              onClick={() => {
                setEditing(false);
                setTitle(m.title);
                setDescription(m.description);
                setTranscript(m.transcript ?? '');
              }}
            >
              Cancel
            </Button>
          </div>
        </form>
      ) : (
        <>
          <h3 className="font-serif text-lg font-semibold text-stone-900 dark:text-stone-50">{m.title}</h3>
          <p className="mt-1 text-sm text-stone-500 dark:text-stone-400">
            {categoryLabel(m.category)} · {m.durationSeconds ? `${Math.max(1, Math.round(m.durationSeconds / 60))} min` : m.duration}
          </p>
          <p className="mt-2 text-sm text-stone-600 dark:text-stone-300">{m.description}</p>
          {m.tags.length ? <p className="mt-2 text-xs text-stone-500">Tags: {m.tags.join(', ')}</p> : null}
          <p className="mt-2 text-xs text-stone-500">
            {m.fileName ?? 'No file'} · {megabytes(m.fileSizeBytes)}
            {m.hasTranscript ? ' · transcript' : ''}
          </p>
        </>
      )}
      {!editing ? (
        <div className="mt-3 flex flex-wrap gap-2">
          <Button size="sm" variant="outline" onClick={() => setEditing(true)} aria-label={`Edit ${m.title}`}>
            <Pencil className="size-4" aria-hidden /> Edit
          </Button>
          <Button size="sm" variant="outline" onClick={() => player.choose(asCard(m), all.map(asCard))} aria-label={`Play ${m.title}`}>
            <Play className="size-4" aria-hidden /> Play
          </Button>
          <a href={`/api/admin/meditations/${m.id}/download`} download className="inline-flex h-9 items-center gap-2 rounded-full px-3 text-sm font-medium text-stone-700 ring-1 ring-stone-300 hover:bg-stone-100 dark:text-stone-200 dark:ring-stone-700 dark:hover:bg-stone-800" aria-label={`Download ${m.title}`}>
            <Download className="size-4" aria-hidden /> Download
          </a>
          <Button size="sm" variant="ghost" onClick={() => setConfirming(true)} aria-label={`Delete ${m.title}`}>
            <Trash2 className="size-4" aria-hidden /> Delete
          </Button>
        </div>
      ) : null}
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Delete this meditation?"
        description={`“${m.title}” will be removed from the catalogue with its audio file. Favourites and downloads of it stop working. This cannot be undone.`}
        confirmLabel="Delete"
        onConfirm={() => remove.mutate()}
      />
    </li>
  );
}
