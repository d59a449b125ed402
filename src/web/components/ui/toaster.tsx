/** The toast region, mounted once sonner is wanted (first toast or idle): see lib/toast.ts. */
import { lazy, Suspense, useSyncExternalStore } from 'react';
import { TOAST_DURATION_MS, TOAST_MAX_VISIBLE } from '#shared/constants.ts';
import { loadSonner, toasterStore } from '#web/lib/toast.ts';
import '#web/components/ui/toaster.css';

const SonnerToaster = lazy(() => loadSonner().then((m) => ({ default: m.Toaster })));

/** Below the 64 px sticky header, so a toast never covers the navigation. */
const TOAST_TOP_OFFSET_PX = 76;

export function Toaster() {
  const wanted = useSyncExternalStore(toasterStore.subscribe, toasterStore.isWanted, () => false);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <SonnerToaster duration={TOAST_DURATION_MS} visibleToasts={TOAST_MAX_VISIBLE} richColors closeButton theme="system" position="top-center" offset={{ top: TOAST_TOP_OFFSET_PX, left: 24, right: 24 }} mobileOffset={{ top: TOAST_TOP_OFFSET_PX, left: 16, right: 16 }} />
    </Suspense>
  );
}
