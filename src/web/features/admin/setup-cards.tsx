/** What a signed-in person sees before the dashboard opens: their security status and the one-time admin setup. */
import { useQueryClient } from '@tanstack/react-query';
import ShieldAlert from 'lucide-react/icons/shield-alert';
import ShieldCheck from 'lucide-react/icons/shield-check';
import { useState, type SubmitEvent } from 'react';
import { toast } from '#web/lib/toast.ts';
import { ADMIN_MESSAGES as M } from '#shared/admin.ts';
import type { AdminStatus } from '#shared/contracts/admin.ts';
import { adminApi } from '#shared/contracts/admin.routes.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Field } from '#web/components/ui/field.tsx';
import { VIEWER_QUERY_KEY } from '#web/features/auth/use-viewer.ts';
import { Panel } from '#web/features/admin/admin-ui.tsx';
import { ADMIN_STATUS_KEY } from '#web/features/admin/use-admin-status.ts';
import { ApiError } from '#web/lib/api.ts';
import { call } from '#web/lib/call.ts';

export function SetupCards({ status }: { status: AdminStatus | undefined }) {
  return (
    <div className="grid gap-6 md:grid-cols-2">
      <SecurityStatusCard status={status} />
      <AdminSetupCard status={status} />
    </div>
  );
}

function SecurityStatusCard({ status }: { status: AdminStatus | undefined }) {
  const admin = Boolean(status?.isAdmin);
  return (
    <Panel title="Security Status">
      <p className="flex items-center gap-2 text-lg font-medium text-stone-900 dark:text-stone-50">
        {admin ? <ShieldCheck className="size-5 text-teal-700" aria-hidden /> : <ShieldAlert className="size-5 text-amber-600" aria-hidden />}
        <span data-testid="security-status">{admin ? M.verifiedAdmin : M.standardUser}</span>
      </p>
      <p className="mt-2 text-sm text-stone-600 dark:text-stone-300">
        Auth mode: <span data-testid="auth-mode">{status?.authMode ?? 'unknown'}</span>
      </p>
      <p className="mt-2 text-sm text-stone-600 dark:text-stone-300">Roles are read from the server on every request; the page cannot grant anything.</p>
    </Panel>
  );
}

function AdminSetupCard({ status }: { status: AdminStatus | undefined }) {
  const [token, setToken] = useState('');
  const [pending, setPending] = useState(false);
  const client = useQueryClient();
  const submit = async (event: SubmitEvent) => {
    event.preventDefault();
    if (!token.trim()) return;
    setPending(true);
    try {
      await call(adminApi.setup, { body: { token } });
      toast.success('Role Status Refreshed', { description: M.setupGranted });
      setToken('');
      await client.invalidateQueries({ queryKey: ADMIN_STATUS_KEY });
      await client.invalidateQueries({ queryKey: VIEWER_QUERY_KEY });
    } catch (error) {
      toast.error('Role Refresh Failed', { description: error instanceof ApiError ? error.message : 'Please try again.' });
    } finally {
      setPending(false);
    }
  };
  return (
    <Panel title={M.setupTitle}>
      {status?.adminExists ? (
        <p className="text-stone-600 dark:text-stone-300">{M.setupDone}</p>
      ) : (
        <form onSubmit={(e) => void submit(e)} className="grid gap-4">
          <p className="text-sm text-stone-600 dark:text-stone-300">
            A new installation has no administrator. The server prints a one-time setup token when it starts (or run <code className="rounded bg-stone-100 px-1 dark:bg-stone-800">npm run cli -- setup-token</code>).
          </p>
          <Field label="Setup token" value={token} onChange={(e) => setToken(e.target.value)} autoComplete="off" spellCheck={false} />
          <Button type="submit" disabled={pending || !token.trim()}>
            Grant me admin access
          </Button>
        </form>
      )}
    </Panel>
  );
}
