/**
 * Account › Settings › Daily reminder (issue 20, item 4): off until the person turns it on; a time
 * and the days; a gentle message (the day's affirmation), never more than one a day. Turning it on
 * asks this device for permission (from the tap itself) and sets the device up: Web Push in a
 * browser, local notifications in the apps (platform().reminders). Where a browser cannot take Web
 * Push, or whenever the person prefers, the reminder comes by e-mail instead; and "Add to calendar"
 * downloads it as a repeating event (issue 38, item 6).
 */
import AlarmClock from 'lucide-react/icons/alarm-clock';
import CalendarPlus from 'lucide-react/icons/calendar-plus';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { remindersApi } from '#shared/contracts/reminders.routes.ts';
import { queryKeyOf } from '#shared/contracts/route.ts';
import { describeDays, deviceReminderSettings, REMINDER_MESSAGES, reminderSettingsSchema, WEEKDAYS, type ReminderSettings, type SavedReminderSettings } from '#shared/reminders.ts';
import { Button, buttonClasses } from '#web/components/ui/button.tsx';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { Switch } from '#web/components/ui/switch.tsx';
import { ApiError } from '#web/lib/api.ts';
import { call } from '#web/lib/call.ts';
import { toast } from '#web/lib/toast.ts';
import { platform } from '#web/platform/platform.ts';
import { ReminderDeviceError, type ReminderPermission } from '#web/platform/reminder-device.ts';

const deviceTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** The reminder as this device asks for it (its time zone, for a person who never saved one). */
const remindersInput = () => ({ query: { tz: deviceTimeZone() } });
/** The reminder's query: the apps' companion writes the answer to a turn-off here too. */
export const remindersQueryKey = () => queryKeyOf(remindersApi.get, remindersInput());

function problemText(error: unknown): string {
  if (error instanceof ReminderDeviceError) return error.reason === 'denied' ? REMINDER_MESSAGES.denied : error.reason === 'unsupported' ? REMINDER_MESSAGES.unsupported : REMINDER_MESSAGES.deviceRefused;
  if (error instanceof ApiError) return error.message;
  return REMINDER_MESSAGES.notSaved;
}

