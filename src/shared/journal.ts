/**
 * The therapeutic journal's rules (admin document: 'Journalling page', journal entities, 'Journal
 * streak', 'Journal entry', journal validation). Entries stay on the device; everything here is
 * pure so the page and the tests share it.
 */
import { addDays, localDay, mondayOf } from '#shared/days.ts';

export type TimeOfDay = 'morning' | 'afternoon' | 'evening';
export type JournalType = 'mindfulness' | 'cbt' | 'dbt';

export type MindfulnessContent = { timeOfDay: TimeOfDay | ''; gratitude: string; intention: string; mood: number; mindfulMoments: string; challenges: string; reflection: string };
export type CbtContent = { thoughtPatterns: string; cognitiveDistortions: DistortionId[]; reframe: string };
export type DbtContent = { situation: string; emotions: string; intensity: number; thoughts: string; dbtSkills: SkillId[]; copingSkills: string; reflection: string };

export type JournalEntry =
  | { id: string; type: 'mindfulness'; date: string; timeOfDay: TimeOfDay; content: MindfulnessContent }
  | { id: string; type: 'cbt'; date: string; timeOfDay: TimeOfDay; content: CbtContent }
  | { id: string; type: 'dbt'; date: string; timeOfDay: TimeOfDay; content: DbtContent };

export const JOURNAL = {
  storageKey: 'journalEntries',
  backupKey: 'journalEntries.corruptBackup',
  scaleMin: 1,
  scaleMax: 10,
  scaleDefault: 5,
  morningBefore: 12,
  afternoonBefore: 17,
  textMax: 5000,
} as const;

export const JOURNAL_MESSAGES = {
  title: 'Therapeutic Journal',
  entriesHeading: 'Your Journal Entries',
  empty: 'No journal entries yet - Start your therapeutic journalling journey by adding your first entry above.',
  savedTitle: 'Journal entry saved successfully',
  savedBody: 'Your reflection has been saved to your private journal.',
  subscribeBody: 'Saving your reflections is part of your subscription. Subscribe to keep your journaling safe.',
  subscribeTitle: 'Subscribe to save your reflections',
  disclaimer:
    'This journal is for self-reflection only. It does not diagnose, treat or replace care from a professional. If you are struggling or in distress, please talk to your GP or another healthcare professional.',
  recoveredTitle: 'Some journal entries could not be read',
  recoveredBody: (kept: number, lost: number) => `We kept ${kept} ${kept === 1 ? 'entry' : 'entries'}. ${lost} damaged ${lost === 1 ? 'entry was' : 'entries were'} set aside in a backup on this device.`,
  deletedTitle: 'Entry deleted',
  deletedAllTitle: 'All entries deleted',
} as const;

/** '1 entry', '0 entries', '3 entries' (issue 38: the week's chart said 'Fri 1 entries'). */
export const entriesCount = (count: number) => `${count} ${count === 1 ? 'entry' : 'entries'}`;


/** UK crisis lines, shown with every journal (issue 7). */
export const CRISIS_LINES = [
  { name: 'Samaritans', detail: 'Call 116 123, free, any time', href: 'tel:116123' },
  { name: 'NHS 111', detail: 'Urgent help for your mental health', href: 'tel:111' },
  { name: 'Emergency', detail: 'Call 999 if you or someone else is in immediate danger', href: 'tel:999' },
] as const;

export const DISTORTIONS = [
  { id: 'all-or-nothing', label: 'All-or-nothing thinking', description: 'Seeing things in black and white: if it is not perfect, it is a failure.' },
  { id: 'overgeneralisation', label: 'Overgeneralisation', description: 'Treating one bad event as a never-ending pattern: “this always happens”.' },
  { id: 'mental-filter', label: 'Mental filter', description: 'Dwelling on a single negative detail until it colours everything else.' },
  { id: 'discounting-positive', label: 'Discounting the positive', description: 'Telling yourself good things “don’t count”, so the negative belief survives.' },
  { id: 'jumping-conclusions', label: 'Jumping to conclusions', description: 'Mind-reading or fortune-telling: deciding what others think or what will happen without evidence.' },
  { id: 'magnification', label: 'Magnification', description: 'Blowing problems out of proportion (catastrophising) or shrinking your strengths.' },
  { id: 'emotional-reasoning', label: 'Emotional reasoning', description: 'Taking a feeling as proof: “I feel useless, so I must be useless”.' },
  { id: 'should-statements', label: '“Should” statements', description: 'Rigid rules about how you or others must behave, which breed guilt and frustration.' },
] as const;
type DistortionId = (typeof DISTORTIONS)[number]['id'];

