/**
 * Where an e-mail reminder's "Turn off e-mail reminders" link lands (issue 38, item 6). Opening the
 * page changes nothing (mail scanners and link previews open links too); its button POSTs the token,
 * which works signed in or not.
 */
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { remindersApi } from '#shared/contracts/reminders.routes.ts';
import type { ReplyOf } from '#shared/contracts/route.ts';
import { REMINDER_MESSAGES } from '#shared/reminders.ts';
import { Button, buttonClasses } from '#web/components/ui/button.tsx';
import { ApiError } from '#web/lib/api.ts';
import { call } from '#web/lib/call.ts';
import { usePageTitle } from '#web/lib/use-page-title.ts';

export function RemindersOffPage() {
  const [params] = useSearchParams();
  const [token] = useState(() => params.get('token') ?? '');
  const [state, setState] = useState<'ask' | 'busy' | ReplyOf<typeof remindersApi.mailOff>['result'] | 'failed'>('ask');
  const [problem, setProblem] = useState('');
  usePageTitle(REMINDER_MESSAGES.offPageTitle);

  async function turnOff() {
    setState('busy');
    setProblem('');
    try {
      const { result } = await call(remindersApi.mailOff, { body: { token } });
      setState(result);
    } catch (error) {
      setState('failed');
      setProblem(error instanceof ApiError ? error.message : REMINDER_MESSAGES.notSaved);
    }
  }

  const done = state === 'off' || state === 'outdated';
  return (
    <div className="mx-auto max-w-lg px-4 py-16">
      <h1 className="font-serif text-3xl font-semibold text-stone-900 dark:text-stone-50">{REMINDER_MESSAGES.offPageTitle}</h1>
      {!token ? (
        <p className="mt-4 text-stone-700 dark:text-stone-200">{REMINDER_MESSAGES.offPageMissing}</p>
      ) : done ? (
        <p role="status" className="mt-4 text-stone-700 dark:text-stone-200">
          {state === 'off' ? REMINDER_MESSAGES.offPageDone : REMINDER_MESSAGES.offPageOutdated}
        </p>
      ) : (
        <>
          <p className="mt-4 text-stone-700 dark:text-stone-200">{REMINDER_MESSAGES.offPageBody}</p>
          <Button className="mt-6" size="lg" disabled={state === 'busy'} onClick={() => void turnOff()}>
            {REMINDER_MESSAGES.mailOffLabel}
          </Button>
          <p role="alert" className="mt-3 min-h-5 text-sm text-rose-700 dark:text-rose-300">
            {problem}
          </p>
        </>
      )}
      <Link to="/account?tab=settings" className={buttonClasses({ variant: 'outline', className: 'mt-6' })}>
        Reminder settings
      </Link>
    </div>
  );
}
