// @vitest-environment jsdom
import { act, cleanup, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useRoutine } from '#web/features/routines/use-routine.ts';

const shown = vi.hoisted(() => [] as { title: unknown; description: unknown }[]);
vi.mock('#web/lib/toast.ts', () => ({
  toast: {
    success: (title: unknown, data?: { description?: unknown }) => shown.push({ title, description: data?.description }),
    error: (title: unknown, data?: { description?: unknown }) => shown.push({ title, description: data?.description }),
  },
}));

beforeEach(() => {
  shown.length = 0;
  localStorage.clear();
});
afterEach(cleanup);

describe('useRoutine: Save progress (issue 38: "complete" with 1 of 5 ticked)', () => {
  it('says how far the person got when not every activity is ticked', () => {
    const { result } = renderHook(() => useRoutine('morning'));
    act(() => result.current.toggleTemplate(0));
    act(() => result.current.save('templates'));
    expect(shown).toEqual([{ title: 'Progress saved, 1 of 5', description: 'Your morning routine progress has been saved.' }]);
  });

  it('evening, 2 of 5: no "Evening routine complete!"', () => {
    const { result } = renderHook(() => useRoutine('evening'));
    act(() => result.current.toggleTemplate(0));
    act(() => result.current.toggleTemplate(3));
    act(() => result.current.save('templates'));
    expect(shown.map((s) => s.title)).toEqual(['Progress saved, 2 of 5']);
  });

  it("uses the spec's completion words only when every step is done", () => {
    const { result } = renderHook(() => useRoutine('evening'));
    for (let i = 0; i < 5; i += 1) act(() => result.current.toggleTemplate(i));
    act(() => result.current.save('templates'));
    expect(shown).toEqual([{ title: 'Evening routine complete! Well done.', description: 'Your evening routine progress has been saved.' }]);
  });

  it('counts the custom routine from the custom tab (a blank, unticked row is not an activity)', () => {
    const { result } = renderHook(() => useRoutine('morning'));
    act(() => result.current.setCustom([{ ...result.current.custom[0], completed: true }, { id: 'c1', title: 'Walk', duration: '5 mins' }, { id: 'c2', title: '', duration: '' }]));
    act(() => result.current.save('custom'));
    expect(shown.map((s) => s.title)).toEqual(['Progress saved, 1 of 2']);
    act(() => result.current.setCustom([{ ...result.current.custom[0], completed: true }, { id: 'c1', title: 'Walk', duration: '5 mins', completed: true }, { id: 'c2', title: '', duration: '' }]));
    act(() => result.current.save('custom'));
    expect(shown.map((s) => s.title)).toEqual(['Progress saved, 1 of 2', 'Routine complete! Well done.']);
  });
});
