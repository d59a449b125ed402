/**
 * /waitlist: the beta sign-up (name, e-mail, optional reason, hidden honeypot), sharing, and what
 * early users can expect. The server validates again and decides duplicates and limits.
 */
import CircleCheck from 'lucide-react/icons/circle-check';
import LinkIcon from 'lucide-react/icons/link';
import Share2 from 'lucide-react/icons/share-2';
import Sparkles from 'lucide-react/icons/sparkles';
import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useRef, useState, type SubmitEvent } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { Link } from 'react-router';
import { ADMIN_EVENTS } from '#shared/admin.ts';
import { STORAGE_KEYS, TRIAL_DAYS } from '#shared/constants.ts';
import { waitlistApi } from '#shared/contracts/waitlist.routes.ts';
import { isAbsoluteHttpUrl, shareLinks, WAITLIST, WAITLIST_MESSAGES as W, waitlistFormSchema, type WaitlistFormValues } from '#shared/waitlist.ts';
import { Button } from '#web/components/ui/button.tsx';
import { EnterInput } from '#web/components/ui/enter-input.tsx';
import { Field } from '#web/components/ui/field.tsx';
import { TextArea } from '#web/components/ui/text-area.tsx';
import { useViewer } from '#web/features/auth/use-viewer.ts';
import { ApiError } from '#web/lib/api.ts';
import { call } from '#web/lib/call.ts';
import { readStored, removeStored, writeStored } from '#web/lib/storage.ts';
import { usePageTitle } from '#web/lib/use-page-title.ts';
import { can } from '#shared/policies.ts';

const EXPECT = [
  'New features to try before they reach everyone: new series, the native apps, and what comes next for the journal and routines.',
  'A direct line to the founder: your feedback shapes what we build next.',
  'Gentle, occasional e-mails, never more than one a fortnight, and no spam.',
];

const GETTING_STARTED = [
  'Join the list with your name and e-mail.',
  'Watch for an e-mail when a new feature is ready to try.',
  'Use Harbour Mind as usual: the beta features appear in your account.',
  'Tell us what helps and what does not: reply to any e-mail.',
];

export function WaitlistPage() {
  usePageTitle('Join the Beta');
  return (
    <div className="mx-auto max-w-5xl px-4 py-12 sm:px-6">
      <header className="max-w-2xl">
        <p className="inline-flex items-center gap-2 rounded-full bg-teal-50 px-3 py-1 text-sm font-medium text-teal-800 dark:bg-teal-950 dark:text-teal-200">
          <Sparkles className="size-4" aria-hidden /> Beta
        </p>
        <h1 className="mt-4 font-serif text-4xl font-semibold tracking-tight text-stone-900 sm:text-5xl dark:text-stone-50">Join the Harbour Mind beta</h1>
        <p className="mt-4 text-lg leading-relaxed text-stone-600 dark:text-stone-300">
          Harbour Mind is open to everyone today: <Link to="/subscribe" className="font-medium text-teal-700 underline underline-offset-4 dark:text-teal-300">start with {TRIAL_DAYS} days free</Link>. The beta is for people who would like to try
          new features first and tell us what helps. Joining costs nothing and needs no account.
        </p>
      </header>
      <div className="mt-10 grid items-start gap-8 lg:grid-cols-[3fr_2fr]">
        <JoinPanel />
        <div className="grid content-start gap-8">
          <ShareBox />
          <InfoList title="What to expect as an early user" items={EXPECT} />
          <InfoList title="Getting started" items={GETTING_STARTED} ordered />
        </div>
      </div>
    </div>
  );
}

/** The form, or, once this browser has joined, a lasting confirmation (with a way to add someone else). */
function JoinPanel() {
  const [joined, setJoined] = useState(() => readStored(STORAGE_KEYS.waitlistJoined) !== null);
  // When the confirmation replaces the form, focus moves to it: the button pressed is gone, and a screen reader hears the news.
  const [justJoined, setJustJoined] = useState(false);
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (justJoined) headingRef.current?.focus();
  }, [justJoined]);
  if (!joined) {
    return (
      <WaitlistForm
        onJoined={() => {
          writeStored(STORAGE_KEYS.waitlistJoined, new Date().toISOString());
          setJoined(true);
          setJustJoined(true);
        }}
      />
    );
  }
  return (
    <section aria-labelledby="joined-heading" className="rounded-3xl bg-white p-6 ring-1 ring-stone-200 sm:p-8 dark:bg-stone-900 dark:ring-stone-800">
      <CircleCheck className="size-9 text-teal-700 dark:text-teal-300" aria-hidden />
      <h2 id="joined-heading" ref={headingRef} tabIndex={-1} className="mt-3 font-serif text-2xl font-semibold text-stone-900 dark:text-stone-50">
        {W.successTitle}
      </h2>
      <p className="mt-2 text-stone-600 dark:text-stone-300">{W.successBody}</p>
      <Button
        variant="outline"
        className="mt-6"
        onClick={() => {
          removeStored(STORAGE_KEYS.waitlistJoined);
          setJoined(false);
        }}
      >
        Add someone else
      </Button>
    </section>
  );
}

