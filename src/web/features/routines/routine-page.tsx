/**
 * /morning-routine and /evening-routine: pick a template or build your own, tick things off,
 * save today's progress (on this device). Browsing and ticking need no account; saving does.
 */
import Check from 'lucide-react/icons/check';
import Clock from 'lucide-react/icons/clock';
import Lock from 'lucide-react/icons/lock';
import Plus from 'lucide-react/icons/plus';
import X from 'lucide-react/icons/x';
import { totalMinutes, type Activity, type RoutineKind } from '#shared/routines.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Tabs, TabsBar, TabsContent, type TabItem } from '#web/components/ui/tabs.tsx';
import { SignInGuard } from '#web/features/auth/sign-in-guard.tsx';
import { useRoutine, type RoutineTab } from '#web/features/routines/use-routine.ts';

const ROUTINE_TABS: readonly TabItem[] = [
  { value: 'templates', label: 'Choose a Template' },
  { value: 'custom', label: 'Create Custom Routine' },
];

export function RoutinePage({ kind }: { kind: RoutineKind }) {
  const { copy, templates, template, checks, custom, tab, setTab, selectTemplate, toggleTemplate, setCustom, customise, save } = useRoutine(kind);

  return (
    <div className="mx-auto max-w-5xl px-4 py-12 sm:px-6">
      <h1 className="font-serif text-4xl font-semibold tracking-tight text-stone-900 sm:text-5xl dark:text-stone-50">{copy.title}</h1>
      <p className="mt-3 text-lg text-stone-600 dark:text-stone-300">{copy.hint}</p>
      <Tabs value={tab} onValueChange={(v) => setTab(v as RoutineTab)} className="mt-8">
        <TabsBar label="Routine" tabs={ROUTINE_TABS} />

        <TabsContent value="templates" className="mt-6">
          <ul className="grid gap-4 sm:grid-cols-2" aria-label="Templates">
            {templates.map((t) => {
              const on = t.id === template.id;
              return (
                <li key={t.id}>
                  <button
                    type="button"
                    aria-pressed={on}
                    onClick={() => selectTemplate(t.id)}
                    className={`h-full w-full rounded-3xl p-5 text-left ring-1 transition ${on ? 'bg-teal-50 ring-2 ring-teal-600 dark:bg-teal-950 dark:ring-teal-300' : 'bg-white ring-stone-200 hover:bg-stone-50 dark:bg-stone-900 dark:ring-stone-800'}`}
                  >
                    <span className="block font-serif text-xl font-semibold text-stone-900 dark:text-stone-50">{t.title}</span>
                    <span className="mt-1 block text-sm text-stone-600 dark:text-stone-300">{t.description}</span>
                    <span className="mt-3 flex items-center gap-3 text-sm text-stone-500 dark:text-stone-400">
                      <span>{t.activities.length} activities</span>
                      <span className="inline-flex items-center gap-1">
                        <Clock className="size-4" aria-hidden /> {totalMinutes(t.activities)} min
                      </span>
                    </span>
                  </button>
                </li>
              );
            })}
          </ul>
          <section aria-label={`${template.title} checklist`} className="mt-6 rounded-3xl bg-white p-6 ring-1 ring-stone-200 dark:bg-stone-900 dark:ring-stone-800">
            <h2 className="font-serif text-2xl font-semibold text-stone-900 dark:text-stone-50">{template.title}</h2>
            <p className="mt-1 text-sm text-stone-500 dark:text-stone-400" data-testid="routine-progress">
              {checks.filter(Boolean).length} of {checks.length} done · {totalMinutes(template.activities)} min in total
            </p>
            <ul className="mt-4 grid gap-2">
              {template.activities.map((activity, i) => (
                <li key={activity.id}>
                  <label className="flex cursor-pointer items-center gap-3 rounded-2xl p-3 hover:bg-stone-50 dark:hover:bg-stone-800">
                    <input type="checkbox" checked={checks[i] ?? false} onChange={() => toggleTemplate(i)} className="size-5 accent-teal-700" />
                    <span className={`flex-1 ${checks[i] ? 'text-stone-400 line-through' : 'text-stone-800 dark:text-stone-100'}`}>{activity.title}</span>
                    <span className="text-sm text-stone-500 dark:text-stone-400">{activity.duration}</span>
                  </label>
                </li>
              ))}
            </ul>
            <div className="mt-5 flex flex-wrap items-center gap-3">
              <Button variant="outline" onClick={customise}>
                Customise This Routine
              </Button>
              <SaveControl onSave={() => save('templates')} />
            </div>
          </section>
        </TabsContent>

        <TabsContent value="custom" className="mt-6">
          <CustomRoutine kind={kind} rows={custom} onChange={setCustom} onSave={() => save('custom')} />
        </TabsContent>
      </Tabs>
    </div>
  );
}

