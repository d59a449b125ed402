/** One meditation in the admin catalogue: its details, edit in place, play, download, delete. */
import { useMutation } from '@tanstack/react-query';
import Download from 'lucide-react/icons/download';
import Pencil from 'lucide-react/icons/pencil';
import Play from 'lucide-react/icons/play';
import Trash2 from 'lucide-react/icons/trash-2';
import { useState } from 'react';
import { toast } from '#web/lib/toast.ts';
import { ASSIGNABLE_CATEGORIES, displayDuration } from '#shared/catalogue.ts';
import type { AdminMeditation } from '#shared/contracts/admin.ts';
import { adminApi } from '#shared/contracts/admin.routes.ts';
import type { MeditationCard } from '#shared/contracts/catalogue.ts';
import { MESSAGES } from '#shared/messages.ts';
import { UPLOAD_MESSAGES as U } from '#shared/uploads.ts';
import { Button } from '#web/components/ui/button.tsx';
import { ConfirmDialog } from '#web/components/ui/confirm-dialog.tsx';
import { Field } from '#web/components/ui/field.tsx';
import { TextArea } from '#web/components/ui/text-area.tsx';
import { recordLocalAudit } from '#web/features/admin/local-audit-log.ts';
import { usePlayer } from '#web/features/player/player-context.tsx';
import { ApiError } from '#web/lib/api.ts';
import { call } from '#web/lib/call.ts';

const categoryLabel = (id: string) => ASSIGNABLE_CATEGORIES.find((c) => c.id === id)?.label ?? id;
const megabytes = (bytes: number | null) => (bytes == null ? '–' : `${(bytes / (1024 * 1024)).toFixed(2)} MB`);
const asCard = (x: AdminMeditation): MeditationCard => ({ id: x.id, title: x.title, description: x.description, duration: x.duration, durationSeconds: x.durationSeconds, category: x.category, categories: x.categories, tags: x.tags, hasTranscript: x.hasTranscript, free: x.free, createdAt: x.createdAt });

export function AdminMeditationCard({ meditation: m, all, onChanged }: { meditation: AdminMeditation; all: AdminMeditation[]; onChanged: () => Promise<void> }) {
  const [editing, setEditing] = useState(false);
  const [title, setTitle] = useState(m.title);
  const [description, setDescription] = useState(m.description);
  const [transcript, setTranscript] = useState(m.transcript ?? '');
  const [free, setFree] = useState(m.free);
  const [confirming, setConfirming] = useState(false);
  const player = usePlayer();

  const save = useMutation({
    mutationFn: () => call(adminApi.updateMeditation, { params: { id: m.id }, body: { title, description, transcript, free } }),
    onSuccess: async () => {
      toast.success(U.updatedTitle);
      recordLocalAudit({ action: 'meditation.update', targetResource: 'meditation_previews', targetId: m.id, changes: { title, free } });
      setEditing(false);
      await onChanged();
    },
    onError: (error) => toast.error('Error', { description: error instanceof ApiError ? `${U.updateFailed}: ${error.message}` : U.updateFailed }),
  });
  const remove = useMutation({
    mutationFn: () => call(adminApi.removeMeditation, { params: { id: m.id } }),
    onSuccess: async () => {
      toast.success(U.deletedTitle, { description: `“${m.title}” was removed with its audio file.` });
      recordLocalAudit({ action: 'meditation.delete', targetResource: 'meditation_previews', targetId: m.id, changes: { title: m.title }, severity: 'high' });
      await onChanged();
    },
    onError: () => toast.error('Error', { description: U.deleteFailed }),
  });

  const cancel = () => {
    setEditing(false);
    setTitle(m.title);
    setDescription(m.description);
    setTranscript(m.transcript ?? '');
    setFree(m.free);
  };

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
          <TextArea label="Description" rows={3} value={description} onChange={(e) => setDescription(e.target.value)} />
          <TextArea label="Transcript" rows={4} value={transcript} onChange={(e) => setTranscript(e.target.value)} />
          <div className="flex items-start gap-3 text-sm text-stone-700 dark:text-stone-200">
            <input id={`${m.id}-free`} type="checkbox" checked={free} onChange={(e) => setFree(e.target.checked)} aria-describedby={`${m.id}-free-hint`} className="mt-0.5 size-5 accent-teal-700" />
            <div>
              <label htmlFor={`${m.id}-free`} className="font-medium">
                {MESSAGES.catalogue.freeSample}
              </label>
              <p id={`${m.id}-free-hint`} className="text-stone-500 dark:text-stone-400">
                Anyone can play it, without an account or a subscription.
              </p>
            </div>
          </div>
          <div className="flex gap-2">
            <Button type="submit" size="sm" disabled={save.isPending}>
              Save
            </Button>
            <Button size="sm" variant="outline" onClick={cancel}>
              Cancel
            </Button>
          </div>
        </form>
      ) : (
        <>
          <h3 className="font-serif text-lg font-semibold text-stone-900 dark:text-stone-50">{m.title}</h3>
          <p className="mt-1 text-sm text-stone-500 dark:text-stone-400">
            {categoryLabel(m.category)} · {displayDuration(m)}
          </p>
          <p className="mt-2 text-sm text-stone-600 dark:text-stone-300">{m.description}</p>
          {m.tags.length ? <p className="mt-2 text-xs text-stone-500 dark:text-stone-400">Tags: {m.tags.join(', ')}</p> : null}
          <p className="mt-2 text-xs text-stone-500 dark:text-stone-400">
            {m.fileName ?? 'No file'} · {megabytes(m.fileSizeBytes)}
            {m.hasTranscript ? ' · transcript' : ''}
            {m.free ? ` · ${MESSAGES.catalogue.freeSample.toLowerCase()}` : ''}
          </p>
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
        </>
      )}
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