export const DBT_SKILLS = [
  { id: 'mindfulness', label: 'Mindfulness', description: 'Notice and describe what is happening, in you and around you, without judging it.' },
  { id: 'distress-tolerance', label: 'Distress tolerance', description: 'Get through a crisis without making it worse, using distraction, self-soothing and pros and cons.' },
  { id: 'emotion-regulation', label: 'Emotion regulation', description: 'Name the emotion, check the facts, and act opposite to an urge that does not fit them.' },
  { id: 'interpersonal-effectiveness', label: 'Interpersonal effectiveness', description: 'Ask for what you need and say no while keeping your self-respect (DEAR MAN, GIVE, FAST).' },
  { id: 'wise-mind', label: 'Wise mind', description: 'Find the middle ground between emotion mind and reasonable mind, where both are heard.' },
  { id: 'radical-acceptance', label: 'Radical acceptance', description: 'Accept reality as it is, fully, so pain does not turn into prolonged suffering.' },
  { id: 'self-soothing', label: 'Self-soothing', description: 'Comfort yourself kindly through the five senses: something to see, hear, smell, taste or touch.' },
  { id: 'grounding', label: 'Grounding', description: 'Come back to the present: feet on the floor, five things you can see, slow breathing.' },
] as const;
type SkillId = (typeof DBT_SKILLS)[number]['id'];

/** Spec: before 12 morning, before 17 afternoon, otherwise evening (local clock). */
export function timeOfDayAt(date: Date): TimeOfDay {
  const hour = date.getHours();
  if (hour < JOURNAL.morningBefore) return 'morning';
  if (hour < JOURNAL.afternoonBefore) return 'afternoon';
  return 'evening';
}

export const MOOD_LABEL: Record<TimeOfDay | '', string> = { morning: 'this morning', afternoon: 'right now', evening: 'this evening', '': 'right now' };

export const PROMPTS: Record<TimeOfDay, { gratitude: string; moments: string; challenges: string }> = {
  morning: { gratitude: 'What are you grateful for as the day begins?', moments: 'What do you notice in this first part of the day?', challenges: 'What might feel hard today, and how could you meet it gently?' },
  afternoon: { gratitude: 'What has gone well so far today?', moments: 'When did you feel present today, even briefly?', challenges: 'What has been difficult, and what do you need now?' },
  evening: { gratitude: 'What are you grateful for from today?', moments: 'Which moments today would you like to remember?', challenges: 'What was hard today? Can you hold it with kindness?' },
};

export const blankMindfulness = (): MindfulnessContent => ({ timeOfDay: '', gratitude: '', intention: '', mood: JOURNAL.scaleDefault, mindfulMoments: '', challenges: '', reflection: '' });
export const blankCbt = (): CbtContent => ({ thoughtPatterns: '', cognitiveDistortions: [], reframe: '' });
export const blankDbt = (): DbtContent => ({ situation: '', emotions: '', intensity: JOURNAL.scaleDefault, thoughts: '', dbtSkills: [], copingSkills: '', reflection: '' });

const filled = (s: string) => s.trim().length > 0;

/** Spec 'Journal' validation: when Save is enabled. */
export function canSave(type: JournalType, content: MindfulnessContent | CbtContent | DbtContent): boolean {
  if (type === 'mindfulness') {
    const c = content as MindfulnessContent;
    return filled(c.gratitude) || filled(c.intention) || filled(c.reflection);
  }
  if (type === 'cbt') return filled((content as CbtContent).thoughtPatterns);
  const d = content as DbtContent;
  return filled(d.situation) && filled(d.emotions);
}

function clampScale(value: number): number {
  if (!Number.isFinite(value)) return JOURNAL.scaleDefault;
  return Math.min(JOURNAL.scaleMax, Math.max(JOURNAL.scaleMin, Math.round(value)));
}

