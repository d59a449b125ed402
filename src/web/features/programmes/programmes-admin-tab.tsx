/**
 * The dashboard's Programmes tab (issue 37, item 2; decision 0051), for admins and editors: create and
 * edit a programme (address, title, description, cover, and its days: a meditation and an optional
 * reflection prompt each), publish or withdraw it, move it up or down the public list, delete it behind a
 * confirmation. The form checks with the shared schema as the server does; the server checks again
 * (and alone knows which meditations exist and are free: day 1 must be).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import ArrowDown from 'lucide-react/icons/arrow-down';
import ArrowUp from 'lucide-react/icons/arrow-up';
import Plus from 'lucide-react/icons/plus';
import Trash2 from 'lucide-react/icons/trash-2';
import { useId, useState } from 'react';
import { adminApi } from '#shared/contracts/admin.routes.ts';
import { programmeBody, type AdminProgramme, type ProgrammeBody } from '#shared/contracts/programmes.ts';
import { programmesApi } from '#shared/contracts/programmes.routes.ts';
import { queryKeyOf } from '#shared/contracts/route.ts';
import { ASSIGNABLE_CATEGORIES } from '#shared/catalogue.ts';
import { daysLabel, programmePath } from '#shared/programmes.ts';
import { Button } from '#web/components/ui/button.tsx';
import { ConfirmDialogFor } from '#web/components/ui/confirm-dialog.tsx';
import { Field } from '#web/components/ui/field.tsx';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { TextArea } from '#web/components/ui/text-area.tsx';
import { Panel, selectClass } from '#web/features/admin/admin-ui.tsx';
import { call } from '#web/lib/call.ts';
import { ListStates } from '#web/components/ui/list-states.tsx';

const KEY = queryKeyOf(programmesApi.adminList);
type Draft = { slug: string; title: string; description: string; cover: string; days: { meditationId: string; reflection: string }[] };
const blank = (): Draft => ({ slug: '', title: '', description: '', cover: 'mindfulness', days: [{ meditationId: '', reflection: '' }, { meditationId: '', reflection: '' }] });
const draftOf = (p: AdminProgramme): Draft => ({ slug: p.slug, title: p.title, description: p.description, cover: p.cover, days: p.days.map((d) => ({ meditationId: d.meditationId ?? '', reflection: d.reflection ?? '' })) });
const bodyOf = (d: Draft): unknown => ({ ...d, days: d.days.map((day) => ({ meditationId: day.meditationId, reflection: day.reflection.trim() ? day.reflection : null })) });

export function ProgrammesAdminTab() {
  const client = useQueryClient();
  const list = useQuery({ queryKey: KEY, queryFn: ({ signal }) => call(programmesApi.adminList, {}, { signal }).then((r) => r.programmes) });
  const [editing, setEditing] = useState<AdminProgramme | 'new' | null>(null);
  const [deleting, setDeleting] = useState<AdminProgramme | null>(null);
  const refresh = async () => {
    // The dashboard's list and the public ones (the whole feature: the list above is one of its queries).
    await client.invalidateQueries({ queryKey: [programmesApi.list.feature] });
  };
  const action = useMutation({
    mutationFn: (run: () => Promise<unknown>) => run(),
    onSuccess: refresh,
  });
  const move = (index: number, by: -1 | 1) => {
    const ids = (list.data ?? []).map((p) => p.id);
    const [id] = ids.splice(index, 1);
    ids.splice(index + by, 0, id);
    action.mutate(() => call(programmesApi.order, { body: { ids } }));
  };

  return (
    <div className="grid gap-6">
      {editing ? (
        <ProgrammeForm key={editing === 'new' ? 'new' : editing.id} programme={editing === 'new' ? null : editing} onDone={() => setEditing(null)} onSaved={refresh} />
      ) : (
        <div>
          <Button onClick={() => setEditing('new')}>
            <Plus className="size-4" aria-hidden /> New programme
          </Button>
        </div>
      )}
      <Panel title="Programmes">
        {action.isError ? (
          <p role="alert" className="mb-4 text-rose-800 dark:text-rose-300">
            {action.error.message}
          </p>
        ) : null}
        <ListStates query={list} loading="Loading programmes..." failed="The programmes could not be loaded" empty="No programmes yet. Create the first one above.">
          {(items) => (
          <ol className="grid gap-3" aria-label="Programmes, in the order people see them">
            {items.map((p, index) => (
              <li key={p.id} className="flex flex-wrap items-center justify-between gap-3 rounded-2xl p-4 ring-1 ring-stone-200 dark:ring-stone-800">
                <div className="min-w-0">
                  <p className="font-semibold text-stone-900 dark:text-stone-50">{p.title}</p>
                  <p className="text-sm text-stone-600 dark:text-stone-300">
                    {programmePath(p.slug)} · {daysLabel(p.dayCount)} · {p.published ? 'Published' : 'Draft'}
                    {p.days[0] && !p.days[0].free ? ' · Day 1 is not free to try' : ''}
                  </p>
                </div>
                <div className="flex flex-wrap gap-2">
                  <Button size="sm" variant="outline" aria-label={`Move ${p.title} up`} disabled={index === 0 || action.isPending} onClick={() => move(index, -1)}>
                    <ArrowUp className="size-4" aria-hidden />
                  </Button>
                  <Button size="sm" variant="outline" aria-label={`Move ${p.title} down`} disabled={index === items.length - 1 || action.isPending} onClick={() => move(index, 1)}>
                    <ArrowDown className="size-4" aria-hidden />
                  </Button>
                  <Button
                    size="sm"
                    variant="secondary"
                    disabled={action.isPending}
                    onClick={() => action.mutate(() => call(programmesApi.publish, { params: { id: p.id }, body: { published: !p.published } }))}
                  >
                    {p.published ? `Unpublish ${p.title}` : `Publish ${p.title}`}
                  </Button>
                  <Button size="sm" variant="outline" onClick={() => setEditing(p)}>
                    Edit <span className="sr-only">{p.title}</span>
                  </Button>
                  <Button size="sm" variant="ghost" aria-label={`Delete ${p.title}`} onClick={() => setDeleting(p)}>
                    <Trash2 className="size-4" aria-hidden />
                  </Button>
                </div>
              </li>
            ))}
          </ol>
          )}
        </ListStates>
      </Panel>
      <ConfirmDialogFor
        subject={deleting}
        onClose={() => setDeleting(null)}
        title={`Delete ${deleting?.title ?? 'this programme'}?`}
        description="People following it lose their place in it. Their practice history stays."
        confirmLabel="Delete programme"
        onConfirm={(target) => action.mutate(() => call(programmesApi.remove, { params: { id: target.id } }))}
      />
    </div>
  );
}

function ProgrammeForm({ programme, onDone, onSaved }: { programme: AdminProgramme | null; onDone: () => void; onSaved: () => Promise<void> }) {
  const [draft, setDraft] = useState<Draft>(() => (programme ? draftOf(programme) : blank()));
  const [error, setError] = useState<string | null>(null);
  const meditations = useQuery({ queryKey: queryKeyOf(adminApi.meditations), queryFn: ({ signal }) => call(adminApi.meditations, {}, { signal }).then((r) => r.meditations) });
  const coverId = useId();
  const save = useMutation({
    mutationFn: (body: ProgrammeBody) => (programme ? call(programmesApi.update, { params: { id: programme.id }, body }) : call(programmesApi.create, { body })),
    onSuccess: async () => {
      await onSaved();
      onDone();
    },
    onError: (e) => setError(e.message),
  });
  const set = (change: Partial<Draft>) => setDraft((d) => ({ ...d, ...change }));
  const setDay = (index: number, change: Partial<Draft['days'][number]>) => set({ days: draft.days.map((day, i) => (i === index ? { ...day, ...change } : day)) });
  const submit = () => {
    const checked = programmeBody.safeParse(bodyOf(draft));
    if (!checked.success) {
      setError(checked.error.issues[0]?.message ?? 'Please check the programme.');
      return;
    }
    setError(null);
    save.mutate(checked.data);
  };

  return (
    <Panel title={programme ? `Edit ${programme.title}` : 'New programme'}>
      <form
        className="grid gap-4"
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <Field label="Title" value={draft.title} onChange={(e) => set({ title: e.target.value })} />
        <Field label="Address" hint="Lower-case words and hyphens, e.g. seven-days-of-calm" value={draft.slug} onChange={(e) => set({ slug: e.target.value })} />
        <TextArea label="Short description" value={draft.description} onChange={(e) => set({ description: e.target.value })} />
        <div>
          <label htmlFor={coverId} className="mb-1.5 block text-sm font-medium text-stone-800 dark:text-stone-100">
            Cover
          </label>
          <select id={coverId} className={selectClass} value={draft.cover} onChange={(e) => set({ cover: e.target.value })}>
            {ASSIGNABLE_CATEGORIES.map((c) => (
              <option key={c.id} value={c.id}>
                {c.label}
              </option>
            ))}
          </select>
        </div>
        <fieldset className="grid gap-3">
          <legend className="mb-2 text-sm font-medium text-stone-800 dark:text-stone-100">Days (day 1 must be free to try)</legend>
          {meditations.isPending ? <Spinner label="Loading meditations..." /> : null}
          {draft.days.map((day, index) => (
            <div key={index} className="grid gap-2 rounded-2xl p-3 ring-1 ring-stone-200 dark:ring-stone-800">
              <div className="flex flex-wrap items-center gap-2">
                <label htmlFor={`${coverId}-day-${index}`} className="text-sm font-semibold">{`Day ${index + 1}`}</label>
                <select id={`${coverId}-day-${index}`} className={selectClass} value={day.meditationId} onChange={(e) => setDay(index, { meditationId: e.target.value })}>
                  <option value="">Choose a meditation</option>
                  {(meditations.data ?? []).map((m) => (
                    <option key={m.id} value={m.id}>
                      {m.free ? `${m.title} (free to try)` : m.title}
                    </option>
                  ))}
                </select>
                <Button type="button" size="sm" variant="ghost" aria-label={`Remove day ${index + 1}`} disabled={draft.days.length <= 1} onClick={() => set({ days: draft.days.filter((_, i) => i !== index) })}>
                  <Trash2 className="size-4" aria-hidden />
                </Button>
              </div>
              <TextArea label={`Reflection prompt for day ${index + 1}`} note="(optional)" rows={2} value={day.reflection} onChange={(e) => setDay(index, { reflection: e.target.value })} />
            </div>
          ))}
          <div>
            <Button type="button" size="sm" variant="outline" onClick={() => set({ days: [...draft.days, { meditationId: '', reflection: '' }] })}>
              <Plus className="size-4" aria-hidden /> Add a day
            </Button>
          </div>
        </fieldset>
        {error ? (
          <p role="alert" className="text-rose-800 dark:text-rose-300">
            {error}
          </p>
        ) : null}
        <div className="flex gap-3">
          <Button type="submit" disabled={save.isPending}>
            {programme ? 'Save changes' : 'Create programme'}
          </Button>
          <Button type="button" variant="outline" onClick={onDone}>
            Cancel
          </Button>
        </div>
      </form>
    </Panel>
  );
}
