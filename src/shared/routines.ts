/**
 * Morning and evening routine builders (admin document: routine pages, entities, states, toasts,
 * constants). Templates, totals and the daily reset are pure; the page keeps progress in the
 * browser as the spec says.
 */
import { STORAGE_KEYS } from '#shared/constants.ts';

export type RoutineKind = 'morning' | 'evening';
export type Activity = { id: string; title: string; duration: string; completed?: boolean; required?: boolean };
export type RoutineTemplate = { id: string; title: string; description: string; colour: string; activities: Activity[] };
export type StoredRoutine = { date: string; progress: Record<string, boolean[]>; custom: Activity[] };

const a = (id: string, title: string, duration: string): Activity => ({ id, title, duration });

export const ROUTINE_TEMPLATES: Record<RoutineKind, RoutineTemplate[]> = {
  morning: [
    {
      id: 'founders',
      title: "Founder's Favourite",
      description: 'The gentle start our founder uses on clinic days: water, breath, movement, intention, then the day.',
      colour: 'teal',
      activities: [a('water', 'Drink a glass of water before your phone', '2 mins'), a('meditate', 'Do a morning meditation', '10 mins'), a('stretch', 'Gentle stretching by an open window', '8 mins'), a('intention', 'Write one intention for the day', '5 mins'), a('breakfast', 'Eat breakfast sitting down, without screens', '15 mins')],
    },
    {
      id: 'mindful',
      title: 'Mindful Start',
      description: 'Slow and quiet, for mornings when your mind wakes up before you do.',
      colour: 'sky',
      activities: [a('breath', 'Three slow breaths before getting up', '2 mins'), a('meditate', 'Do a morning meditation', '10 mins'), a('tea', 'Make a warm drink and notice every step', '8 mins'), a('gratitude', 'Note three things you are grateful for', '5 mins')],
    },
    {
      id: 'energetic',
      title: 'Energising Morning',
      description: 'For days that need momentum: movement first, then focus.',
      colour: 'amber',
      activities: [a('water', 'Drink a large glass of water', '2 mins'), a('walk', 'Brisk walk or light exercise outside', '20 mins'), a('shower', 'Finish your shower cool for 30 seconds', '10 mins'), a('meditate', 'Short breathing meditation', '5 mins'), a('breakfast', 'A protein-rich breakfast', '15 mins')],
    },
    {
      id: 'productive',
      title: 'Focused and Productive',
      description: 'Clear the decks before the day asks for your attention.',
      colour: 'violet',
      activities: [a('meditate', 'Do a morning meditation', '10 mins'), a('plan', 'Choose your three most important tasks', '10 mins'), a('tidy', 'Clear your workspace', '5 mins'), a('deep', 'First focused block, notifications off', '25 mins'), a('pause', 'Stand, stretch and refill your water', '5 mins')],
    },
  ],
  evening: [
    {
      id: 'founders',
      title: "Founder's Wind-Down",
      description: 'How our founder closes the day: put it down, look back kindly, and let sleep come.',
      colour: 'teal',
      activities: [a('screens', 'Put screens away for the night', '5 mins'), a('tidy', 'Ten-minute tidy of one space', '10 mins'), a('reflect', 'Write down one good thing about today', '5 mins'), a('meditate', 'Do an evening meditation', '15 mins'), a('read', 'Read something gentle in bed', '15 mins')],
    },
    {
      id: 'restful',
      title: 'Restful Evening',
      description: 'Warmth, quiet and a body scan for nights when sleep feels far away.',
      colour: 'indigo',
      activities: [a('bath', 'Warm bath or shower', '15 mins'), a('tea', 'Caffeine-free tea', '5 mins'), a('scan', 'Body-scan meditation', '15 mins'), a('lights', 'Dim the lights and breathe slowly', '5 mins')],
    },
    {
      id: 'reflective',
      title: 'Reflective Evening',
      description: 'Make sense of the day before you let it go.',
      colour: 'rose',
      activities: [a('journal', 'Journal about the day', '15 mins'), a('gratitude', 'Three things you are grateful for', '5 mins'), a('tomorrow', 'Write tomorrow’s first small step', '5 mins'), a('meditate', 'Do an evening meditation', '10 mins')],
    },
    {
      id: 'digital-detox',
      title: 'Digital Detox',
      description: 'An hour without screens, so your mind can settle on its own.',
      colour: 'emerald',
      activities: [a('off', 'Switch devices to do-not-disturb and put them in another room', '5 mins'), a('walk', 'An easy evening walk or stretch', '15 mins'), a('creative', 'Something with your hands: draw, knit, cook', '20 mins'), a('talk', 'Talk with someone, or write a letter', '10 mins'), a('meditate', 'Do an evening meditation', '10 mins')],
    },
  ],
};

