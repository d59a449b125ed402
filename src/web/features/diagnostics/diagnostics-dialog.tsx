/** The hidden diagnostics overlay (spec): auth and purchase status, and four support actions. */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import Copy from 'lucide-react/icons/copy';
import LogIn from 'lucide-react/icons/log-in';
import RefreshCw from 'lucide-react/icons/refresh-cw';
import RotateCw from 'lucide-react/icons/rotate-cw';
import { useEffect, useState } from 'react';
import { toast } from '#web/lib/toast.ts';
import type { MeResponse } from '#shared/contracts/auth.ts';
import { billingApi } from '#shared/contracts/billing.routes.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Dialog } from '#web/components/ui/dialog.tsx';
import { useSignOut } from '#web/features/auth/use-sign-out.ts';
import { VIEWER_QUERY_KEY } from '#web/features/auth/use-viewer.ts';
import { SUBSCRIPTION_QUERY_KEY, useSubscription } from '#web/features/billing/use-subscription.ts';
import { buildReport, formatReport, type DiagnosticsReport } from '#web/features/diagnostics/debug-log.ts';
import { useOfflineCopies } from '#web/features/downloads/use-downloads.ts';
import { readQueue } from '#web/features/practice/session-queue.ts';
import { ApiError } from '#web/lib/api.ts';
import { call } from '#web/lib/call.ts';
import { platform } from '#web/platform/platform.ts';
import { PURCHASE_MESSAGES } from '#shared/purchases.ts';
import { checkAudio, meditationsInView, type AudioCheck } from '#web/features/diagnostics/audio-check.ts';

function serviceWorkerState(): DiagnosticsReport['device']['serviceWorker'] {
  if (!('serviceWorker' in navigator)) return 'unsupported';
  const controller = navigator.serviceWorker.controller;
  return controller ? 'active' : 'none';
}

