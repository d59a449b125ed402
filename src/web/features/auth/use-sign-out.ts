import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { toast } from '#web/lib/toast.ts';
import { SIGN_OUT_MESSAGES } from '#shared/sign-out-messages.ts';
import { ApiError } from '#web/lib/api.ts';
import { authClient } from '#web/lib/auth-client.ts';
import { forgetPersonalData } from '#web/lib/forget-personal-data.ts';
import { platform } from '#web/platform/platform.ts';

const M = SIGN_OUT_MESSAGES;

/** Signs out on the server, clears every cached user-specific query and the journal and routines kept in this browser, then goes to `to`. */
export function useSignOut() {
  const client = useQueryClient();
  const navigate = useNavigate();
  return async (to: '/' | '/sign-in') => {
    try {
      // While still signed in: this device stops receiving the reminders (the next person here must not get them).
      await platform().reminders.forget().catch((error: unknown) => console.warn('reminders not removed from this device', error));
      await authClient.signOut();
      client.clear();
      await forgetPersonalData();
      toast.success(M.signedOutTitle, { description: M.signedOutBody });
      void navigate(to, { replace: true });
    } catch (error) {
      toast.error(M.signOutErrorTitle, { description: error instanceof ApiError ? M.signOutError : M.unexpected });
    }
  };
}
