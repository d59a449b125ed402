import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';

/**
 * Signs out: wipes the journal and routines kept in this browser first, asking before journal changes
 * not yet synced are lost, then signs out on the server, clears every cached user-specific query and goes
 * to `to`. The work is in sign-out-here.tsx, loaded on the click: the header carrying this is on every first load.
 */
export function useSignOut() {
  const client = useQueryClient();
  const navigate = useNavigate();
  return async (to: '/' | '/sign-in') => {
    const { signOutHere } = await import('#web/features/auth/sign-out-here.tsx');
    await signOutHere({ client, navigate, to });
  };
}
