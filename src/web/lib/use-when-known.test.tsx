// @vitest-environment jsdom
/** A card tapped before /api/me answered: held, then taken with what the answer says (not the paywall for a subscriber). */
import { render, renderHook } from '@testing-library/react';
import { useLayoutEffect } from 'react';
import { describe, expect, it } from 'vitest';
import { useWhenKnown } from '#web/lib/use-when-known.ts';

describe('useWhenKnown', () => {
  it('holds an early tap and takes it once the person is known, with the latest state', () => {
    const taken: string[] = [];
    const { result, rerender } = renderHook(({ known, canListen }) => useWhenKnown(known, (id: string) => void taken.push(`${id}:${canListen ? 'play' : 'paywall'}`)), {
      initialProps: { known: false, canListen: false },
    });
    result.current('breath');
    expect(taken).toEqual([]);
    rerender({ known: true, canListen: true });
    expect(taken).toEqual(['breath:play']);
    rerender({ known: true, canListen: true });
    expect(taken).toEqual(['breath:play']);
  });

  it('acts at once when the person is already known, and keeps only the last held tap', () => {
    const taken: string[] = [];
    const { result, rerender } = renderHook(({ known }) => useWhenKnown(known, (id: string) => void taken.push(id)), { initialProps: { known: false } });
    result.current('first');
    result.current('second');
    rerender({ known: true });
    result.current('third');
    expect(taken).toEqual(['second', 'third']);
  });

  it('takes the latest action in the same commit that makes the person known, before its passive effects', () => {
    const taken: string[] = [];
    // A tap handled right after the commit that made the person known, before React's passive effects
    // ran (they wait a task after a transition's commit): here a layout effect of that commit.
    function Card({ known, canListen, tapNow }: { known: boolean; canListen: boolean; tapNow: boolean }) {
      const select = useWhenKnown(known, (id: string) => void taken.push(`${id}:${canListen ? 'play' : 'paywall'}`));
      useLayoutEffect(() => {
        if (tapNow) select('tide');
      });
      return null;
    }
    const { rerender } = render(<Card known={false} canListen={false} tapNow={false} />);
    rerender(<Card known canListen tapNow />);
    expect(taken[0]).toBe('tide:play');
  });
});