function WaitlistForm({ onJoined }: { onJoined: () => void }) {
  const { register, handleSubmit, reset, getValues, control, formState } = useForm<WaitlistFormValues>({
    resolver: zodResolver(waitlistFormSchema),
    defaultValues: { name: '', email: '', reason: '', website: '' },
    // The spec answers on submit; after that a corrected field clears its own message.
    mode: 'onSubmit',
  });
  const { errors, isSubmitting } = formState;
  const reasonLength = useWatch({ control, name: 'reason' }).length;
  // Decision 0027: a failure is said once, in the form, with the spec's title and words.
  const [failure, setFailure] = useState<{ title: string; body: string } | null>(null);

  const join = async ({ name, email, reason, website }: WaitlistFormValues) => {
    try {
      await call(waitlistApi.join, { body: { name, email, reason: reason.trim() ? reason : null, website } });
      // An admin's waitlist table open in this app refreshes at once (spec 'Waitlist list refresh').
      window.dispatchEvent(new Event(ADMIN_EVENTS.waitlistUpdated));
      reset();
      // The form gives way to the lasting "You're on the list!" panel, which says it (no toast besides).
      onJoined();
    } catch (error) {
      if (error instanceof ApiError && error.code === 'database/duplicate-email') setFailure({ title: W.duplicateTitle, body: W.duplicateBody });
      else if (error instanceof ApiError && error.status === 429) setFailure({ title: W.rateLimitTitle, body: W.rateLimitBody });
      else if (error instanceof ApiError && error.status === 400) setFailure({ title: W.invalidTitle, body: W.invalidBody });
      // Admin document 'Waitlist save': a refusal by policy says so.
      else if (error instanceof ApiError && error.status === 403) setFailure({ title: W.failedTitle, body: W.accessDenied });
      // Consumer document: 'Any other failure' is 'Unable to join waitlist' / 'Please try again later.' (the
      // server's own wording of a fault, or a network error's, is not for a visitor; issue 33).
      else setFailure({ title: W.failedTitle, body: W.failedBody });
    }
  };
  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    if (isSubmitting) {
      event.preventDefault();
      return;
    }
    setFailure(null);
    // A filled honeypot is a bot: answer before validating, as the spec's form does.
    if (getValues('website').trim()) {
      event.preventDefault();
      setFailure({ title: W.honeypotTitle, body: W.honeypotBody });
      return;
    }
    // Invalid fields: each says what is wrong beside it, and the spec's summary heads the form.
    void handleSubmit(join, () => setFailure({ title: W.invalidTitle, body: W.invalidBody }))(event);
  };

  return (
    <form onSubmit={submit} noValidate aria-labelledby="waitlist-heading" className="rounded-3xl bg-white p-6 ring-1 ring-stone-200 sm:p-8 dark:bg-stone-900 dark:ring-stone-800">
      <h2 id="waitlist-heading" className="font-serif text-2xl font-semibold text-stone-900 dark:text-stone-50">
        Reserve your place
      </h2>
      <div className="mt-6 grid gap-5">
        <Field label="Name" autoComplete="name" maxLength={WAITLIST.nameMax} error={errors.name?.message} required {...register('name')} />
        <Field label="Email" type="email" autoComplete="email" maxLength={WAITLIST.emailMax} error={errors.email?.message} required {...register('email')} />
        <TextArea
          label="What brings you to Harbour Mind?"
          note="(optional)"
          rows={4}
          maxLength={WAITLIST.reasonMax}
          count={`${reasonLength}/${WAITLIST.reasonMax}`}
          error={errors.reason?.message}
          {...register('reason')}
        />
        {/* Honeypot: invisible to people and screen readers; bots fill it in. */}
        <div aria-hidden="true" className="absolute -left-[9999px] h-px w-px overflow-hidden">
          <label>
            Website
            <input type="text" tabIndex={-1} autoComplete="off" {...register('website')} />
          </label>
        </div>
        {failure ? (
          <p role="alert" data-testid="waitlist-failure" className="rounded-2xl bg-rose-50 px-4 py-3 text-sm text-rose-800 dark:bg-rose-950/50 dark:text-rose-200">
            <strong className="block font-semibold">{failure.title}</strong>
            {failure.body}
          </p>
        ) : null}
        <Button type="submit" size="lg" disabled={isSubmitting} aria-busy={isSubmitting}>
          {isSubmitting ? W.submitting : W.submit}
        </Button>
        <p className="text-xs text-stone-500 dark:text-stone-400">
          We only use your details to invite you to the beta. See our{' '}
          <Link to="/privacy" className="underline underline-offset-4">
            privacy policy
          </Link>
          .
        </p>
      </div>
    </form>
  );
}

