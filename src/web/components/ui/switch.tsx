/** An on/off switch: a button with role="switch" that a `<label htmlFor={id}>` names. */
export function Switch({ id, checked, onToggle, disabled = false, describedBy }: { id: string; checked: boolean; onToggle: () => void; disabled?: boolean; describedBy?: string }) {
  return (
    <button
      id={id}
      type="button"
      role="switch"
      aria-checked={checked}
      aria-describedby={describedBy}
      disabled={disabled}
      onClick={onToggle}
      className={`relative mt-1 inline-flex h-7 w-12 shrink-0 items-center rounded-full transition-colors disabled:opacity-60 ${checked ? 'bg-teal-700 dark:bg-teal-400' : 'bg-stone-300 dark:bg-stone-600'}`}
    >
      <span className={`inline-block size-5 rounded-full bg-white shadow transition-transform ${checked ? 'translate-x-6' : 'translate-x-1'}`} />
    </button>
  );
}
