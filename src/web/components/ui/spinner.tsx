import LoaderCircle from 'lucide-react/icons/loader-circle';

/** A spinner with a visible label, announced politely to screen readers. */
export function Spinner({ label }: { label: string }) {
  return (
    <div role="status" aria-live="polite" className="flex flex-col items-center justify-center gap-3 py-16 text-stone-600 dark:text-stone-300">
      <LoaderCircle className="size-8 animate-spin text-teal-700 dark:text-teal-300" aria-hidden />
      <p>{label}</p>
    </div>
  );
}