export const DEFAULT_TEMPLATE = 'founders';

export const ROUTINE_COPY: Record<RoutineKind, { title: string; hint: string; lockedActivity: string; savedTitle: string; savedBody: string; storageKey: string }> = {
  morning: {
    title: 'Create Your Morning Routine',
    hint: 'Morning routines typically take 30-60 minutes.',
    lockedActivity: 'Do a morning meditation',
    savedTitle: 'Routine complete! Well done.',
    savedBody: 'Your morning routine progress has been saved.',
    storageKey: STORAGE_KEYS.routineProgress.morning,
  },
  evening: {
    title: 'Create Your Evening Routine',
    hint: 'Evening routines typically take 30-45 minutes.',
    lockedActivity: 'Do an evening meditation',
    savedTitle: 'Evening routine complete! Well done.',
    savedBody: 'Your evening routine progress has been saved.',
    storageKey: STORAGE_KEYS.routineProgress.evening,
  },
};

/**
 * The toast after "Save progress" (issue 38: "Routine complete!" showed with 1 of 5 ticked). The spec's
 * completion words only when every activity is done; otherwise how far the person got.
 */
export function routineSavedMessage(kind: RoutineKind, done: number, total: number): { title: string; description: string } {
  const copy = ROUTINE_COPY[kind];
  const title = total > 0 && done >= total ? copy.savedTitle : `Progress saved, ${done} of ${total}`;
  return { title, description: copy.savedBody };
}

/** Ticked and counted rows of a custom routine: a blank, unticked row is not an activity yet. */
export function customProgress(rows: readonly Activity[]): { done: number; total: number } {
  const counted = rows.filter((r) => r.completed || r.title.trim() !== '');
  return { done: counted.filter((r) => r.completed).length, total: counted.length };
}

/** Leading number of a duration such as '10 mins' (0 when there is none). */
export function leadingMinutes(duration: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)/.exec(duration);
  return match ? Number(match[1]) : 0;
}

export function totalMinutes(activities: readonly Pick<Activity, 'duration'>[]): number {
  return activities.reduce((sum, x) => sum + leadingMinutes(x.duration), 0);
}

/** Spec 'Custom routine': the locked first row and a blank second row. */
export function initialCustom(kind: RoutineKind): Activity[] {
  return [
    { id: 'locked', title: ROUTINE_COPY[kind].lockedActivity, duration: '10 mins', required: true },
    { id: 'custom-1', title: '', duration: '' },
  ];
}

export function emptyProgress(kind: RoutineKind, date: string): StoredRoutine {
  return { date, progress: Object.fromEntries(ROUTINE_TEMPLATES[kind].map((t) => [t.id, t.activities.map(() => false)])), custom: initialCustom(kind) };
}

/** Reads stored progress; anything unreadable, or from another day, starts fresh (spec: reset when the date is not today). */
export function readRoutine(kind: RoutineKind, raw: string | null, today: string): StoredRoutine {
  const fresh = emptyProgress(kind, today);
  if (!raw) return fresh;
  try {
    const parsed = JSON.parse(raw) as Partial<StoredRoutine> | null;
    if (!parsed || parsed.date !== today) return fresh;
    const progress = { ...fresh.progress };
    for (const template of ROUTINE_TEMPLATES[kind]) {
      const saved = parsed.progress?.[template.id];
      if (Array.isArray(saved)) progress[template.id] = template.activities.map((_, i) => saved[i]);
    }
    const custom = Array.isArray(parsed.custom) && parsed.custom.length ? sanitiseCustom(kind, parsed.custom) : fresh.custom;
    return { date: today, progress, custom };
  } catch {
    return fresh;
  }
}

/** A stored field as text: strings, numbers and booleans as written; anything else (objects) as the fallback. */
function storedText(value: unknown, fallback: string): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return fallback;
}

/** The first row stays the locked meditation whatever was stored (rows come from storage: any shape). */
export function sanitiseCustom(kind: RoutineKind, rows: readonly Partial<Record<keyof Activity, unknown>>[]): Activity[] {
  const rest = rows.slice(1).map((r, i) => ({ id: typeof r.id === 'string' ? r.id : `custom-${i + 1}`, title: storedText(r.title, '').slice(0, 200), duration: storedText(r.duration, '').slice(0, 40), ...(r.completed === true ? { completed: true } : {}) }));
  return [{ ...initialCustom(kind)[0], duration: storedText(rows[0]?.duration, '10 mins').slice(0, 40), ...(rows[0]?.completed === true ? { completed: true } : {}) }, ...rest];
}
