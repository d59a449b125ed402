/**
 * What the practice pages (/timer, /breathe) share: choices kept on this device, focus that follows
 * the page from its settings to the running practice and to its end, and the look of a chosen option.
 */
import { useEffect, useRef, useState, type RefObject } from 'react';

function loadFrom<T>(key: string, read: (stored: unknown) => T): T {
  try {
    return read(JSON.parse(localStorage.getItem(key) ?? 'null'));
  } catch {
    return read(null);
  }
}

/**
 * The page's choices, read from this device (through `read`, which repairs anything stored by an older
 * version or by hand) and written back on every change.
 */
export function useDeviceSettings<T extends object>(key: string, read: (stored: unknown) => T): [T, (change: Partial<T>) => void] {
  const [settings, setSettings] = useState<T>(() => loadFrom(key, read));
  const update = (change: Partial<T>) => {
    setSettings((current) => {
      const next = { ...current, ...change };
      try {
        localStorage.setItem(key, JSON.stringify(next));
      } catch {
        // Storage blocked: the choices last until the page closes.
      }
      return next;
    });
  };
  return [settings, update];
}

/** Each view change moves focus to its heading, so a keyboard or screen-reader user is not left on a button that vanished. */
export function useFocusOnViewChange(view: string, heading: RefObject<HTMLHeadingElement | null>): void {
  const shown = useRef(view);
  useEffect(() => {
    if (shown.current === view) return;
    shown.current = view;
    heading.current?.focus();
  }, [view, heading]);
}

/** A chosen option filled, the others plain (the chips and cards the practice pages choose with). */
export const choiceClass = (checked: boolean) =>
  checked ? 'bg-teal-700 text-white ring-teal-700 dark:bg-teal-400 dark:text-stone-950 dark:ring-teal-400' : 'bg-white text-stone-800 ring-stone-200 hover:bg-stone-100 dark:bg-stone-900 dark:text-stone-100 dark:ring-stone-800 dark:hover:bg-stone-800';
