/** User Roles tab: assign by e-mail (CSRF token and server rules), the records, Revoke. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type SubmitEvent } from 'react';
import { toast } from '#web/lib/toast.ts';
import { ADMIN, ADMIN_MESSAGES as M } from '#shared/admin.ts';
import { adminApi } from '#shared/contracts/admin.routes.ts';
import { queryKeyOf } from '#shared/contracts/route.ts';
import { ROLE_OPTIONS } from '#shared/roles.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Field, FieldLabel } from '#web/components/ui/field.tsx';
import { useViewer } from '#web/features/auth/use-viewer.ts';
import { dateTime, Panel, selectClass } from '#web/features/admin/admin-ui.tsx';
import { recordLocalAudit } from '#web/features/admin/local-audit-log.ts';
import { ApiError } from '#web/lib/api.ts';
import { call } from '#web/lib/call.ts';
import { readStored, writeStored } from '#web/lib/storage.ts';
import { can } from '#shared/policies.ts';
import { ListStates } from '#web/components/ui/list-states.tsx';

const KEY = queryKeyOf(adminApi.roles);
const CSRF_STORAGE = 'hm.csrf';

/** Spec 'CSRF token': kept in session storage, 15 minutes of life, renewed when under 5 remain (checked every 60 s). */
function useCsrfToken() {
  const token = useRef<{ token: string; expiresAt: number } | null>(null);
  const renew = async () => {
    const fresh = await call(adminApi.csrf);
    token.current = { token: fresh.token, expiresAt: Date.parse(fresh.expiresAt) };
    // Blocked storage only means the next visit fetches a fresh token.
    writeStored(CSRF_STORAGE, JSON.stringify(token.current), 'session');
    return token.current.token;
  };
  useEffect(() => {
    try {
      const saved = JSON.parse(readStored(CSRF_STORAGE, 'session') ?? 'null') as { token: string; expiresAt: number } | null;
      if (saved && saved.expiresAt - Date.now() > ADMIN.csrfRefreshBeforeMs) token.current = saved;
    } catch {
      /* a fresh one is fetched below */
    }
    const check = () => {
      if (!token.current || token.current.expiresAt - Date.now() < ADMIN.csrfRefreshBeforeMs) void renew().catch(() => undefined);
    };
    check();
    const timer = setInterval(check, ADMIN.csrfCheckEveryMs);
    return () => clearInterval(timer);
  }, []);
  return async () => (token.current && token.current.expiresAt - Date.now() > 0 ? token.current.token : renew());
}

export function RolesTab() {
  const client = useQueryClient();
  const viewer = useViewer();
  const csrf = useCsrfToken();
  const roles = useQuery({ queryKey: KEY, queryFn: ({ signal }) => call(adminApi.roles, {}, { signal }).then((r) => r.roles) });
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<string>('editor');
  const roleId = useId();

  const report = (error: unknown) => {
    if (error instanceof ApiError && error.status === 429) { toast.error(M.rateLimitTitle, { description: M.rateLimitBody }); return; }
    if (error instanceof ApiError && error.message === M.securityErrorBody) { toast.error(M.securityErrorTitle, { description: M.securityErrorBody }); return; }
    // A check the server could not run: the spec's own titles, with the server's words.
    if (error instanceof ApiError && error.code === 'security/check-failed') { toast.error(M.securityCheckFailedTitle, { description: error.message }); return; }
    if (error instanceof ApiError && error.code === 'admin/check-failed') { toast.error(M.databaseErrorTitle, { description: error.message }); return; }
    toast.error('Validation Error', { description: error instanceof ApiError ? error.message : 'Please try again.' });
  };

  const assign = useMutation({
    mutationFn: async () => call(adminApi.assignRole, { body: { email, role } }, { headers: { 'x-csrf-token': await csrf() } }),
    onSuccess: (data) => {
      toast.success(data.message);
      recordLocalAudit({ action: 'role.assign', targetResource: 'user_roles', adminUserId: viewer.user?.id ?? null, changes: { email, role }, severity: role === 'admin' ? 'critical' : 'high' });
      setEmail('');
      void client.invalidateQueries({ queryKey: KEY });
    },
    onError: report,
  });
  const revoke = useMutation({
    mutationFn: async (id: string) => call(adminApi.revokeRole, { params: { id } }, { headers: { 'x-csrf-token': await csrf() } }),
    onSuccess: (data, id) => {
      toast.success(data.message);
      recordLocalAudit({ action: 'role.revoke', targetResource: 'user_roles', targetId: id, adminUserId: viewer.user?.id ?? null, severity: 'high' });
      void client.invalidateQueries({ queryKey: KEY });
    },
    onError: report,
  });

  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    if (!email.trim() || !role) { toast.error('Validation Error', { description: M.rolesRequired }); return; }
    assign.mutate();
  };

  return (
    <div className="grid gap-6">
      <Panel title="Assign a role">
        <form onSubmit={submit} className="grid items-end gap-4 sm:grid-cols-[1fr_auto_auto]">
          <Field label="Email" type="email" value={email} onChange={(e) => setEmail(e.target.value)} autoComplete="off" />
          <div>
            <FieldLabel htmlFor={roleId}>Role</FieldLabel>
            <select id={roleId} className={`${selectClass} h-12`} value={role} onChange={(e) => setRole(e.target.value)}>
              {ROLE_OPTIONS.map((r) => (
                <option key={r} value={r}>
                  {r}
                </option>
              ))}
            </select>
          </div>
          <Button type="submit" disabled={assign.isPending} className="h-12">
            Assign role
          </Button>
        </form>
        <p className="mt-3 text-sm text-stone-500 dark:text-stone-400">The person needs an account first. Every change is written to the audit log.</p>
      </Panel>
      <Panel title="Role records">
        <ListStates query={roles} loading="Loading roles..." failed="Roles could not be loaded" empty="No roles assigned yet.">
          {(items) => (
          <ul className="divide-y divide-stone-200 dark:divide-stone-800" aria-label="Role records">
            {items.map((r) => {
              const own = !can(viewer.who, 'revoke-role', r);
              return (
                <li key={r.id} className="flex flex-wrap items-center justify-between gap-3 py-3" data-testid="role-record">
                  <div>
                    <p className="font-medium text-stone-900 dark:text-stone-50">
                      {r.email} <span className="ml-2 rounded-full bg-teal-50 px-2 py-0.5 text-xs font-semibold text-teal-900 dark:bg-teal-950 dark:text-teal-200">{r.role}</span>
                    </p>
                    <p className="text-sm text-stone-500 dark:text-stone-400">Assigned {dateTime(r.assignedAt)}</p>
                  </div>
                  <Button size="sm" variant="outline" disabled={own || revoke.isPending} title={own ? M.cannotRevokeOwn : undefined} onClick={() => revoke.mutate(r.id)} aria-label={`Revoke ${r.role} from ${r.email}`}>
                    Revoke
                  </Button>
                </li>
              );
            })}
          </ul>
          )}
        </ListStates>
      </Panel>
    </div>
  );
}
