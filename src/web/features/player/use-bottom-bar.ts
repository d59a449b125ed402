/**
 * A bar fixed at the foot of the screen (the mini player, the session summary) publishes its height
 * as --bottom-bar-height on the document, so toasts sit above it (toaster.css) instead of over its controls.
 */
import { useEffect, type RefObject } from 'react';

export function useBottomBar(ref: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const bar = ref.current;
    if (!bar) return;
    const root = document.documentElement;
    const publish = () => root.style.setProperty('--bottom-bar-height', `${bar.getBoundingClientRect().height}px`);
    publish();
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(publish);
    observer?.observe(bar);
    return () => {
      observer?.disconnect();
      root.style.removeProperty('--bottom-bar-height');
    };
  }, [ref]);
}