/** Builds the stored entry; mindfulness keeps a chosen time of day, CBT and DBT always use the clock. */
export function createEntry(type: JournalType, content: MindfulnessContent | CbtContent | DbtContent, now: Date): JournalEntry {
  const base = { id: String(now.getTime()), date: localDay(now) };
  if (type === 'mindfulness') {
    const c = content as MindfulnessContent;
    const timeOfDay = c.timeOfDay || timeOfDayAt(now);
    // Fields the form hides at this time of day are not kept.
    return { ...base, type, timeOfDay, content: { ...c, timeOfDay, mood: clampScale(c.mood), intention: timeOfDay === 'morning' ? c.intention : '', reflection: timeOfDay === 'evening' ? c.reflection : '' } };
  }
  if (type === 'cbt') return { ...base, type, timeOfDay: timeOfDayAt(now), content: { ...(content as CbtContent) } };
  const d = content as DbtContent;
  return { ...base, type, timeOfDay: timeOfDayAt(now), content: { ...d, intensity: clampScale(d.intensity) } };
}

/** Spec 'Journal streak': consecutive days ending today; 0 if the latest entry is not today. */
export function journalStreak(entries: readonly Pick<JournalEntry, 'date'>[], today: string): number {
  const days = new Set(entries.map((e) => e.date));
  if (!days.has(today)) return 0;
  let streak = 0;
  for (let day = today; days.has(day); day = addDays(day, -1)) streak += 1;
  return streak;
}

/** The week (Monday first) containing `today`, with entry counts per day. */
export function weekCounts(entries: readonly Pick<JournalEntry, 'date'>[], today: string): { date: string; count: number }[] {
  const monday = mondayOf(today);
  return Array.from({ length: 7 }, (_, i) => {
    const date = addDays(monday, i);
    return { date, count: entries.filter((e) => e.date === date).length };
  });
}

/** This week's entries (Monday to Sunday around `today`) by time of day: the spec's 'weekly time-of-day buckets'. */
export function timeOfDaySplit(entries: readonly Pick<JournalEntry, 'date' | 'timeOfDay'>[], today: string): Record<TimeOfDay, number> {
  const monday = mondayOf(today);
  const sunday = addDays(monday, 6);
  const split: Record<TimeOfDay, number> = { morning: 0, afternoon: 0, evening: 0 };
  for (const e of entries) if (e.date >= monday && e.date <= sunday) split[e.timeOfDay] += 1;
  return split;
}

const mean = (values: number[]) => (values.length ? Math.round((values.reduce((a, b) => a + b, 0) / values.length) * 10) / 10 : null);

/** Summary and insights: this week's entries, average mood and intensity (this week vs last), top distortions and skills. */
export function insights(entries: readonly JournalEntry[], today: string) {
  const week = weekCounts(entries, today);
  const thisWeek = new Set(week.map((d) => d.date));
  const lastWeek = new Set(week.map((d) => addDays(d.date, -7)));
  const moods = (days: Set<string>) => entries.filter((e) => e.type === 'mindfulness' && days.has(e.date)).map((e) => (e.content as MindfulnessContent).mood);
  const intensities = (days: Set<string>) => entries.filter((e) => e.type === 'dbt' && days.has(e.date)).map((e) => (e.content as DbtContent).intensity);
  const top = <T extends string>(lists: T[][]) => {
    const counts = new Map<T, number>();
    for (const id of lists.flat()) counts.set(id, (counts.get(id) ?? 0) + 1);
    return [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, 3);
  };
  return {
    entriesThisWeek: week.reduce((sum, d) => sum + d.count, 0),
    averageMood: mean(moods(thisWeek)),
    previousAverageMood: mean(moods(lastWeek)),
    averageIntensity: mean(intensities(thisWeek)),
    previousAverageIntensity: mean(intensities(lastWeek)),
    topDistortions: top(entries.flatMap((e) => (e.type === 'cbt' ? [e.content.cognitiveDistortions] : []))),
    topSkills: top(entries.flatMap((e) => (e.type === 'dbt' ? [e.content.dbtSkills] : []))),
    week,
  };
}

// ---------------------------------------------------------------- storage that survives damage

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown) => (typeof v === 'string' ? v.slice(0, JOURNAL.textMax) : '');
const TIMES: TimeOfDay[] = ['morning', 'afternoon', 'evening'];

