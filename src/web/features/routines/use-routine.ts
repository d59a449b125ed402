/**
 * A routine's state on this device: today's ticks per template and the custom routine, the tab and
 * template in view, saving (spec: local storage, progress only for today) and the midnight reset.
 */
import { useEffect, useState } from 'react';
import { STORAGE_KEYS } from '#shared/constants.ts';
import { toast } from '#web/lib/toast.ts';
import { localDay, msUntilNextMidnight } from '#shared/days.ts';
import { customProgress, DEFAULT_TEMPLATE, emptyProgress, readRoutine, ROUTINE_COPY, ROUTINE_TEMPLATES, routineSavedMessage, type Activity, type RoutineKind, type StoredRoutine } from '#shared/routines.ts';
import { readStored, removeStored, writeStored } from '#web/lib/storage.ts';
import { usePageTitle } from '#web/lib/use-page-title.ts';

export type RoutineTab = 'templates' | 'custom';

/**
 * Today's routine: the draft kept as it changes (issue 17, item 7: ticks were lost on a reload unless
 * saved), else what was saved. Either is used only on the day it was written.
 */
function load(kind: RoutineKind): StoredRoutine {
  const today = localDay(new Date());
  const draft = readStored(STORAGE_KEYS.routineDraft[kind]);
  return readRoutine(kind, isToday(draft, today) ? draft : readStored(ROUTINE_COPY[kind].storageKey), today);
}

function isToday(raw: string | null, today: string): boolean {
  try {
    return (JSON.parse(raw ?? 'null') as { date?: unknown } | null)?.date === today;
  } catch {
    return false;
  }
}

export function useRoutine(kind: RoutineKind) {
  const copy = ROUTINE_COPY[kind];
  const templates = ROUTINE_TEMPLATES[kind];
  const [shownKind, setShownKind] = useState(kind);
  const [routine, setRoutine] = useState<StoredRoutine>(() => load(kind));
  const [tab, setTab] = useState<RoutineTab>('templates');
  const [selected, setSelected] = useState(DEFAULT_TEMPLATE);
  // Changes the person made since this routine was loaded: only those are written as the draft.
  const [edits, setEdits] = useState(0);

  // Morning and evening share this hook: switching starts from the other routine's own saved day,
  // set while rendering so the old routine never shows under the new title.
  if (shownKind !== kind) {
    setShownKind(kind);
    setRoutine(load(kind));
    setEdits(0);
    setTab('templates');
    setSelected(DEFAULT_TEMPLATE);
  }

  usePageTitle(copy.title);

  // Spec: progress resets at the next local midnight, and every day after.
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout>;
    const arm = () => {
      timer = setTimeout(() => {
        setRoutine(emptyProgress(kind, localDay(new Date())));
        removeStored(ROUTINE_COPY[kind].storageKey);
        removeStored(STORAGE_KEYS.routineDraft[kind]);
        arm();
      }, msUntilNextMidnight(new Date()) + 500);
    };
    arm();
    return () => clearTimeout(timer);
  }, [kind]);

  // Every change is kept on this device at once: a reload or a closed tab loses nothing.
  useEffect(() => {
    if (edits === 0) return;
    writeStored(STORAGE_KEYS.routineDraft[kind], JSON.stringify({ ...routine, date: localDay(new Date()) }));
  }, [kind, routine, edits]);

  const template = templates.find((t) => t.id === selected) ?? templates[0];
  const checks = routine.progress[template.id] ?? template.activities.map(() => false);

  const change = (update: (r: StoredRoutine) => StoredRoutine) => {
    setRoutine(update);
    setEdits((n) => n + 1);
  };
  const toggleTemplate = (i: number) => change((r) => ({ ...r, progress: { ...r.progress, [template.id]: checks.map((c, j) => (j === i ? !c : c)) } }));
  const setCustom = (custom: Activity[]) => change((r) => ({ ...r, custom }));

  /** Starts a custom routine from the template in view (its meditation stays the locked first row). */
  const customise = () => {
    const extra = template.activities.filter((a) => !/meditation/i.test(a.title)).map((a, i) => ({ id: `from-${template.id}-${i}`, title: a.title, duration: a.duration }));
    setCustom([routine.custom[0], ...extra]);
    setTab('custom');
  };

  /** Saves today's routine; the toast counts the ticks of the list the button belongs to (template or custom). */
  const save = (list: RoutineTab) => {
    const { done, total } = list === 'custom' ? customProgress(routine.custom) : { done: checks.filter(Boolean).length, total: checks.length };
    const message = routineSavedMessage(kind, done, total);
    if (writeStored(copy.storageKey, JSON.stringify({ ...routine, date: localDay(new Date()) }))) toast.success(message.title, { description: message.description });
    else toast.error('Could not save on this device', { description: 'Your browser storage is full or blocked.' });
  };

  return { copy, templates, template, checks, custom: routine.custom, tab, setTab, selectTemplate: setSelected, toggleTemplate, setCustom, customise, save };
}
