/**
 * /admin: the dashboard. What it shows follows /api/admin/status, but every action is checked
 * again on the server; a non-admin who forces a tab open only gets 403s.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { ShieldAlert, ShieldCheck } from 'lucide-react';
import { Tabs } from 'radix-ui';
import { Component, useEffect, useState, type ErrorInfo, type FormEvent, type ReactNode } from 'react';
import { toast } from 'sonner';
import { ADMIN, ADMIN_MESSAGES as M, type Role } from '#shared/admin.ts';
import { Button, buttonClasses } from '#web/components/ui/button.tsx';
import { Field } from '#web/components/ui/field.tsx';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { SignInGuard } from '#web/features/auth/sign-in-guard.tsx';
import { VIEWER_QUERY_KEY } from '#web/features/auth/use-viewer.ts';
import { AuditTab } from '#web/features/admin/audit-tab.tsx';
import { MeditationsTab } from '#web/features/admin/meditations-tab.tsx';
import { RolesTab } from '#web/features/admin/roles-tab.tsx';
import { SecurityTab } from '#web/features/admin/security-tab.tsx';
import { WaitlistTab } from '#web/features/admin/waitlist-tab.tsx';
import { Panel } from '#web/features/admin/admin-ui.tsx';
import { api, ApiError } from '#web/lib/api.ts';

export type AdminStatus = { role: Role; isAdmin: boolean; canManageMeditations: boolean; adminExists: boolean; sandbox: boolean; authMode: string };
export const ADMIN_STATUS_KEY = ['admin-status'] as const;
const TAB_KEY = 'hm.adminTab';

export function AdminPage() {
  useEffect(() => {
    document.title = `${M.title} · Harbour Mind`;
  }, []);
  return (
    <div className="mx-auto max-w-6xl px-4 py-12 sm:px-6">
      <h1 className="font-serif text-4xl font-semibold tracking-tight text-stone-900 dark:text-stone-50">{M.title}</h1>
      <div className="mt-8">
        <AdminErrorBoundary>
          <SignInGuard>
            <Dashboard />
          </SignInGuard>
        </AdminErrorBoundary>
      </div>
    </div>
  );
}

class AdminErrorBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  componentDidCatch(error: Error, info: ErrorInfo) {
    console.error('admin dashboard crashed', error, info.componentStack);
  }
  render() {
    if (!this.state.failed) return this.props.children;
    return (
      <div role="alert" className="rounded-3xl bg-rose-50 p-8 text-center ring-1 ring-rose-200 dark:bg-rose-950/40 dark:ring-rose-900">
        <h2 className="font-serif text-2xl font-semibold text-rose-900 dark:text-rose-100">{M.errorTitle}</h2>
        <p className="mt-2 text-rose-900/80 dark:text-rose-100/80">Something on this page stopped working. Your data is safe.</p>
        <div className="mt-6 flex justify-center gap-3">
          <Button onClick={() => window.location.reload()}>{M.reload}</Button>
          <a href="/" className={buttonClasses({ variant: 'outline' })}>
            {M.goHome}
          </a>
        </div>
      </div>
    );
  }
}

function Dashboard() {
  const status = useQuery({ queryKey: ADMIN_STATUS_KEY, queryFn: ({ signal }) => api<AdminStatus>('/api/admin/status', { signal }) });
  const [bypassed, setBypassed] = useState(false);
  const [slow, setSlow] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setSlow(true), ADMIN.loadingBypassMs);
    return () => clearTimeout(timer);
  }, []);
  useEffect(() => {
    if (status.isError) toast.error('Role Check Warning', { description: status.error instanceof ApiError ? status.error.message : 'Unable to verify admin status' });
  }, [status.isError, status.error]);

  if (status.isPending && !bypassed) {
    return (
      <div className="grid justify-items-center gap-4 py-10">
        <Spinner label={M.loading} />
        {slow ? (
          <Button
            variant="outline"
            onClick={() => {
              setBypassed(true);
              toast.info(M.loadingBypassed);
            }}
          >
            {M.continueAnyway}
          </Button>
        ) : null}
      </div>
    );
  }
  const data = status.data;
  const role = data?.role ?? null;
  return (
    <div className="grid gap-6">
      <DebugPanel status={data} />
      {!data?.isAdmin && !data?.canManageMeditations ? <AccessDenied role={role} /> : null}
      {data?.isAdmin || data?.canManageMeditations ? <AdminTabs status={data} /> : <SetupCards status={data} />}
    </div>
  );
}

function DebugPanel({ status }: { status: AdminStatus | undefined }) {
  return (
    <details className="rounded-2xl bg-stone-100 p-4 text-sm dark:bg-stone-800/60">
      <summary className="cursor-pointer font-medium text-stone-700 dark:text-stone-200">Debug info</summary>
      <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-6 gap-y-1 text-stone-600 dark:text-stone-300">
        <dt>Role</dt>
        <dd data-testid="debug-role">{status?.role ?? 'unknown'}</dd>
        <dt>Admin exists</dt>
        <dd>{status ? String(status.adminExists) : 'unknown'}</dd>
        <dt>Billing mode</dt>
        <dd>{status ? (status.sandbox ? 'sandbox' : 'live') : 'unknown'}</dd>
        <dt>Auth mode</dt>
        <dd>{status?.authMode ?? 'unknown'}</dd>
      </dl>
    </details>
  );
}

function AccessDenied({ role }: { role: string | null }) {
  return (
    <div role="alert" className="rounded-3xl bg-amber-50 p-8 ring-1 ring-amber-200 dark:bg-amber-950/40 dark:ring-amber-900">
      <ShieldAlert className="size-8 text-amber-700 dark:text-amber-300" aria-hidden />
      <h2 className="mt-3 font-serif text-2xl font-semibold text-stone-900 dark:text-stone-50">{M.accessDeniedTitle}</h2>
      <p className="mt-2 text-stone-700 dark:text-stone-200">{M.accessDeniedBody}</p>
      <p className="mt-2 text-stone-700 dark:text-stone-200">
        Your current role: <strong data-testid="current-role">{role ?? 'unknown'}</strong>
      </p>
      <p className="mt-2 text-sm text-stone-600 dark:text-stone-300">{M.setupHint}</p>
      <p className="mt-4 inline-flex rounded-full bg-amber-100 px-3 py-1 text-sm font-medium text-amber-900 dark:bg-amber-900 dark:text-amber-100">{M.needAdmin}</p>
    </div>
  );
}

function SetupCards({ status }: { status: AdminStatus | undefined }) {
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
      <p className="mt-2 text-sm text-stone-600 dark:text-stone-300">Roles are read from the server on every request; the page cannot grant anything.</p>
    </Panel>
  );
}

function AdminSetupCard({ status }: { status: AdminStatus | undefined }) {
  const [token, setToken] = useState('');
  const [pending, setPending] = useState(false);
  const client = useQueryClient();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!token.trim()) return;
    setPending(true);
    try {
      await api('/api/admin/setup', { method: 'POST', body: { token } });
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
        <form onSubmit={submit} className="grid gap-4">
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

type TabId = 'setup' | 'meditations' | 'waitlist' | 'roles' | 'audit' | 'security';

function AdminTabs({ status }: { status: AdminStatus }) {
  const tabs: { id: TabId; label: string }[] = status.isAdmin
    ? [
        { id: 'setup', label: 'Setup' },
        { id: 'meditations', label: 'Meditations' },
        { id: 'waitlist', label: 'Waitlist' },
        { id: 'roles', label: 'User Roles' },
        { id: 'audit', label: 'Audit Log' },
        { id: 'security', label: 'Security Log' },
      ]
    : [{ id: 'meditations', label: 'Meditations' }]; // editors manage the catalogue only
  const saved = (typeof localStorage !== 'undefined' ? localStorage.getItem(TAB_KEY) : null) as TabId | null;
  const [tab, setTab] = useState<TabId>(saved && tabs.some((t) => t.id === saved) ? saved : tabs[0]!.id);
  const choose = (value: string) => {
    setTab(value as TabId);
    try {
      localStorage.setItem(TAB_KEY, value);
    } catch {
      /* remembered for this visit only */
    }
  };
  return (
    <Tabs.Root value={tab} onValueChange={choose}>
      <Tabs.List aria-label="Admin sections" className="flex flex-wrap gap-1 rounded-3xl bg-stone-100 p-1 dark:bg-stone-800">
        {tabs.map((t) => (
          <Tabs.Trigger
            key={t.id}
            value={t.id}
            className="h-10 flex-1 whitespace-nowrap rounded-full px-4 text-sm font-medium text-stone-600 data-[state=active]:bg-white data-[state=active]:text-stone-900 data-[state=active]:shadow-sm dark:text-stone-300 dark:data-[state=active]:bg-stone-950 dark:data-[state=active]:text-stone-50"
          >
            {t.label}
          </Tabs.Trigger>
        ))}
      </Tabs.List>
      <div className="mt-6">
        {status.isAdmin ? (
          <Tabs.Content value="setup">
            <SetupCards status={status} />
          </Tabs.Content>
        ) : null}
        <Tabs.Content value="meditations">
          <MeditationsTab />
        </Tabs.Content>
        {status.isAdmin ? (
          <>
            <Tabs.Content value="waitlist">
              <WaitlistTab sandbox={status.sandbox} />
            </Tabs.Content>
            <Tabs.Content value="roles">
              <RolesTab />
            </Tabs.Content>
            <Tabs.Content value="audit">
              <AuditTab />
            </Tabs.Content>
            <Tabs.Content value="security">
              <SecurityTab />
            </Tabs.Content>
          </>
        ) : null}
      </div>
    </Tabs.Root>
  );
}
