/**
 * Signing out on this device (issue 18; issue 36, item 1). The journal is let go of and everything
 * personal is wiped from the device first, whatever the server then answers: a failed or slow sign-out
 * request must not leave the next person here a journal, routines or offline copies. Because the wipe
 * deletes journal changes not yet sent, signing out with any asks first, saying how many.
 * Loaded when someone signs out, never on the first load (the header that signs out is on every page).
 */
import type { QueryClient } from '@tanstack/react-query';
import { createRoot } from 'react-dom/client';
import type { NavigateFunction } from 'react-router';
import { SIGN_OUT_MESSAGES as M, SIGN_OUT_UNSYNCED as U } from '#shared/sign-out-messages.ts';
import { ConfirmDialog } from '#web/components/ui/confirm-dialog.tsx';
import { lockJournal } from '#web/features/journal/journal-lock.ts';
import { unsyncedCount } from '#web/features/journal/journal-store.ts';
import { ApiError } from '#web/lib/api.ts';
import { authClient } from '#web/lib/auth-client.ts';
import { forgetPersonalData } from '#web/lib/forget-personal-data.ts';
import { toast } from '#web/lib/toast.ts';
import { platform } from '#web/platform/platform.ts';

type Options = { client: QueryClient; navigate: NavigateFunction; to: '/' | '/sign-in' };

export async function signOutHere({ client, navigate, to }: Options): Promise<void> {
  const unsynced = await unsyncedCount().catch(() => 0);
  if (unsynced > 0 && !(await confirmLosing(unsynced))) return;
  // While still signed in: this device stops receiving the reminders (the next person here must not get them).
  await platform().reminders.forget().catch((error: unknown) => console.warn('reminders not removed from this device', error));
  lockJournal();
  await forgetPersonalData();
  try {
    await authClient.signOut();
  } catch (error) {
    // Nothing personal is left on this device; the session may still be open on the server.
    toast.error(M.signOutErrorTitle, { description: error instanceof ApiError ? M.signOutError : M.unexpected });
    return;
  }
  client.clear();
  toast.success(M.signedOutTitle, { description: M.signedOutBody });
  void navigate(to, { replace: true });
}

/**
 * Asks before journal changes are lost: true to sign out anyway. The dialog has a React root of its own,
 * as this module is loaded only when signing out and the pages that sign out hold no state for it.
 */
function confirmLosing(count: number): Promise<boolean> {
  return new Promise((resolve) => {
    const host = document.createElement('div');
    document.body.append(host);
    const root = createRoot(host);
    let answered = false;
    const answer = (signOut: boolean) => {
      if (answered) return;
      answered = true;
      resolve(signOut);
      // After Radix has finished its own closing work (focus back to the Sign Out button).
      setTimeout(() => {
        root.unmount();
        host.remove();
      });
    };
    root.render(<ConfirmDialog open onOpenChange={(open) => !open && answer(false)} title={U.title} description={U.body(count)} confirmLabel={U.confirm} onConfirm={() => answer(true)} />);
  });
}
