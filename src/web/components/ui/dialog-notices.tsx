/**
 * A dialog's own place for the messages raised while it is open (lib/toast.ts sends them here
 * instead of a toast over the dialog): announced politely, errors at once. When the dialog closes
 * (or its page goes) while a message is younger than a toast's life, the rest of that life is a
 * toast after it: "close, then say so" and "say so, then leave the page" both reach the person.
 */
import { useEffect, useRef, useState } from 'react';
import { TOAST_DURATION_MS } from '#shared/constants.ts';
import { toast } from '#web/lib/toast.ts';
import { DIALOG_NOTICE_EVENT, type DialogNotice } from '#web/lib/toast-after-modals.ts';

/** The last few are kept: a dialog is not a log. */
const KEPT = 3;

type Shown = DialogNotice & { id: number; at: number };

export function DialogNotices({ open, className = '' }: { open: boolean; className?: string }) {
  const place = useRef<HTMLDivElement>(null);
  const [notices, setNotices] = useState<Shown[]>([]);
  // What is said here, as the event handler has it (a close may come before the render that shows it).
  const said = useRef<Shown[]>([]);
  useEffect(() => {
    const element = place.current;
    if (!element) return;
    let next = 0;
    const onNotice = (event: Event) => {
      next += 1;
      const shown = { ...(event as CustomEvent<DialogNotice>).detail, id: next, at: Date.now() };
      said.current = [...said.current, shown].slice(-KEPT);
      setNotices(said.current);
    };
    element.addEventListener(DIALOG_NOTICE_EVENT, onNotice);
    return () => {
      element.removeEventListener(DIALOG_NOTICE_EVENT, onNotice);
      handOn(said);
    };
  }, []);
  useEffect(() => {
    if (!open) handOn(said);
  });
  const errors = notices.filter((n) => n.kind === 'error');
  const others = notices.filter((n) => n.kind !== 'error');
  return (
    <div ref={place} data-dialog-notices="" className={notices.length ? `grid gap-2 ${className}` : ''}>
      {/* The polite region is there from the start, so what arrives in it is announced; an alert is announced as it appears. */}
      <div role="status" className="grid gap-2">
        {others.map((n) => (
          <Notice key={n.id} notice={n} />
        ))}
      </div>
      {errors.length ? (
        <div role="alert" className="grid gap-2">
          {errors.map((n) => (
            <Notice key={n.id} notice={n} />
          ))}
        </div>
      ) : null}
    </div>
  );
}

/** The messages still within a toast's life go on as toasts for the rest of it; each only once. */
function handOn(said: { current: Shown[] }): void {
  const now = Date.now();
  for (const notice of said.current) {
    const left = TOAST_DURATION_MS - (now - notice.at);
    if (left > 0) toast[notice.kind](notice.message, { description: notice.description, duration: left });
  }
  said.current = [];
}

function Notice({ notice }: { notice: DialogNotice }) {
  const tone =
    notice.kind === 'error'
      ? 'bg-rose-50 text-rose-900 ring-rose-200 dark:bg-rose-950/50 dark:text-rose-100 dark:ring-rose-900'
      : 'bg-teal-50 text-teal-900 ring-teal-200 dark:bg-teal-950/50 dark:text-teal-100 dark:ring-teal-900';
  return (
    <div className={`rounded-2xl px-4 py-3 text-sm ring-1 ${tone}`}>
      <p className="font-medium">{notice.message}</p>
      {notice.description ? <p className="mt-0.5">{notice.description}</p> : null}
    </div>
  );
}