export function DiagnosticsDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const client = useQueryClient();
  const me = useQuery<MeResponse>({ queryKey: VIEWER_QUERY_KEY, enabled: false });
  const signedIn = Boolean(me.data?.user);
  const subscription = useSubscription(open && signedIn);
  const copies = useOfflineCopies();
  const [busy, setBusy] = useState<string | null>(null);
  const signOut = useSignOut();
  const [, rerender] = useState(0);

  useEffect(() => {
    if (open) void client.refetchQueries({ queryKey: VIEWER_QUERY_KEY });
  }, [open, client]);

  const report = buildReport({
    me: me.data,
    subscription: signedIn ? subscription.data : undefined,
    lastValidatedAt: signedIn ? subscription.dataUpdatedAt : 0,
    // What the server can sell now (none when web billing is off); unknown until it has said.
    productCount: signedIn ? (subscription.data?.products ?? 0) : 0,
    online: navigator.onLine,
    serviceWorker: serviceWorkerState(),
    pendingSessions: readQueue().length,
    offlineCopies: copies.data?.length ?? 0,
    userAgent: navigator.userAgent,
    now: new Date(),
  });

  const refresh = async () => {
    setBusy('refresh');
    await client.refetchQueries({ queryKey: VIEWER_QUERY_KEY });
    if (signedIn) await client.refetchQueries({ queryKey: SUBSCRIPTION_QUERY_KEY });
    rerender((n) => n + 1);
    setBusy(null);
  };

  const restore = async () => {
    if (!signedIn) { toast.error('Sign in first', { description: 'Purchases belong to an account.' }); return; }
    setBusy('restore');
    const purchases = platform().purchases;
    try {
      if (purchases) {
        // Inside the apps: the store's restore (RevenueCat), synced to the server, then the server's answer.
        const { active } = await (await purchases.load()).restore();
        await client.invalidateQueries({ queryKey: SUBSCRIPTION_QUERY_KEY });
        await client.invalidateQueries({ queryKey: VIEWER_QUERY_KEY });
        toast.success(active ? 'Subscription confirmed' : 'No active subscription found', { description: 'Checked with the store just now.' });
        return;
      }
      // The server re-reads the subscription from the billing provider (Stripe) and stores it.
      const fresh = await call(billingApi.restore);
      client.setQueryData(SUBSCRIPTION_QUERY_KEY, fresh);
      await client.invalidateQueries({ queryKey: VIEWER_QUERY_KEY });
      toast.success(fresh.subscribed ? 'Subscription confirmed' : 'No active subscription found', { description: 'Checked with the billing provider just now.' });
    } catch (error) {
      // The server's words when it gave any (too many tries, billing unavailable).
      toast.error(PURCHASE_MESSAGES.restoreFailed, { description: error instanceof ApiError ? error.message : undefined });
    } finally {
      setBusy(null);
    }
  };

  const [audio, setAudio] = useState<AudioCheck[] | null>(null);
  const runAudioCheck = async () => {
    setBusy('audio');
    try {
      setAudio(await checkAudio(meditationsInView(client)));
    } finally {
      setBusy(null);
    }
  };

  const copy = async () => {
    const text = formatReport(report);
    try {
      await navigator.clipboard.writeText(text);
      toast.success('Debug log copied');
    } catch {
      toast.error('Could not copy', { description: 'Select the text below and copy it instead.' });
    }
  };

  const rows: [string, string][] = [
    ['Authenticated', report.auth.authenticated ? 'Yes' : 'No'],
    ['Email', report.auth.email ?? '—'],
    ['Provider', report.auth.provider ?? '—'],
    ['Session expires', report.auth.tokenExpiry ? new Date(report.auth.tokenExpiry).toLocaleString('en-GB') : '—'],
    ['User id', report.auth.userId ?? '—'],
  ];
  const purchaseRows: [string, string][] = [
    ['Active subscription', report.purchases.activeSubscription ? 'Yes' : 'No'],
    ['Platform', report.purchases.platform ?? '—'],
    ['Environment', report.purchases.environment ?? '—'],
    ['Products', String(report.purchases.productCount)],
    ['Last validation', report.purchases.lastValidation ? new Date(report.purchases.lastValidation).toLocaleString('en-GB') : '—'],
  ];

  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="Diagnostics" description="For support: nothing here can be used to sign in as you.">
      <div className="mt-5 grid gap-5 text-sm" data-testid="diagnostics">
        <Section title="Auth status" rows={rows} />
        <Section title="Purchase status" rows={purchaseRows} />
        <section aria-label="Audio check">
          <div className="flex items-center justify-between gap-3">
            <h3 className="font-semibold text-stone-900 dark:text-stone-50">Audio check</h3>
            <Button size="sm" variant="ghost" disabled={busy !== null} onClick={() => void runAudioCheck()}>
              {busy === 'audio' ? 'Checking...' : 'Check audio'}
            </Button>
          </div>
          {audio === null ? (
            <p className="mt-1 text-stone-500 dark:text-stone-400">A HEAD request on the audio of each meditation on screen.</p>
          ) : audio.length === 0 ? (
            <p className="mt-1 text-stone-500 dark:text-stone-400">No meditations on screen to check.</p>
          ) : (
            <dl className="mt-2 grid grid-cols-[1fr_auto] gap-x-4 gap-y-1" data-testid="audio-check">
              {audio.map((a) => (
                <div key={a.id} className="contents">
                  <dt className="truncate text-stone-500 dark:text-stone-400">{a.title}</dt>
                  <dd className="text-stone-900 dark:text-stone-100">{a.status}</dd>
                </div>
              ))}
            </dl>
          )}
        </section>
        <details className="rounded-2xl bg-stone-50 p-3 dark:bg-stone-800/60">
          <summary className="cursor-pointer font-medium">Debug log</summary>
          <pre className="mt-2 max-h-48 overflow-auto whitespace-pre-wrap break-all text-xs" data-testid="debug-log">
            {formatReport(report)}
          </pre>
        </details>
        <div className="grid grid-cols-2 gap-2">
          <Button size="sm" variant="outline" onClick={() => void copy()}>
            <Copy className="size-4" aria-hidden /> Copy Debug Log
          </Button>
          <Button size="sm" variant="outline" disabled={busy !== null} onClick={() => void restore()}>
            <RotateCw className="size-4" aria-hidden /> Force Restore Purchases
          </Button>
          <Button
            size="sm"
            variant="outline"
            onClick={() => {
              onOpenChange(false);
              void signOut('/sign-in');
            }}
          >
            <LogIn className="size-4" aria-hidden /> Re-run Sign In
          </Button>
          <Button size="sm" variant="outline" disabled={busy !== null} onClick={() => void refresh()}>
            <RefreshCw className="size-4" aria-hidden /> Refresh
          </Button>
        </div>
      </div>
    </Dialog>
  );
}

function Section({ title, rows }: { title: string; rows: [string, string][] }) {
  return (
    <section aria-label={title}>
      <h3 className="font-semibold text-stone-900 dark:text-stone-50">{title}</h3>
      <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
        {rows.map(([term, detail]) => (
          <div key={term} className="contents">
            <dt className="text-stone-500 dark:text-stone-400">{term}</dt>
            <dd className="break-all text-stone-900 dark:text-stone-100">{detail}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
