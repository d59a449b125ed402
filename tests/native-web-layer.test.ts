/**
 * The web layer as the apps get it (issue 35, item 6): edge to edge with the safe-area insets on the
 * header, the player bar and dialogs; a Content-Security-Policy in the apps' copy of index.html; and
 * no app build without the server it calls (scripts/native.mjs).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import config from '../capacitor.config.ts';
import { appCsp, appServer, withCspMeta } from '../scripts/native.mjs';

const css = readFileSync('src/web/styles.css', 'utf8');
const html = readFileSync('src/web/index.html', 'utf8');

describe('the apps’ web layer (issue 35, item 6)', () => {
  it('runs edge to edge and keeps the header, the player bar and dialogs clear of the bars', () => {
    expect(html).toMatch(/name="viewport" content="[^"]*viewport-fit=cover/);
    expect(config.ios?.contentInset).toBe('never');
    // Capacitor 8's Android variables first (older WebViews report env() as 0), then env().
    expect(css).toContain('--hm-safe-top: var(--safe-area-inset-top, env(safe-area-inset-top, 0px));');
    expect(css).toContain('--hm-safe-bottom: var(--safe-area-inset-bottom, env(safe-area-inset-bottom, 0px));');
    expect(css).toMatch(/header\.sticky\.top-0 \{\s*padding-top: var\(--hm-safe-top\);/);
    expect(css).toMatch(/\.fixed\.inset-x-0\.bottom-0 \{\s*padding-bottom: var\(--hm-safe-bottom\);/);
    expect(css).toMatch(/\[role="dialog"\]\.fixed[^{]*\{\s*max-height: calc\(100dvh - var\(--hm-safe-top\) - var\(--hm-safe-bottom\)/);
    // The elements those rules name are still shaped so.
    expect(readFileSync('src/web/features/layout/site-header.tsx', 'utf8')).toMatch(/<header className="sticky top-0 /);
    expect(readFileSync('src/web/features/player/player-bar.tsx', 'utf8')).toMatch(/className="fixed inset-x-0 bottom-0 /);
  });

  it('writes a CSP into the apps’ index.html: scripts by hash, the configured server for API, audio and images', () => {
    const page = '<html><head><meta charset="UTF-8" /><script>document.documentElement.className="dark"</script></head><body><script type="module" src="/assets/a.js"></script></body></html>';
    const csp = appCsp(page, 'https://harbourmind.example');
    // WebAssembly for the journal's Argon2id (decision 0061), in script-src only.
    expect(csp).toMatch(/^default-src 'self'; script-src 'self' 'wasm-unsafe-eval' 'sha256-[A-Za-z0-9+/=]{44}'; /);
    expect(csp.match(/wasm-unsafe-eval/g)).toHaveLength(1);
    expect(csp).toContain("connect-src 'self' https://harbourmind.example");
    expect(csp).toContain("media-src 'self' blob: https://harbourmind.example");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toContain("'unsafe-eval'");
    const out = withCspMeta(withCspMeta(page, 'old'), csp);
    expect(out.match(/Content-Security-Policy/g)).toHaveLength(1);
    expect(out.indexOf('Content-Security-Policy')).toBeLessThan(out.indexOf('<script'));
  });

  it('refuses an app build without VITE_SERVER_URL (npm test’s own sync excepted), or with a plain-http remote server', () => {
    expect(appServer({}).error).toMatch(/^VITE_SERVER_URL is not set/);
    expect(appServer({ VITE_SERVER_URL: 'http://harbourmind.example' }).error).toMatch(/must be https/);
    expect(appServer({ VITE_SERVER_URL: 'https://harbourmind.example/api' }).error).toMatch(/no path/);
    expect(appServer({ VITE_SERVER_URL: 'https://harbourmind.example' })).toEqual({ server: 'https://harbourmind.example' });
    expect(appServer({ VITE_SERVER_URL: 'http://10.0.2.2:3000' })).toEqual({ server: 'http://10.0.2.2:3000' });
    expect(appServer({ NODE_ENV: 'test' })).toEqual({ server: null });
  });
});
