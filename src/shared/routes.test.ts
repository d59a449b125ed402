import { describe, expect, it } from 'vitest';
import { isKnownPageRoute } from '#shared/routes.ts';
import { routes } from '#web/routes.tsx';

function samplePaths(): string[] {
  const children = routes[0]?.children ?? [];
  return children
    .map((r) => r.path)
    .filter((p): p is string => Boolean(p) && p !== '*')
    .map((p) => p.replace(/:[A-Za-z]+/g, 'sample-value'));
}

describe('page routes', () => {
  it('the server knows every page the web app renders (so none answers 404)', () => {
    const paths = samplePaths();
    expect(paths.length).toBeGreaterThan(15);
    for (const path of paths) expect(isKnownPageRoute(path), path).toBe(true);
  });

  it('treats other paths as unknown', () => {
    for (const path of ['/nope', '/meditations/a/b', '/admin/secret', '/why-i-created-something-else', '/api']) {
      expect(isKnownPageRoute(path), path).toBe(false);
    }
    expect(isKnownPageRoute('/about/')).toBe(true);
  });
});
