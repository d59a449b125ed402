/**
 * Counts re-renders in the production build, through the hook React DOM reports every commit to
 * (the one React DevTools installs). A host element's props object is new exactly when the component
 * that returns it rendered again (a subtree React skips keeps its old one), so each commit compares
 * every watched element's props with those seen at the previous commit. Counted per name:
 * `renders(page).header`.
 */
import type { BrowserContext, Page } from 'playwright-core';

export type Watched = { tag: string; attribute?: [string, string] };

export async function countRenders(context: BrowserContext, watched: Record<string, Watched>): Promise<void> {
  await context.addInitScript((targets: Record<string, Watched>) => {
    type Fiber = { type: unknown; stateNode: unknown; memoizedProps: Record<string, unknown> | null; child: Fiber | null; sibling: Fiber | null };
    const seen = new WeakMap<object, unknown>();
    const renders: Record<string, number> = Object.fromEntries(Object.keys(targets).map((name) => [name, 0]));
    (window as unknown as { __renders: Record<string, number> }).__renders = renders;
    const visit = (fiber: Fiber | null) => {
      for (let node = fiber; node; node = node.sibling) {
        for (const [name, target] of Object.entries(targets)) {
          if (node.type !== target.tag) continue;
          const props = node.memoizedProps ?? {};
          if (target.attribute && props[target.attribute[0]] !== target.attribute[1]) continue;
          const element = node.stateNode as object | null;
          if (!element) continue;
          if (seen.has(element) && seen.get(element) !== node.memoizedProps) renders[name] = (renders[name] ?? 0) + 1;
          seen.set(element, node.memoizedProps);
        }
        visit(node.child);
      }
    };
    (window as unknown as { __REACT_DEVTOOLS_GLOBAL_HOOK__: unknown }).__REACT_DEVTOOLS_GLOBAL_HOOK__ = {
      supportsFiber: true,
      renderers: new Map(),
      inject: () => 1,
      checkDCE: () => {},
      onScheduleFiberRoot: () => {},
      onCommitFiberUnmount: () => {},
      onPostCommitFiberRoot: () => {},
      onCommitFiberRoot: (_id: number, root: { current: Fiber }) => visit(root.current),
    };
  }, watched);
}

export const renders = (page: Page) => page.evaluate(() => ({ ...(window as unknown as { __renders: Record<string, number> }).__renders }));
