/**
 * Whether React has finished adopting a page the server prepared. That page shows the viewer as
 * "loading" (it is rendered for nobody in particular), so every part of it must render that way
 * until the whole page is live, even a part that hydrates after /api/me has answered; then the
 * real viewer shows. The switch is a transition, so the re-render it causes yields to the browser.
 */
import { createContext, startTransition, useContext, useEffect, useState, type ReactNode } from 'react';

const Hydrated = createContext(true);

export function useHydrated(): boolean {
  return useContext(Hydrated);
}

/** `hydrating`: true on the server and while the browser adopts its HTML; false when the browser renders alone. */
export function HydrationGate({ hydrating, children }: { hydrating: boolean; children: ReactNode }) {
  const [hydrated, setHydrated] = useState(!hydrating);
  useEffect(() => {
    if (!hydrated) {
      startTransition(() => {
        setHydrated(true);
      });
    }
  }, [hydrated]);
  return <Hydrated value={hydrated}>{children}</Hydrated>;
}
