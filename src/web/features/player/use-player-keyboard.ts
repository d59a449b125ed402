/**
 * Keyboard control anywhere in the app while something is loaded: Space or K plays/pauses,
 * Left/Right arrows move 15 s. Keys typed into fields, buttons and sliders keep their own meaning.
 */
import { useEffect } from 'react';
import { AUDIO } from '#shared/constants.ts';
import type { PlayerActions } from '#web/features/player/player-actions.ts';
import type { PlayerStore } from '#web/features/player/player-store.ts';

function ownsKeyboard(target: EventTarget | null): boolean {
  if (!(target instanceof Element)) return false;
  return Boolean(
    target.closest('input, textarea, select, button, a[href], [contenteditable="true"], [role="slider"], [role="tab"], [role="menuitem"], [role="option"], [role="checkbox"], [role="switch"]'),
  );
}

export function usePlayerKeyboard(store: PlayerStore, actions: PlayerActions): void {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!store.getState().current || event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
      if (ownsKeyboard(event.target)) return;
      // A modal other than the player (sign-in, confirmations) keeps the keyboard to itself.
      const dialog = document.querySelector('[role="dialog"][data-state="open"], [role="alertdialog"][data-state="open"]');
      if (dialog && !dialog.hasAttribute('data-player-sheet')) return;
      if (event.key === ' ' || event.key === 'k' || event.key === 'K') {
        event.preventDefault();
        actions.toggle();
      } else if (event.key === 'ArrowLeft') {
        event.preventDefault();
        actions.seekBy(-AUDIO.seekStepSeconds);
      } else if (event.key === 'ArrowRight') {
        event.preventDefault();
        actions.seekBy(AUDIO.seekStepSeconds);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [store, actions]);
}
