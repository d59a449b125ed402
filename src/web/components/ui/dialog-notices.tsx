/**
 * A dialog's own place for the messages raised while it is open (lib/toast.ts sends them here
 * instead of a toast over the dialog): announced politely, errors at once, gone with the dialog.
 * A message that arrives as the dialog closes (the common "close, then say so") was never seen in
 * it: it goes on as a toast once the dialog has closed.
 */
import { useEffect, useRef, useState } from 'react';
import { DIALOG_NOTICE_EVENT, toast, type DialogNotice } from '#web/lib/toast.ts';

/** The last few are kept: a dialog is not a log. */
const KEPT = 3;

export function DialogNotices({ open, className = '' }: { open: boolean; className?: string }) {
  const place = useRef<HTMLDivElement>(null);
  const [notices, setNotices] = useState<(DialogNotice & { id: number })[]>([]);
  // Received, but not yet on screen in an open dialog.
  const unseen = useRef<DialogNotice[]>([]);
  useEffect(() => {
    const element = place.current;
    if (!element) return;
    let next = 0;
    const onNotice = (event: Event) => {
      const notice = (event as CustomEvent<DialogNotice>).detail;
      unseen.current.push(notice);
      next += 1;
      const id = next;
      setNotices((shown) => [...shown, { ...notice, id }].slice(-KEPT));
    };
    element.addEventListener(DIALOG_NOTICE_EVENT, onNotice);
    return () => {
      element.removeEventListener(DIALOG_NOTICE_EVENT, onNotice);
      handBack(unseen);
    };
  }, []);
  // After each commit: shown in an open dialog, or handed on as toasts when the dialog has closed.
  useEffect(() => {
    if (open) unseen.current = [];
    else handBack(unseen);
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

function handBack(unseen: { current: DialogNotice[] }): void {
  const notices = unseen.current;
  unseen.current = [];
  for (const notice of notices) toast[notice.kind](notice.message, { description: notice.description });
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
