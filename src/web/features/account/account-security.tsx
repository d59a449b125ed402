/**
 * Account › Profile, the parts a person manages themselves (issue 17, item 8): their name, their
 * password, and where they are signed in. Each goes through better-auth's own endpoints behind our
 * auth routes, which check the input with the spec's rules and answer in the spec's words.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import LaptopMinimal from 'lucide-react/icons/laptop-minimal';
import Smartphone from 'lucide-react/icons/smartphone';
import { useState, type SubmitEvent } from 'react';
import { authApi } from '#shared/contracts/auth.routes.ts';
import { queryKeyOf } from '#shared/contracts/route.ts';
import { changePasswordProblem } from '#shared/credentials.ts';
import { ACCOUNT_MESSAGES as A } from '#shared/account-messages.ts';
import { MESSAGES } from '#shared/messages.ts';
import { validateName } from '#shared/validation.ts';
import { Button } from '#web/components/ui/button.tsx';
import { Field } from '#web/components/ui/field.tsx';
import { Spinner } from '#web/components/ui/spinner.tsx';
import { useRefreshViewer } from '#web/features/auth/use-viewer.ts';
import { ApiError } from '#web/lib/api.ts';
import { call } from '#web/lib/call.ts';
import { toast } from '#web/lib/toast.ts';

const messageOf = (error: unknown) => (error instanceof ApiError ? error.message : MESSAGES.auth.tryAgain);

function Status({ text, tone }: { text: string; tone: 'error' | 'ok' }) {
  return (
    <p role={tone === 'error' ? 'alert' : 'status'} className={`rounded-2xl px-4 py-3 text-sm ${tone === 'error' ? 'bg-rose-50 text-rose-800 dark:bg-rose-950/50 dark:text-rose-200' : 'bg-teal-50 text-teal-900 dark:bg-teal-950/50 dark:text-teal-100'}`}>
      {text}
    </p>
  );
}

/** The name the app greets them by. */
export function NameForm({ current }: { current: string }) {
  const refreshViewer = useRefreshViewer();
  const [name, setName] = useState(current);
  const [problem, setProblem] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: (value: string) => call(authApi.updateUser, { body: { name: value } }),
    onSuccess: async () => {
      await refreshViewer();
      toast.success(A.nameSaved);
    },
    onError: (error) => setProblem(messageOf(error)),
  });
  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const check = validateName(name);
    setProblem(check.valid ? null : check.error);
    if (check.valid && name.trim() !== current) save.mutate(name.trim());
  };
  return (
    <form onSubmit={submit} noValidate className="grid gap-4" aria-label={A.nameHeading}>
      <h2 className="font-serif text-xl font-semibold text-stone-900 dark:text-stone-50">{A.nameHeading}</h2>
      <Field label="Full Name" autoComplete="name" maxLength={100} value={name} onChange={(e) => setName(e.target.value)} error={problem ?? undefined} />
      <div>
        <Button type="submit" variant="outline" disabled={save.isPending || name.trim() === current}>
          {save.isPending ? A.saving : A.saveName}
        </Button>
      </div>
    </form>
  );
}

/** A new password, after the current one; other devices are signed out unless the person says not to. */
export function PasswordForm() {
  const queryClient = useQueryClient();
  const [fields, setFields] = useState({ current: '', next: '', confirm: '' });
  const [signOutOthers, setSignOutOthers] = useState(true);
  const [outcome, setOutcome] = useState<{ text: string; tone: 'error' | 'ok' } | null>(null);
  const change = useMutation({
    mutationFn: () => call(authApi.changePassword, { body: { currentPassword: fields.current, newPassword: fields.next, revokeOtherSessions: signOutOthers } }),
    onSuccess: async () => {
      setFields({ current: '', next: '', confirm: '' });
      setOutcome({ text: signOutOthers ? A.passwordChangedOthersOut : A.passwordChanged, tone: 'ok' });
      await queryClient.invalidateQueries({ queryKey: SESSIONS_KEY });
    },
    onError: (error) => setOutcome({ text: messageOf(error), tone: 'error' }),
  });
  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    // The server's rule (shared), then the confirmation, which only the form has.
    const problem = (fields.confirm ? undefined : MESSAGES.auth.fillAllFields) ?? changePasswordProblem({ currentPassword: fields.current, newPassword: fields.next }) ?? (fields.next !== fields.confirm ? A.passwordsDiffer : null);
    setOutcome(problem ? { text: problem, tone: 'error' } : null);
    if (!problem) change.mutate();
  };
  const set = (key: keyof typeof fields) => (e: { target: { value: string } }) => setFields((f) => ({ ...f, [key]: e.target.value }));
  return (
    <form onSubmit={submit} noValidate className="grid gap-4" aria-label={A.passwordHeading}>
      <h2 className="font-serif text-xl font-semibold text-stone-900 dark:text-stone-50">{A.passwordHeading}</h2>
      <Field label="Current password" type="password" autoComplete="current-password" maxLength={128} value={fields.current} onChange={set('current')} />
      <Field label="New password" type="password" autoComplete="new-password" maxLength={128} hint={MESSAGES.auth.passwordHint} value={fields.next} onChange={set('next')} />
      <Field label="Confirm new password" type="password" autoComplete="new-password" maxLength={128} value={fields.confirm} onChange={set('confirm')} />
      <label className="flex items-center gap-3 text-sm text-stone-700 dark:text-stone-200">
        <input type="checkbox" checked={signOutOthers} onChange={(e) => setSignOutOthers(e.target.checked)} className="size-5 accent-teal-700" />
        {A.signOutOthersToo}
      </label>
      {outcome ? <Status {...outcome} /> : null}
      <div>
        <Button type="submit" variant="outline" disabled={change.isPending}>
          {change.isPending ? A.saving : A.changePassword}
        </Button>
      </div>
    </form>
  );
}

