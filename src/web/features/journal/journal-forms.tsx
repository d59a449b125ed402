/** The three journal forms. Each owns its draft; Save is enabled only by the spec's rules. */
import { useEffect, useId, useState, type ChangeEvent, type ReactNode } from 'react';
import {
  blankCbt,
  blankDbt,
  blankMindfulness,
  canSave,
  DBT_SKILLS,
  DISTORTIONS,
  JOURNAL,
  MOOD_LABEL,
  PROMPTS,
  timeOfDayAt,
  type CbtContent,
  type DbtContent,
  type JournalType,
  type MindfulnessContent,
  type TimeOfDay,
} from '#shared/journal.ts';
import { Button } from '#web/components/ui/button.tsx';
import { TextArea } from '#web/components/ui/text-area.tsx';
import { FieldLabel } from '#web/components/ui/field.tsx';

/** Resolves true when the entry was saved (the form then resets); false keeps the draft as it is. */
export type SaveHandler = (type: JournalType, content: MindfulnessContent | CbtContent | DbtContent) => Promise<boolean>;

/** Sends the draft once at a time, and clears it only when the save succeeded. */
/** An entry being written: its draft, a change to part of it, and its save (one at a time; the form starts again empty once saved). */
function useEntryDraft<Content extends MindfulnessContent | CbtContent | DbtContent>(type: JournalType, initial: Content | (() => Content), blank: () => Content, onSave: SaveHandler) {
  const [draft, setDraft] = useState<Content>(initial);
  const [saving, setSaving] = useState(false);
  const set = (patch: Partial<Content>) => setDraft((d) => ({ ...d, ...patch }));
  const save = () => {
    if (saving) return;
    setSaving(true);
    void onSave(type, draft)
      .then((saved) => saved && setDraft(blank()))
      .finally(() => setSaving(false));
  };
  /** A TextArea's value, limit and change, bound to one text field of the draft. */
  const text = (field: TextField<Content>) => ({
    value: draft[field] as string,
    maxLength: JOURNAL.textMax,
    onChange: (e: ChangeEvent<HTMLTextAreaElement>) => set({ [field]: e.target.value } as Partial<Content>),
  });
  return { draft, set, saving, save, text };
}

/** The fields of a draft that hold text. */
type TextField<Content> = { [Field in keyof Content]: Content[Field] extends string ? Field : never }[keyof Content];

/** An entry's form: Enter in a field never submits it, its Save button does. */
function EntryForm({ label, children }: { label: string; children: ReactNode }) {
  return (
    <form className="grid gap-5" onSubmit={(e) => e.preventDefault()} aria-label={label}>
      {children}
    </form>
  );
}

/** The clock's time of day, kept current while the page is open. */
function useClockTimeOfDay(): TimeOfDay {
  const [value, setValue] = useState(() => timeOfDayAt(new Date()));
  useEffect(() => {
    const timer = setInterval(() => setValue(timeOfDayAt(new Date())), 60_000);
    return () => clearInterval(timer);
  }, []);
  return value;
}

function Scale({ label, value, onChange, low, high }: { label: string; value: number; onChange: (n: number) => void; low: string; high: string }) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className="mb-1.5 flex items-baseline justify-between text-sm font-medium text-stone-700 dark:text-stone-200">
        <span>{label}</span>
        <span className="font-serif text-2xl font-semibold text-teal-800 dark:text-teal-200" aria-hidden>
          {value}
        </span>
      </label>
      <input
        id={id}
        type="range"
        min={JOURNAL.scaleMin}
        max={JOURNAL.scaleMax}
        step={1}
        value={value}
        onChange={(e) => onChange(Number(e.target.value))}
        aria-valuetext={`${value} out of 10`}
        className="w-full accent-teal-700 dark:accent-teal-300"
      />
      <div className="flex justify-between text-xs text-stone-500 dark:text-stone-400">
        <span>{low}</span>
        <span>{high}</span>
      </div>
    </div>
  );
}

function Chips<T extends string>({ legend, options, selected, onToggle }: { legend: string; options: readonly { id: T; label: string; description: string }[]; selected: T[]; onToggle: (id: T) => void }) {
  return (
    <fieldset>
      <legend className="mb-2 text-sm font-medium text-stone-700 dark:text-stone-200">{legend}</legend>
      <div className="grid gap-2 sm:grid-cols-2">
        {options.map((o) => {
          const on = selected.includes(o.id);
          return (
            <button
              key={o.id}
              type="button"
              aria-pressed={on}
              onClick={() => onToggle(o.id)}
              className={`rounded-2xl p-3 text-left ring-1 transition-colors ${on ? 'bg-teal-50 ring-2 ring-teal-600 dark:bg-teal-950 dark:ring-teal-300' : 'bg-white ring-stone-200 hover:bg-stone-50 dark:bg-stone-950 dark:ring-stone-800 dark:hover:bg-stone-900'}`}
            >
              <span className="block font-medium text-stone-900 dark:text-stone-50">{o.label}</span>
              <span className="mt-0.5 block text-sm text-stone-600 dark:text-stone-300">{o.description}</span>
            </button>
          );
        })}
      </div>
    </fieldset>
  );
}

