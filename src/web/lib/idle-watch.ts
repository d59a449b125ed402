/**
 * Notices when the person has stopped using the device (issue 36, item 1: the journal locks itself after
 * an idle time they choose). Idle means no pointer, keyboard, touch or wheel activity anywhere in the
 * page. The clock is read, not counted: a timer only says when to look again, so a timer that a hidden
 * tab or a backgrounded app held back still decides by the real time that passed, and coming back to
 * the front (`watchAppState`) looks at once rather than when a late timer would fire.
 */
import { watchAppState } from '#web/platform/app-state.ts';

const ACTIVITY = ['pointerdown', 'pointermove', 'keydown', 'touchstart', 'wheel'] as const;

type Options = {
  idleMs: number;
  onIdle: () => void;
  /** Where "the app came back to the front" is heard; app-state.ts's by default. */
  appState?: (listener: (active: boolean) => void) => () => void;
};

/** Calls `onIdle` once, after `idleMs` without activity. Returns the stop. */
export function watchIdle({ idleMs, onIdle, appState = watchAppState }: Options): () => void {
  let last = Date.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;

  const stop = () => {
    if (stopped) return;
    stopped = true;
    clearTimeout(timer);
    for (const type of ACTIVITY) window.removeEventListener(type, onActivity, true);
    stopAppState();
  };
  const check = () => {
    if (stopped) return;
    const quiet = Date.now() - last;
    if (quiet >= idleMs) {
      stop();
      onIdle();
      return;
    }
    clearTimeout(timer);
    timer = setTimeout(check, idleMs - quiet);
  };
  function onActivity() {
    last = Date.now();
  }

  // Capture: activity inside a dialog or a widget that stops propagation still counts.
  for (const type of ACTIVITY) window.addEventListener(type, onActivity, { capture: true, passive: true });
  const stopAppState = appState((active) => {
    if (active) check();
  });
  timer = setTimeout(check, idleMs);
  return stop;
}
