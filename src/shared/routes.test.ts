import { describe, expect, it } from 'vitest';
import { matchRoutes } from 'react-router';
import { isKnownPageRoute, PAGE_ROUTE_PATTERNS } from '#shared/routes.ts';
import { routes } from '#web/routes.tsx';

function samplePaths(): string[] {
  const children = routes[0]?.children ?? [];
  return children
    .map((r) => r.path)
    .filter((p): p is string => Boolean(p) && p !== '*')
    // A listing's parameter must name a category (unknown ones are 404s); other parameters are free.
    .map((p) => p.replace(/:(categorySlug|categoryName)/g, 'sleeping').replace(/:[A-Za-z]+/g, 'sample-value'));
}

describe('page routes', () => {
  it('the server knows every page the web app renders (so none answers 404)', () => {
    const paths = samplePaths();
    expect(paths.length).toBeGreaterThan(15);
    for (const path of paths) expect(isKnownPageRoute(path), path).toBe(true);
  });

  it('the web app has a page for every path the server answers 200 (none shows the 404 screen)', () => {
    for (const pattern of PAGE_ROUTE_PATTERNS) {
      const path = pattern.source.replace(/^\^|\$$/g, '').replace(/\[\^\/\]\+/g, 'sample-value').replace(/\\\//g, '/');
      const leaf = matchRoutes(routes, path)?.at(-1)?.route.path;
      expect(leaf, path).toBeDefined();
      expect(leaf, path).not.toBe('*');
    }
  });

  it('treats other paths as unknown', () => {
    for (const path of ['/nope', '/meditations/a/b', '/admin/secret', '/why-i-created-something-else', '/api', '/meditations/nonexistent-cat', '/category/Nonexistent%20Cat', '/meditations/%E0%A4%A']) {
      expect(isKnownPageRoute(path), path).toBe(false);
    }
    expect(isKnownPageRoute('/about/')).toBe(true);
    // Every category an editor can assign has a listing (the spec's fallback title for those without a table entry).
    for (const path of ['/meditations/all', '/meditations/recently-added', '/meditations/anxiety', '/meditations/Sleeping', '/category/Sleep%20%26%20Rest', '/category/sleeping']) {
      expect(isKnownPageRoute(path), path).toBe(true);
    }
  });
});