const toggle = <T,>(list: T[], id: T) => (list.includes(id) ? list.filter((x) => x !== id) : [...list, id]);

function SaveRow({ enabled, saving, onSave, hint }: { enabled: boolean; saving: boolean; onSave: () => void; hint: string }) {
  return (
    <div className="flex flex-wrap items-center gap-3">
      <Button type="submit" disabled={!enabled || saving} aria-busy={saving} onClick={onSave}>
        Save entry
      </Button>
      {!enabled ? <p className="text-sm text-stone-500 dark:text-stone-400">{hint}</p> : null}
    </div>
  );
}

/** `opening`: words the 'Mindful moments' field starts with (after a meditation: its title); `mood`: the mood chosen then. */
export function MindfulnessForm({ onSave, opening = '', mood = null }: { onSave: SaveHandler; opening?: string; mood?: number | null }) {
  const { draft, set, saving, save, text } = useEntryDraft('mindfulness', () => ({ ...blankMindfulness(), mindfulMoments: opening, ...(mood === null ? {} : { mood }) }), blankMindfulness, onSave);
  const clock = useClockTimeOfDay();
  const time = draft.timeOfDay || clock;
  const prompts = PROMPTS[time];
  const timeId = useId();
  const enabled = canSave('mindfulness', { ...draft, intention: time === 'morning' ? draft.intention : '', reflection: time === 'evening' ? draft.reflection : '' });
  return (
    <EntryForm label="Mindfulness entry">
      <div>
        <FieldLabel htmlFor={timeId}>Time of day</FieldLabel>
        <select id={timeId} value={draft.timeOfDay} onChange={(e) => set({ timeOfDay: e.target.value as TimeOfDay | '' })} className="h-11 rounded-2xl border border-stone-300 bg-white px-3 dark:border-stone-700 dark:bg-stone-950">
          <option value="">Now ({clock})</option>
          <option value="morning">Morning</option>
          <option value="afternoon">Afternoon</option>
          <option value="evening">Evening</option>
        </select>
      </div>
      <TextArea label="Gratitude" hint={prompts.gratitude} {...text('gratitude')} />
      {time === 'morning' ? <TextArea label="Intention for today" hint="One small way you would like to be today." {...text('intention')} /> : null}
      <Scale label={`How is your mood ${MOOD_LABEL[time]}?`} value={draft.mood} onChange={(mood) => set({ mood })} low="1 · very low" high="10 · very good" />
      <TextArea label="Mindful moments" hint={prompts.moments} {...text('mindfulMoments')} />
      <TextArea label="Challenges" hint={prompts.challenges} {...text('challenges')} />
      {time === 'evening' ? <TextArea label="Evening reflection" hint="Looking back on today, what would you like to let go of, and what would you like to keep?" {...text('reflection')} /> : null}
      <SaveRow enabled={enabled} hint={`Write a gratitude${time === 'morning' ? ', an intention' : ''}${time === 'evening' ? ' or a reflection' : ''} to save.`} saving={saving} onSave={save} />
    </EntryForm>
  );
}

export function CbtForm({ onSave }: { onSave: SaveHandler }) {
  const { draft, set, saving, save, text } = useEntryDraft('cbt', blankCbt, blankCbt, onSave);
  return (
    <EntryForm label="CBT entry">
      <TextArea label="Thought patterns" hint="What went through your mind? Write the thought as it came." {...text('thoughtPatterns')} />
      <Chips legend="Thinking traps you notice (cognitive distortions)" options={DISTORTIONS} selected={draft.cognitiveDistortions} onToggle={(id) => set({ cognitiveDistortions: toggle(draft.cognitiveDistortions, id) })} />
      <TextArea label="A kinder, more balanced thought" hint="What would you say to a friend who had this thought?" {...text('reframe')} />
      <SaveRow enabled={canSave('cbt', draft)} hint="Write down the thought to save." saving={saving} onSave={save} />
    </EntryForm>
  );
}

export function DbtForm({ onSave }: { onSave: SaveHandler }) {
  const { draft, set, saving, save, text } = useEntryDraft('dbt', blankDbt, blankDbt, onSave);
  return (
    <EntryForm label="DBT entry">
      <TextArea label="Situation" hint="What happened? Just the facts, as a camera would see them." {...text('situation')} />
      <TextArea label="Emotions" hint="Name what you felt: sad, angry, scared, ashamed…" {...text('emotions')} />
      <Scale label="Intensity" value={draft.intensity} onChange={(intensity) => set({ intensity })} low="1 · mild" high="10 · overwhelming" />
      <TextArea label="Thoughts" {...text('thoughts')} />
      <Chips legend="DBT skills you used or could use" options={DBT_SKILLS} selected={draft.dbtSkills} onToggle={(id) => set({ dbtSkills: toggle(draft.dbtSkills, id) })} />
      <TextArea label="Coping skills" hint="What helped, even a little?" {...text('copingSkills')} />
      <TextArea label="Reflection" {...text('reflection')} />
      <SaveRow enabled={canSave('dbt', draft)} hint="Describe the situation and your emotions to save." saving={saving} onSave={save} />
    </EntryForm>
  );
}
