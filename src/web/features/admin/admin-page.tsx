/**
 * /admin: the dashboard. What it shows follows /api/admin/status, but every action is checked
 * again on the server; a non-admin who forces a tab open only gets 403s.
 */
import ListChecks from 'lucide-react/icons/list-checks';
import Music from 'lucide-react/icons/music';
import ShieldAlert from 'lucide-react/icons/shield-alert';
import Users from 'lucide-react/icons/users';
import { Component, useEffect, useState, type ErrorInfo, type ReactNode } from 'react';
import { toast } from '#web/lib/toast.ts';
import { Link } from 'react-router';
import { ADMIN, ADMIN_EVENTS, ADMIN_MESSAGES as M } from '#shared/admin.ts';
import type { AdminStatus } from '#shared/contracts/admin.ts';
import { Button, buttonClasses } from '#web/components/ui/button.tsx';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { Tabs, TabsBar, TabsContent } from '#web/components/ui/tabs.tsx';
import { SignInGuard } from '#web/features/auth/sign-in-guard.tsx';
import { AuditTab } from '#web/features/admin/audit-tab.tsx';
import { MeditationsTab } from '#web/features/admin/meditations-tab.tsx';
import { ProgrammesAdminTab } from '#web/features/programmes/programmes-admin-tab.tsx';
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

type TabId = 'setup' | 'meditations' | 'programmes' | 'waitlist' | 'roles' | 'audit' | 'security';

/** The dashboard's sections in their order; editors see theirs only (the catalogue, and the programmes made of it). */
const SECTIONS: { id: TabId; label: string; editors: boolean; render: (status: AdminStatus) => ReactNode }[] = [
  { id: 'setup', label: 'Setup', editors: false, render: (status) => <SetupCards status={status} /> },
  { id: 'meditations', label: 'Meditations', editors: true, render: () => <MeditationsTab /> },
  { id: 'programmes', label: 'Programmes', editors: true, render: () => <ProgrammesAdminTab /> },
  { id: 'waitlist', label: 'Waitlist', editors: false, render: (status) => <WaitlistTab sandbox={status.sandbox} /> },
  { id: 'roles', label: 'User Roles', editors: false, render: () => <RolesTab /> },
  { id: 'audit', label: 'Audit Log', editors: false, render: () => <AuditTab /> },
  { id: 'security', label: 'Security Log', editors: false, render: () => <SecurityTab /> },
];

function AdminTabs({ status }: { status: AdminStatus }) {
  const tabs = SECTIONS.filter((section) => status.isAdmin || section.editors);
  const saved = readStored(TAB_KEY) as TabId | null;
  const [tab, setTab] = useState<TabId>(saved && tabs.some((t) => t.id === saved) ? saved : tabs[0].id);
  const choose = (value: string) => {
    setTab(value as TabId);
    writeStored(TAB_KEY, value); // if refused, remembered for this visit only
  };
  // The sidebar's choice arrives as a broadcast (spec), so anything else on the page may send it too.
  const available = tabs.map((t) => t.id).join(',');
  useEffect(() => {
    const onTabChange = (event: Event) => {
      const wanted = (event as CustomEvent<unknown>).detail;
      if (typeof wanted === 'string' && available.split(',').includes(wanted)) setTab(wanted as TabId);
    };
    window.addEventListener(ADMIN_EVENTS.tabChange, onTabChange);
    return () => window.removeEventListener(ADMIN_EVENTS.tabChange, onTabChange);
  }, [available]);
  return (
    <div className="grid gap-6 lg:grid-cols-[12rem_1fr]">
      <AdminSidebar isAdmin={status.isAdmin} />
      <Tabs value={tab} onValueChange={choose}>
        <TabsBar label="Admin sections" wrap tabs={tabs.map((t) => ({ value: t.id, label: t.label }))} triggerClassName="whitespace-nowrap px-4" />
        <div className="mt-6">
          {tabs.map((section) => (
            <TabsContent key={section.id} value={section.id}>
              {section.render(status)}
            </TabsContent>
          ))}
        </div>
      </Tabs>
    </div>
  );
}

/**
 * The spec's sidebar: Meditations and Waitlist open their tab (the choice is stored and broadcast),
 * Subscribers leads to the account page.
 */
function AdminSidebar({ isAdmin }: { isAdmin: boolean }) {
  const open = (tab: TabId) => {
    writeStored(TAB_KEY, tab);
    window.dispatchEvent(new CustomEvent(ADMIN_EVENTS.tabChange, { detail: tab }));
  };
  const item = 'flex w-full items-center gap-2 rounded-xl px-3 py-2 text-left text-sm font-medium text-stone-700 hover:bg-stone-100 dark:text-stone-200 dark:hover:bg-stone-800';
  return (
    <nav aria-label="Admin shortcuts" className="rounded-2xl bg-white p-2 ring-1 ring-stone-200 lg:self-start dark:bg-stone-900 dark:ring-stone-800">
      <ul className="flex flex-wrap gap-1 lg:flex-col">
        <li>
          <button type="button" className={item} onClick={() => open('meditations')}>
            <Music className="size-4" aria-hidden /> Meditations
          </button>
        </li>
        {isAdmin ? (
          <li>
            <button type="button" className={item} onClick={() => open('waitlist')}>
              <ListChecks className="size-4" aria-hidden /> Waitlist
            </button>
          </li>
        ) : null}
        <li>
          <Link to="/account" className={item}>
            <Users className="size-4" aria-hidden /> Subscribers
          </Link>
        </li>
      </ul>
    </nav>
  );
}