/** One stored value → an entry, or null when it cannot be trusted. Unknown ids in lists are dropped. */
export function parseEntry(value: unknown): JournalEntry | null {
  if (!isObject(value) || typeof value.id !== 'string' || typeof value.date !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value.date)) return null;
  if (!TIMES.includes(value.timeOfDay as TimeOfDay) || !isObject(value.content)) return null;
  const c = value.content;
  const base = { id: value.id, date: value.date, timeOfDay: value.timeOfDay as TimeOfDay };
  const distortionIds = new Set<string>(DISTORTIONS.map((d) => d.id));
  const skillIds = new Set<string>(DBT_SKILLS.map((d) => d.id));
  switch (value.type) {
    case 'mindfulness':
      return { ...base, type: 'mindfulness', content: { timeOfDay: TIMES.includes(c.timeOfDay as TimeOfDay) ? (c.timeOfDay as TimeOfDay) : base.timeOfDay, gratitude: str(c.gratitude), intention: str(c.intention), mood: clampScale(Number(c.mood)), mindfulMoments: str(c.mindfulMoments), challenges: str(c.challenges), reflection: str(c.reflection) } };
    case 'cbt':
      return { ...base, type: 'cbt', content: { thoughtPatterns: str(c.thoughtPatterns), cognitiveDistortions: (Array.isArray(c.cognitiveDistortions) ? c.cognitiveDistortions : []).filter((id): id is DistortionId => distortionIds.has(id as string)), reframe: str(c.reframe) } };
    case 'dbt':
      return { ...base, type: 'dbt', content: { situation: str(c.situation), emotions: str(c.emotions), intensity: clampScale(Number(c.intensity)), thoughts: str(c.thoughts), dbtSkills: (Array.isArray(c.dbtSkills) ? c.dbtSkills : []).filter((id): id is SkillId => skillIds.has(id as string)), copingSkills: str(c.copingSkills), reflection: str(c.reflection) } };
    default:
      return null;
  }
}

/**
 * Reads the stored list without ever throwing: keeps every entry that parses (newest first) and
 * reports whether anything was lost, so the page can keep a backup of the raw value and say so.
 */
export function readEntries(raw: string | null): { entries: JournalEntry[]; lost: number; damaged: boolean } {
  if (raw === null || raw === '') return { entries: [], lost: 0, damaged: false };
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return { entries: [], lost: 1, damaged: true };
  }
  if (!Array.isArray(parsed)) return { entries: [], lost: 1, damaged: true };
  const entries = parsed.map(parseEntry).filter((e): e is JournalEntry => e !== null);
  entries.sort((a, b) => Number(b.id) - Number(a.id) || b.date.localeCompare(a.date));
  const lost = parsed.length - entries.length;
  return { entries, lost, damaged: lost > 0 };
}

// ---------------------------------------------------------------- export

const LABEL = Object.fromEntries([...DISTORTIONS, ...DBT_SKILLS].map((x) => [x.id, x.label]));

export function entriesToMarkdown(entries: readonly JournalEntry[]): string {
  const lines = ['# Harbour Mind journal', '', `Exported ${new Date().toISOString().slice(0, 10)}. ${entries.length} entries, newest first.`, ''];
  const field = (label: string, text: string) => (text.trim() ? [`**${label}:** ${text.trim()}`, ''] : []);
  for (const e of entries) {
    lines.push(`## ${e.date} · ${e.timeOfDay} · ${e.type === 'cbt' ? 'CBT' : e.type === 'dbt' ? 'DBT' : 'Mindfulness'}`, '');
    if (e.type === 'mindfulness') {
      lines.push(`**Mood:** ${e.content.mood}/10`, '', ...field('Gratitude', e.content.gratitude), ...field('Intention', e.content.intention), ...field('Mindful moments', e.content.mindfulMoments), ...field('Challenges', e.content.challenges), ...field('Reflection', e.content.reflection));
    } else if (e.type === 'cbt') {
      lines.push(...field('Thoughts', e.content.thoughtPatterns), ...field('Thinking traps', e.content.cognitiveDistortions.map((id) => LABEL[id]).join(', ')), ...field('Reframe', e.content.reframe));
    } else {
      lines.push(`**Intensity:** ${e.content.intensity}/10`, '', ...field('Situation', e.content.situation), ...field('Emotions', e.content.emotions), ...field('Thoughts', e.content.thoughts), ...field('Skills', e.content.dbtSkills.map((id) => LABEL[id]).join(', ')), ...field('Coping', e.content.copingSkills), ...field('Reflection', e.content.reflection));
    }
  }
  return lines.join('\n');
}

export const labelOf = (id: string) => LABEL[id] ?? id;
