/** The toast region, mounted once sonner is wanted (first toast or idle): see lib/toast.ts. */
import { useEffect, useState, useSyncExternalStore } from 'react';
import { TOAST_DURATION_MS, TOAST_MAX_VISIBLE } from '#shared/constants.ts';
import { loadSonner, toasterStore } from '#web/lib/toast.ts';
import '#web/components/ui/toaster.css';

type Sonner = Awaited<ReturnType<typeof loadSonner>>;

/** Below the 64 px sticky header, so a toast never covers the navigation. */
const TOAST_TOP_OFFSET_PX = 76;

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
    <sonner.Toaster duration={TOAST_DURATION_MS} visibleToasts={TOAST_MAX_VISIBLE} richColors closeButton theme="system" position="top-center" offset={{ top: TOAST_TOP_OFFSET_PX, left: 24, right: 24 }} mobileOffset={{ top: TOAST_TOP_OFFSET_PX, left: 16, right: 16 }} />
  );
}
