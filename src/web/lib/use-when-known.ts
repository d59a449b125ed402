import { useCallback, useEffect, useLayoutEffect, useRef } from 'react';

/**
 * An action that needs to know who the person is (a card tapped on a page just made live, before
 * /api/me has answered): taken at once when `known`, otherwise held and taken once it is, with the
 * latest state. Without it a subscriber's early tap met the paywall. Only the last held tap counts.
 */
export function useWhenKnown<T>(known: boolean, act: (value: T) => void | Promise<void>): (value: T) => void {
  const latestAct = useRef(act);
  const held = useRef<{ value: T } | null>(null);
  // During the commit, not after it: when `known` turns true in a transition (the hydration gate), its
  // passive effects run a task later, and a tap in between took the new `known` with the old action
  // (a subscriber met the paywall: fresh run 48, soundscapes.e2e).
  useLayoutEffect(() => {
    latestAct.current = act;
  });
  useEffect(() => {
    if (!known || !held.current) return;
    const { value } = held.current;
    held.current = null;
    void latestAct.current(value);
  }, [known]);
  return useCallback(
    (value: T) => {
      if (known) void latestAct.current(value);
      else held.current = { value };
    },
    [known],
  );
}
