/** Account › Settings › Mindful minutes, inside the apps only (issue 20, item 5): completed sessions to Apple Health / Health Connect. */
import Activity from 'lucide-react/icons/activity';
import { useId, useState } from 'react';
import { Switch } from '#web/components/ui/switch.tsx';
import { allowMindfulMinutes, declineMindfulMinutes, readMindfulChoice } from '#web/features/mindful-minutes/mindful-minutes.ts';
import type { MindfulMinutes } from '#web/platform/native-health.ts';

export function MindfulMinutesCard({ store }: { store: MindfulMinutes }) {
  const [on, setOn] = useState(readMindfulChoice() === 'on');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState('');
  const headingId = useId();
  const switchId = useId();

  const toggle = () => {
    setProblem('');
    if (on) {
      declineMindfulMinutes();
      setOn(false);
      return;
    }
    setBusy(true);
    void allowMindfulMinutes().then((allowed) => {
      setBusy(false);
      setOn(allowed);
      if (!allowed) setProblem(`Harbour Mind cannot write to ${store.storeName}. You can allow it in ${store.storeName}’s settings, then try again.`);
    });
  };

  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId} className="flex items-center gap-2 font-serif text-2xl font-semibold text-stone-900 dark:text-stone-50">
        <Activity className="size-5 text-teal-700 dark:text-teal-300" aria-hidden /> Mindful minutes
      </h2>
      <div className="mt-4 flex items-start justify-between gap-4 rounded-2xl bg-stone-50 p-4 dark:bg-stone-800/60">
        <div>
          <label htmlFor={switchId} className="font-medium text-stone-900 dark:text-stone-50">
            Add sessions to {store.storeName}
          </label>
          <p className="text-sm text-stone-600 dark:text-stone-300">Each session you complete, as mindful minutes. Harbour Mind only writes them: it never reads your health data.</p>
        </div>
        <Switch id={switchId} checked={on} disabled={busy} onToggle={toggle} />
      </div>
      <p role="alert" className="mt-3 min-h-5 text-sm text-rose-700 dark:text-rose-300">
        {problem}
      </p>
    </section>
  );
}