function ShareBox() {
  // Only an admin chooses the address shared (e.g. a campaign link); visitors share this page
  // (issue 17; docs/decisions/0043-waitlist-share-url-for-admins.md).
  const canSetUrl = can(useViewer().who, 'administer');
  const [shareUrl, setShareUrl] = useState(() => `${window.location.origin}/waitlist`);
  const [draft, setDraft] = useState('');
  const links = shareLinks(shareUrl);
  const open = (url: string) => {
    const { width, height } = WAITLIST.sharePopup;
    window.open(url, 'share', `width=${width},height=${height},noopener,noreferrer`);
  };
  // Said once, under the field (decision 0027), with the spec's title and words.
  const [outcome, setOutcome] = useState<{ ok: boolean; title: string; body: string } | null>(null);
  const setUrl = () => {
    if (!isAbsoluteHttpUrl(draft)) {
      setOutcome({ ok: false, title: W.invalidUrlTitle, body: W.invalidUrlBody });
      return;
    }
    setShareUrl(draft.trim());
    setDraft('');
    setOutcome({ ok: true, title: W.urlUpdatedTitle, body: W.urlUpdatedBody });
  };
  return (
    <section aria-labelledby="share-heading" className="rounded-3xl bg-teal-50/70 p-6 ring-1 ring-teal-100 dark:bg-teal-950/40 dark:ring-teal-900">
      <h2 id="share-heading" className="font-serif text-xl font-semibold text-stone-900 dark:text-stone-50">
        Share the beta
      </h2>
      <p className="mt-2 text-sm text-stone-600 dark:text-stone-300">“{WAITLIST.shareText}”</p>
      <p className="mt-3 flex items-center gap-2 break-all text-sm text-stone-700 dark:text-stone-200" data-testid="share-url">
        <LinkIcon className="size-4 shrink-0" aria-hidden /> {shareUrl}
      </p>
      {canSetUrl ? (
        <div className="mt-4 flex gap-2">
          <EnterInput aria-label="Custom share URL" placeholder="https://" value={draft} onChange={setDraft} onEnter={setUrl} />
          <Button size="sm" variant="secondary" onClick={setUrl}>
            Set URL
          </Button>
        </div>
      ) : null}
      {canSetUrl && outcome ? (
        <p role={outcome.ok ? 'status' : 'alert'} data-testid="share-url-outcome" className={`mt-2 text-sm ${outcome.ok ? 'text-teal-800 dark:text-teal-200' : 'text-rose-800 dark:text-rose-200'}`}>
          <strong className="font-semibold">{outcome.title}</strong> {outcome.body}
        </p>
      ) : null}
      <div className="mt-4 flex flex-wrap gap-2">
        <Button size="sm" variant="outline" onClick={() => open(links.twitter)}>
          <Share2 className="size-4" aria-hidden /> Twitter
        </Button>
        <Button size="sm" variant="outline" onClick={() => open(links.facebook)}>
          <Share2 className="size-4" aria-hidden /> Facebook
        </Button>
        <Button size="sm" variant="outline" onClick={() => open(links.linkedin)}>
          <Share2 className="size-4" aria-hidden /> LinkedIn
        </Button>
      </div>
    </section>
  );
}

function InfoList({ title, items, ordered = false }: { title: string; items: string[]; ordered?: boolean }) {
  const List = ordered ? 'ol' : 'ul';
  return (
    <section aria-label={title}>
      <h2 className="font-serif text-xl font-semibold text-stone-900 dark:text-stone-50">{title}</h2>
      <List className={`mt-3 grid gap-2 text-stone-600 dark:text-stone-300 ${ordered ? 'list-decimal pl-5' : 'list-disc pl-5'}`}>
        {items.map((item) => (
          <li key={item}>{item}</li>
        ))}
      </List>
    </section>
  );
}