export function RemindersCard() {
  const client = useQueryClient();
  const query = useQuery({
    queryKey: remindersQueryKey(),
    queryFn: ({ signal }) => call(remindersApi.get, remindersInput(), { signal }),
  });
  const [draft, setDraft] = useState<Pick<SavedReminderSettings, 'time' | 'days' | 'channel'> | null>(null);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState('');
  const [permission, setPermission] = useState<ReminderPermission | null>(null);
  const [receiving, setReceiving] = useState<boolean | null>(null);
  const switchId = useId();
  const timeId = useId();
  const daysId = useId();
  const problemId = useId();

  useEffect(() => {
    const device = platform().reminders;
    void device.permission().then(setPermission, () => setPermission('unsupported'));
    void device.isReceiving().then(setReceiving, () => setReceiving(false));
    // A reminder's "Turn off reminders" pressed while this page is open: show it off.
    let stop: (() => void) | undefined;
    let gone = false;
    void device.onTurnedOff(() => void client.invalidateQueries({ queryKey: queryKeyOf(remindersApi.get) })).then(
      (unsubscribe) => (gone ? unsubscribe() : (stop = unsubscribe)),
      () => undefined,
    );
    return () => {
      gone = true;
      stop?.();
    };
  }, [client]);

  // Once per visit: this device takes its place on the account's list again if it had lost it.
  const loaded = query.data?.settings;
  const synced = useRef(false);
  useEffect(() => {
    if (!loaded || synced.current) return;
    synced.current = true;
    if (loaded.enabled && loaded.channel === 'push') void platform().reminders.update(loaded).catch(() => undefined);
  }, [loaded]);

  const headingId = useId();
  const heading = (
    <>
      <h2 id={headingId} className="flex items-center gap-2 font-serif text-2xl font-semibold text-stone-900 dark:text-stone-50">
        <AlarmClock className="size-5 text-teal-700 dark:text-teal-300" aria-hidden /> Daily reminder
      </h2>
      <p className="mt-1 text-stone-600 dark:text-stone-300">A gentle nudge at a time you choose, with a short affirmation. Never more than one a day.</p>
    </>
  );

  if (query.isPending) {
    return (
      <section aria-labelledby={headingId}>
        {heading}
        <Spinner label="Loading your reminder..." />
      </section>
    );
  }
  if (query.isError) {
    return (
      <section aria-labelledby={headingId}>
        {heading}
        <p role="alert" className="mt-4 text-rose-700 dark:text-rose-300">
          Your reminder could not be loaded.
        </p>
        <Button variant="outline" size="sm" className="mt-3" onClick={() => void query.refetch()}>
          Try again
        </Button>
      </section>
    );
  }

  const { settings: saved, pushKey, mail } = query.data;
  const unsupported = permission === 'unsupported';
  // No push here and reminders not yet on: e-mail is the way offered first.
  const preferred: SavedReminderSettings['channel'] = unsupported && !saved.enabled ? 'email' : saved.channel;
  const current = { ...saved, channel: preferred, ...draft };
  const byEmail = current.channel === 'email';
  const dirty = draft !== null && (draft.time !== saved.time || draft.days.join() !== saved.days.join() || draft.channel !== saved.channel);
  const badTimeOrDays = reminderSettingsSchema.safeParse({ ...current, timeZone: deviceTimeZone() }).error?.issues[0]?.message;
  const invalid = badTimeOrDays ?? (byEmail && !mail.verified ? REMINDER_MESSAGES.emailUnverified : undefined);
  const calendarHref = `/api/reminders/calendar.ics?${new URLSearchParams({ time: current.time, days: current.days.join(','), tz: deviceTimeZone() }).toString()}`;

  async function save(next: ReminderSettings, { setUpDevice }: { setUpDevice: boolean }) {
    setBusy(true);
    setProblem('');
    try {
      const device = platform().reminders;
      if (setUpDevice) await device.enable(next, pushKey);
      const answer = await call(remindersApi.save, { body: next });
      client.setQueryData(remindersQueryKey(), answer);
      setDraft(null);
      // By e-mail, this device's own notifications stop (the apps cancel theirs).
      await device.update(deviceReminderSettings(answer.settings));
      if (setUpDevice) setReceiving(true);
      setPermission(await device.permission());
      toast.success(answer.settings.enabled ? REMINDER_MESSAGES.saved : REMINDER_MESSAGES.turnedOff, answer.settings.enabled ? { description: `${describeDays(answer.settings.days)} at ${answer.settings.time}.` } : undefined);
    } catch (error) {
      setProblem(problemText(error));
      if (error instanceof ReminderDeviceError) setPermission(await platform().reminders.permission().catch(() => 'unsupported' as const));
    } finally {
      setBusy(false);
    }
  }

  const toggle = () => {
    if (invalid && !saved.enabled) {
      setProblem(invalid);
      return;
    }
    void save({ ...current, enabled: !saved.enabled, timeZone: deviceTimeZone() }, { setUpDevice: !saved.enabled && !byEmail });
  };
  const toggleDay = (day: number) => {
    const days = current.days.includes(day) ? current.days.filter((d) => d !== day) : [...current.days, day].sort((a, b) => a - b);
    setDraft({ time: current.time, days, channel: current.channel });
    setProblem('');
  };
  const otherDevices = query.data.devices - (receiving ? 1 : 0);

  return (
    <section aria-labelledby={headingId}>
      {heading}
      {unsupported || (permission === 'denied' && !problem && !byEmail) ? (
        <p className="mt-4 rounded-2xl bg-stone-50 p-4 text-stone-700 dark:bg-stone-800/60 dark:text-stone-200">{unsupported ? REMINDER_MESSAGES.pushUnavailable : REMINDER_MESSAGES.denied}</p>
      ) : null}

      <div className="mt-5 flex items-start justify-between gap-4 rounded-2xl bg-stone-50 p-4 dark:bg-stone-800/60">
        <div>
          <label htmlFor={switchId} className="font-medium text-stone-900 dark:text-stone-50">
            Remind me
          </label>
          <p className="text-sm text-stone-600 dark:text-stone-300" data-testid="reminder-summary">
            {saved.enabled ? `${describeDays(saved.days)} at ${saved.time}${saved.channel === 'email' ? ', by e-mail' : ''}` : 'Off'}
          </p>
        </div>
        <Switch id={switchId} checked={saved.enabled} describedBy={problem ? problemId : undefined} disabled={busy || (unsupported && !saved.enabled && !byEmail)} onToggle={toggle} />
      </div>

      <fieldset className="mt-5">
        <legend className="text-sm font-medium text-stone-800 dark:text-stone-100">{REMINDER_MESSAGES.channelLegend}</legend>
        <div className="mt-1.5 grid gap-2 sm:grid-cols-2">
          {(['push', 'email'] as const).map((channel) => (
            <label key={channel} className={`flex min-h-11 items-center gap-3 rounded-xl px-3 py-2 ring-1 ${current.channel === channel ? 'ring-2 ring-teal-700 dark:ring-teal-300' : 'ring-stone-300 dark:ring-stone-700'} ${channel === 'push' && unsupported ? 'text-stone-500 dark:text-stone-400' : 'text-stone-800 dark:text-stone-100'}`}>
              <input
                type="radio"
                name={`${switchId}-channel`}
                value={channel}
                checked={current.channel === channel}
                disabled={busy || (channel === 'push' && unsupported)}
                onChange={() => {
                  setDraft({ time: current.time, days: current.days, channel });
                  setProblem('');
                }}
                className="size-4 accent-teal-700"
              />
              {channel === 'push' ? REMINDER_MESSAGES.channelPush : REMINDER_MESSAGES.channelEmail}
            </label>
          ))}
        </div>
        {byEmail ? (
          <p className="mt-2 text-sm text-stone-600 dark:text-stone-300" data-testid="reminder-mail-address">
            {mail.verified ? `${REMINDER_MESSAGES.emailGoesTo} ${mail.address}.` : REMINDER_MESSAGES.emailUnverified}
          </p>
        ) : null}
      </fieldset>

      <div className="mt-5 grid gap-5 sm:grid-cols-[auto_1fr] sm:items-start">
        <div>
          <label htmlFor={timeId} className="block text-sm font-medium text-stone-800 dark:text-stone-100">
            Time
          </label>
          <input
            id={timeId}
            type="time"
            required
            value={current.time}
            onChange={(event) => {
              setDraft({ time: event.target.value, days: current.days, channel: current.channel });
              setProblem('');
            }}
            className="mt-1.5 h-11 rounded-xl bg-white px-3 text-stone-900 ring-1 ring-stone-300 focus:ring-2 focus:ring-teal-700 focus:outline-none dark:bg-stone-900 dark:text-stone-50 dark:ring-stone-700"
          />
        </div>
        <fieldset>
          <legend id={daysId} className="text-sm font-medium text-stone-800 dark:text-stone-100">
            Days
          </legend>
          <div className="mt-1.5 flex flex-wrap gap-2">
            {WEEKDAYS.map((weekday) => {
              const on = current.days.includes(weekday.day);
              return (
                <button
                  key={weekday.day}
                  type="button"
                  aria-pressed={on}
                  onClick={() => toggleDay(weekday.day)}
                  className={`h-11 min-w-12 rounded-full px-3 text-sm font-medium ring-1 transition ${on ? 'bg-teal-700 text-white ring-teal-700 dark:bg-teal-400 dark:text-stone-950 dark:ring-teal-400' : 'bg-white text-stone-700 ring-stone-300 hover:bg-stone-100 dark:bg-stone-900 dark:text-stone-200 dark:ring-stone-700'}`}
                >
                  {/* Heard as the whole day's name; seen short. */}
                  <span aria-hidden="true">{weekday.short}</span>
                  <span className="sr-only">{weekday.long}</span>
                </button>
              );
            })}
          </div>
        </fieldset>
      </div>

      {saved.enabled && dirty ? (
        <Button className="mt-5" disabled={busy} onClick={() => (invalid ? setProblem(invalid) : void save({ ...current, enabled: true, timeZone: deviceTimeZone() }, { setUpDevice: current.channel === 'push' && saved.channel !== 'push' }))}>
          Save changes
        </Button>
      ) : null}

      {saved.enabled && saved.channel === 'push' && receiving === false && !unsupported && permission !== 'denied' ? (
        <div className="mt-5 rounded-2xl bg-teal-50 p-4 text-teal-950 dark:bg-teal-950/40 dark:text-teal-50">
          <p>{otherDevices > 0 ? 'Your reminders go to your other devices, not to this one.' : 'This device does not show your reminders yet.'}</p>
          <Button variant="secondary" size="sm" className="mt-3" disabled={busy} onClick={() => void save({ ...saved }, { setUpDevice: true })}>
            Remind me on this device too
          </Button>
        </div>
      ) : null}

      {platform().kind === 'web' ? (
        <div className="mt-5">
          <p className="text-sm text-stone-600 dark:text-stone-300">{REMINDER_MESSAGES.calendarHint}</p>
          {/* A plain download: the browser sends the session cookie and saves the file; WebViews cannot, so the apps (with their own notifications) leave it out. */}
          <a
            href={calendarHref}
            download="harbour-mind-reminder.ics"
            className={buttonClasses({ variant: 'outline', size: 'sm', className: 'mt-2' })}
            onClick={(event) => {
              // No time or no day: say so here rather than download the server's refusal as a file.
              if (!badTimeOrDays) return;
              event.preventDefault();
              setProblem(badTimeOrDays);
            }}
          >
            <CalendarPlus className="size-4" aria-hidden /> {REMINDER_MESSAGES.addToCalendar}
          </a>
        </div>
      ) : null}

      <p id={problemId} role="alert" className="mt-3 min-h-5 text-sm text-rose-700 dark:text-rose-300">
        {problem}
      </p>
    </section>
  );
}
