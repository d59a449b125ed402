/** The toast region, mounted once sonner is wanted (first toast or idle): see lib/toast.ts. */
import { useEffect, useState, useSyncExternalStore } from 'react';
import { TOAST_DURATION_MS, TOAST_MAX_VISIBLE } from '#shared/constants.ts';
import { loadSonner, toasterStore } from '#web/lib/toast.ts';

type Sonner = Awaited<ReturnType<typeof loadSonner>>;

/**
 * At the foot of the screen, above the mini player or the session summary when one is up
 * (--toast-offset-bottom, toaster.css, part of the main stylesheet): at the top, toasts covered page headings (the sandbox
 * checkout's, the Premium badge on /welcome) and the top of the phone menu (issue 38).
 */
const BOTTOM = 'var(--toast-offset-bottom, 16px)';

/**
 * sonner, once wanted. Not React.lazy: a lazy component whose import fails throws to the error
 * boundary, and a visit that went offline before the idle prefetch reached sonner lost the whole
 * page to it (the offline Home journey saw the header detached). Here a failed load leaves no toast
 * region, and is tried again when the browser is back online.
 */
function useSonner(wanted: boolean): Sonner | null {
  const [sonner, setSonner] = useState<Sonner | null>(null);
  useEffect(() => {
    if (!wanted || sonner) return;
    let live = true;
    const attempt = () => {
      loadSonner().then(
        (loaded) => {
          if (live) setSonner(loaded);
        },
        () => window.addEventListener('online', attempt, { once: true }),
      );
    };
    attempt();
    return () => {
      live = false;
      window.removeEventListener('online', attempt);
    };
  }, [wanted, sonner]);
  return sonner;
}

export function Toaster() {
  const wanted = useSyncExternalStore(toasterStore.subscribe, toasterStore.isWanted, () => false);
  const sonner = useSonner(wanted);
  if (!sonner) return null;
  return (
    <sonner.Toaster duration={TOAST_DURATION_MS} visibleToasts={TOAST_MAX_VISIBLE} richColors closeButton theme="system" position="bottom-center" offset={{ bottom: BOTTOM, left: 24, right: 24 }} mobileOffset={{ bottom: BOTTOM, left: 16, right: 16 }} />
  );
}
