/**
 * /admin: the dashboard. What it shows follows /api/admin/status, but every action is checked
 * again on the server; a non-admin who forces a tab open only gets 403s.
 */
import { ShieldAlert } from 'lucide-react';
import { Component, useEffect, useState, type ErrorInfo, type ReactNode } from 'react';
import { toast } from 'sonner';
import { ADMIN, ADMIN_MESSAGES as M } from '#shared/admin.ts';
import type { AdminStatus } from '#shared/contracts/admin.ts';
import { Button, buttonClasses } from '#web/components/ui/button.tsx';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { Tabs, TabsBar, TabsContent } from '#web/components/ui/tabs.tsx';
import { SignInGuard } from '#web/features/auth/sign-in-guard.tsx';
import { AuditTab } from '#web/features/admin/audit-tab.tsx';
import { MeditationsTab } from '#web/features/admin/meditations-tab.tsx';
import { RolesTab } from '#web/features/admin/roles-tab.tsx';
import { SecurityTab } from '#web/features/admin/security-tab.tsx';
import { SetupCards } from '#web/features/admin/setup-cards.tsx';
import { useAdminStatus } from '#web/features/admin/use-admin-status.ts';
import { WaitlistTab } from '#web/features/admin/waitlist-tab.tsx';
import { ApiError } from '#web/lib/api.ts';
import { readStored, writeStored } from '#web/lib/storage.ts';
import { usePageTitle } from '#web/lib/use-page-title.ts';

const TAB_KEY = 'hm.adminTab';

export function AdminPage() {
  usePageTitle(M.title);
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
  const status = useAdminStatus();
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
  const saved = readStored(TAB_KEY) as TabId | null;
  const [tab, setTab] = useState<TabId>(saved && tabs.some((t) => t.id === saved) ? saved : tabs[0].id);
  const choose = (value: string) => {
    setTab(value as TabId);
    writeStored(TAB_KEY, value); // if refused, remembered for this visit only
  };
  return (
    <Tabs value={tab} onValueChange={choose}>
      <TabsBar label="Admin sections" wrap tabs={tabs.map((t) => ({ value: t.id, label: t.label }))} triggerClassName="whitespace-nowrap px-4" />
      <div className="mt-6">
        {status.isAdmin ? (
          <TabsContent value="setup">
            <SetupCards status={status} />
          </TabsContent>
        ) : null}
        <TabsContent value="meditations">
          <MeditationsTab />
        </TabsContent>
        {status.isAdmin ? (
          <>
            <TabsContent value="waitlist">
              <WaitlistTab sandbox={status.sandbox} />
            </TabsContent>
            <TabsContent value="roles">
              <RolesTab />
            </TabsContent>
            <TabsContent value="audit">
              <AuditTab />
            </TabsContent>
            <TabsContent value="security">
              <SecurityTab />
            </TabsContent>
          </>
        ) : null}
      </div>
    </Tabs>
  );
}