function SaveControl({ onSave }: { onSave: () => void }) {
  return (
    <div className="min-w-64">
      <p className="mb-3 text-sm text-stone-600 dark:text-stone-300" data-testid="routine-kept">
        Your ticks stay on this device until midnight, even if you close the page.
      </p>
      <SignInGuard>
        <Button onClick={onSave}>
          <Check className="size-4" aria-hidden /> Save progress
        </Button>
      </SignInGuard>
    </div>
  );
}

function CustomRoutine({ kind, rows, onChange, onSave }: { kind: RoutineKind; rows: Activity[]; onChange: (rows: Activity[]) => void; onSave: () => void }) {
  const update = (i: number, patch: Partial<Activity>) => onChange(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  return (
    <section aria-label="Custom routine" className="rounded-3xl bg-white p-4 ring-1 sm:p-6 ring-stone-200 dark:bg-stone-900 dark:ring-stone-800">
      <p className="text-sm text-stone-500 dark:text-stone-400">Your routine starts with a meditation; add whatever helps you after it. {totalMinutes(rows)} min in total.</p>
      <ol className="mt-4 grid gap-3">
        {rows.map((row, i) => {
          const locked = i === 0;
          return (
            // On a phone the name gets the whole row and the duration sits under it; wider, they share one line.
            <li key={row.id} className="grid grid-cols-[auto_1fr_auto] items-center gap-2 sm:grid-cols-[auto_1fr_8rem_auto]" data-testid="custom-activity">
              <input type="checkbox" aria-label={`Done: ${row.title || `activity ${i + 1}`}`} checked={row.completed ?? false} onChange={() => update(i, { completed: !row.completed })} className="size-5 accent-teal-700" />
              {/* The required first activity has no remove button: on a phone its name takes that room too. */}
              <div className={`relative ${locked ? 'col-span-2 sm:col-span-1' : ''}`}>
                <input
                  aria-label={`Activity ${i + 1}${locked ? ' (required)' : ''}`}
                  value={row.title}
                  readOnly={locked}
                  aria-readonly={locked}
                  placeholder="What will you do?"
                  maxLength={200}
                  onChange={(e) => !locked && update(i, { title: e.target.value })}
                  className={`h-11 w-full rounded-2xl border border-stone-300 px-4 dark:border-stone-700 ${locked ? 'bg-stone-100 pr-10 text-stone-700 dark:bg-stone-800 dark:text-stone-200' : 'bg-white dark:bg-stone-950'}`}
                />
                {locked ? <Lock className="absolute right-3 top-1/2 size-4 -translate-y-1/2 text-stone-400" aria-label="Required, cannot be changed" /> : null}
              </div>
              <input aria-label={`Duration of activity ${i + 1}`} value={row.duration} placeholder="10 mins" maxLength={40} onChange={(e) => update(i, { duration: e.target.value })} className="col-start-2 row-start-2 h-11 w-full rounded-2xl border border-stone-300 bg-white px-3 sm:col-start-3 sm:row-start-1 dark:border-stone-700 dark:bg-stone-950" />
              {locked ? (
                <span className="hidden size-9 sm:col-start-4 sm:row-start-1 sm:block" aria-hidden />
              ) : (
                <button type="button" className="col-start-3 row-start-1 inline-flex size-9 sm:col-start-4 items-center justify-center rounded-full text-stone-500 dark:text-stone-400 hover:bg-stone-100 dark:hover:bg-stone-800" aria-label={`Remove activity ${i + 1}`} onClick={() => onChange(rows.filter((_, j) => j !== i))}>
                  <X className="size-4" aria-hidden />
                </button>
              )}
            </li>
          );
        })}
      </ol>
      <div className="mt-5 flex flex-wrap items-center gap-3">
        <Button variant="outline" onClick={() => onChange([...rows, { id: `custom-${Date.now()}`, title: '', duration: '' }])}>
          <Plus className="size-4" aria-hidden /> Add Another Activity
        </Button>
        <SaveControl onSave={onSave} />
      </div>
      <p className="sr-only">{kind === 'morning' ? 'Morning' : 'Evening'} routine</p>
    </section>
  );
}