/** The sessions list and which of them is this device's, read together. */
const SESSIONS_KEY = queryKeyOf(authApi.listSessions);

/** 'Chrome on Android' from a user agent: enough to recognise a device, nothing more. */
export function deviceLabel(userAgent: string | null | undefined): { label: string; phone: boolean } {
  const ua = userAgent ?? '';
  const browser = /Edg\//.test(ua) ? 'Edge' : /Firefox\//.test(ua) ? 'Firefox' : /Chrome\/|Chromium\//.test(ua) ? 'Chrome' : /Safari\//.test(ua) ? 'Safari' : null;
  const system = /Android/.test(ua) ? 'Android' : /iPhone|iPad|iPod/.test(ua) ? 'iOS' : /Mac OS X/.test(ua) ? 'macOS' : /Windows/.test(ua) ? 'Windows' : /Linux/.test(ua) ? 'Linux' : null;
  const phone = /Android|iPhone|iPad|iPod|Mobile/.test(ua);
  if (!browser && !system) return { label: A.unknownDevice, phone };
  return { label: [browser, system].filter(Boolean).join(' on '), phone };
}

const when = (iso: string) => new Date(iso).toLocaleString('en-GB', { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' });

/** Where this account is signed in (no tokens ever reach the page), and a way to end the others. */
export function SessionsCard() {
  const queryClient = useQueryClient();
  const sessions = useQuery({
    queryKey: SESSIONS_KEY,
    queryFn: async ({ signal }) => {
      const [list, current] = await Promise.all([call(authApi.listSessions, {}, { signal }), call(authApi.getSession, {}, { signal })]);
      return { list: [...list].sort((a, b) => Date.parse(b.updatedAt) - Date.parse(a.updatedAt)), currentId: current?.session.id ?? null };
    },
  });
  const revoke = useMutation({
    mutationFn: () => call(authApi.revokeOtherSessions, { body: {} }),
    onSuccess: async () => {
      toast.success(A.othersSignedOut);
      await queryClient.invalidateQueries({ queryKey: SESSIONS_KEY });
    },
    onError: (error) => toast.error(A.othersSignOutFailed, { description: messageOf(error) }),
  });

  return (
    <section aria-labelledby="sessions-heading" className="grid gap-4">
      <h2 id="sessions-heading" className="font-serif text-xl font-semibold text-stone-900 dark:text-stone-50">
        {A.sessionsHeading}
      </h2>
      {sessions.isPending ? (
        <Spinner label={A.sessionsLoading} />
      ) : sessions.isError ? (
        <div className="grid gap-3">
          <Status text={`${A.sessionsFailed} ${messageOf(sessions.error)}`} tone="error" />
          <div>
            <Button variant="outline" size="sm" onClick={() => void sessions.refetch()}>
              Try again
            </Button>
          </div>
        </div>
      ) : (
        <>
          <ul className="grid gap-3" aria-label={A.sessionsHeading}>
            {sessions.data.list.map((s) => {
              const device = deviceLabel(s.userAgent);
              const Icon = device.phone ? Smartphone : LaptopMinimal;
              const current = s.id === sessions.data.currentId;
              return (
                <li key={s.id} className="flex items-center gap-3 rounded-2xl p-3 ring-1 ring-stone-200 dark:ring-stone-800" data-testid="account-session">
                  <Icon className="size-5 shrink-0 text-stone-500 dark:text-stone-400" aria-hidden />
                  <div className="min-w-0">
                    <p className="font-medium text-stone-900 dark:text-stone-50">
                      {device.label}
                      {current ? <span className="ml-2 rounded-full bg-teal-50 px-2 py-0.5 text-xs text-teal-800 dark:bg-teal-950 dark:text-teal-200">{A.thisDevice}</span> : null}
                    </p>
                    <p className="text-sm text-stone-600 dark:text-stone-300">
                      {A.signedInSince} {when(s.createdAt)}
                    </p>
                  </div>
                </li>
              );
            })}
          </ul>
          {sessions.data.list.length > 1 ? (
            <div>
              <Button variant="outline" onClick={() => revoke.mutate()} disabled={revoke.isPending}>
                {A.signOutOthers}
              </Button>
            </div>
          ) : (
            <p className="text-sm text-stone-600 dark:text-stone-300">{A.onlyThisDevice}</p>
          )}
        </>
      )}
    </section>
  );
}
