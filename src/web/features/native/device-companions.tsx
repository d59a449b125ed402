/**
 * What runs beside the pages inside the apps only (loaded there, never on the web): keeping the
 * device's reminders scheduled a fortnight ahead and honouring their "Turn off reminders" action
 * (issue 20, item 4), and the one-time offer to add completed sessions to Apple Health / Health
 * Connect (issue 20, item 5).
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, useSyncExternalStore } from 'react';
import { remindersApi } from '#shared/contracts/reminders.routes.ts';
import { deviceReminderSettings, REMINDER_MESSAGES } from '#shared/reminders.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Dialog } from '#web/components/ui/dialog.tsx';
import { useViewer } from '#web/features/auth/use-viewer.ts';
import { allowMindfulMinutes, declineMindfulMinutes, mindfulOffer } from '#web/features/mindful-minutes/mindful-minutes.ts';
import { remindersQueryKey } from '#web/features/reminders/reminders-card.tsx';
import { call } from '#web/lib/call.ts';
import { toast } from '#web/lib/toast.ts';
import { platform } from '#web/platform/platform.ts';

function ReminderKeeper({ userId }: { userId: string }) {
  const client = useQueryClient();
  useEffect(() => {
    const device = platform().reminders;
    // Each start rolls the fortnight of scheduled reminders forward (and picks up changes made on another device).
    void call(remindersApi.get, { query: {} })
      // By e-mail (issue 38, item 6), this device's own notifications stay off: never two reminders a day.
      .then((answer) => device.update(deviceReminderSettings(answer.settings)))
      .catch((error: unknown) => console.warn('reminders not rescheduled', error));
    let stop: (() => void) | undefined;
    let gone = false;
    void device
      .onTurnedOff(() => {
        void call(remindersApi.get, { query: {} })
          .then((answer) => call(remindersApi.save, { body: { ...answer.settings, enabled: false } }))
          .then(async (answer) => {
            client.setQueryData(remindersQueryKey(), answer);
            await device.update(deviceReminderSettings(answer.settings));
            toast.success(REMINDER_MESSAGES.turnedOff);
          })
          .catch(async () => {
            // Offline: stop them on this device at once; the account's setting follows when the person is back.
            await device.forget();
            toast.success(REMINDER_MESSAGES.turnedOff);
          });
      })
      .then(
        (unsubscribe) => (gone ? unsubscribe() : (stop = unsubscribe)),
        (error: unknown) => console.warn('reminder actions not available', error),
      );
    return () => {
      gone = true;
      stop?.();
    };
  }, [client, userId]);
  return null;
}

function MindfulMinutesOffer() {
  const session = useSyncExternalStore(mindfulOffer.subscribe, mindfulOffer.get, () => null);
  const [busy, setBusy] = useState(false);
  const store = platform().mindfulMinutes;
  if (!store || !session) return null;
  const minutes = Math.max(1, Math.round((session.end.getTime() - session.start.getTime()) / 60_000));
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && !busy && declineMindfulMinutes()}
      title={`Add your mindful minutes to ${store.storeName}?`}
      description={`Harbour Mind can add each session you complete to ${store.storeName} as mindful minutes, starting with this one (${minutes} min). It only writes them: it never reads your health data.`}
    >
      <div className="mt-6 flex flex-wrap justify-end gap-3">
        <Button variant="outline" disabled={busy} onClick={declineMindfulMinutes}>
          Not now
        </Button>
        <Button
          disabled={busy}
          onClick={() => {
            setBusy(true);
            void allowMindfulMinutes().then((allowed) => {
              setBusy(false);
              if (allowed) toast.success(`Your mindful minutes will go to ${store.storeName}.`);
              else toast.error(`Harbour Mind cannot write to ${store.storeName}.`, { description: `You can allow it in ${store.storeName}’s settings, then turn it on in Account › Settings.` });
            });
          }}
        >
          Add to {store.storeName}
        </Button>
      </div>
    </Dialog>
  );
}

export function DeviceCompanions() {
  const viewer = useViewer();
  return (
    <>
      {viewer.user ? <ReminderKeeper userId={viewer.user.id} /> : null}
      <MindfulMinutesOffer />
    </>
  );
}
