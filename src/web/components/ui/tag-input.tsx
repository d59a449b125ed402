/**
 * A list of short labels typed one at a time: Enter or Add puts the draft in (through `add`, which
 * decides trimming, duplicates and limits), each chip has its own Remove button.
 */
import Plus from 'lucide-react/icons/plus';
import X from 'lucide-react/icons/x';
import { useId, useState } from 'react';
import { Button } from '#web/components/ui/button.tsx';
import { EnterInput } from '#web/components/ui/enter-input.tsx';
import { FieldLabel } from '#web/components/ui/field.tsx';

type Props = {
  label: string;
  tags: readonly string[];
  onChange: (tags: string[]) => void;
  /** The list after adding `draft` (unchanged when the draft is refused). */
  add: (tags: readonly string[], draft: string) => string[];
};

export function TagInput({ label, tags, onChange, add }: Props) {
  const [draft, setDraft] = useState('');
  const id = useId();
  const commit = () => {
    onChange(add(tags, draft));
    setDraft('');
  };
  return (
    <div>
      <FieldLabel htmlFor={id}>{label}</FieldLabel>
      <div className="flex gap-2">
        <EnterInput id={id} value={draft} onChange={setDraft} onEnter={commit} />
        <Button size="sm" variant="outline" onClick={commit}>
          <Plus className="size-4" aria-hidden /> Add
        </Button>
      </div>
      {tags.length ? (
        <ul className="mt-2 flex flex-wrap gap-2" aria-label={label}>
          {tags.map((t) => (
            <li key={t} className="inline-flex items-center gap-1 rounded-full bg-stone-100 py-1 pl-3 pr-1 text-sm dark:bg-stone-800">
              {t}
              <button type="button" className="rounded-full p-1 hover:bg-stone-200 dark:hover:bg-stone-700" aria-label={`Remove tag ${t}`} onClick={() => onChange(tags.filter((x) => x !== t))}>
                <X className="size-3.5" aria-hidden />
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
