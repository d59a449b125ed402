/**
 * Every toast's text at least 4.5:1 on its background, in both themes (issue 38: the light success
 * toast was 4.25:1). Reads the colours toaster.css gives sonner's rich colours, and checks that each
 * kind has both of its colours there, so none falls back to sonner's own.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const css = readFileSync(new URL('toaster.css', import.meta.url), 'utf8');

/** The custom properties of the rule for one sonner theme. */
function variables(theme: 'light' | 'dark'): Map<string, string> {
  const rule = new RegExp(String.raw`\[data-sonner-theme='${theme}'\]\s*\{([^}]*)\}`).exec(css);
  if (!rule) throw new Error(`no rule for the ${theme} theme in toaster.css`);
  return new Map([...rule[1].matchAll(/(--[\w-]+):\s*(#[0-9a-f]{6})\s*;/gi)].map((m) => [m[1], m[2]]));
}

/** WCAG 2 relative luminance of a #rrggbb colour. */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const v = parseInt(hex.slice(i, i + 2), 16) / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

describe('toast colours', () => {
  it('measures sonner’s own light success toast (#008a2e on #ecfdf3) below 4.5:1', () => {
    expect(contrast('#008a2e', '#ecfdf3')).toBeCloseTo(4.29, 1);
  });

  for (const theme of ['light', 'dark'] as const) {
    for (const kind of ['success', 'info', 'warning', 'error']) {
      it(`${theme} ${kind}: text at least 4.5:1 on its background`, () => {
        const vars = variables(theme);
        const text = vars.get(`--${kind}-text`);
        const background = vars.get(`--${kind}-bg`);
        expect(text, `--${kind}-text`).toBeDefined();
        expect(background, `--${kind}-bg`).toBeDefined();
        expect(contrast(text!, background!)).toBeGreaterThanOrEqual(4.5);
      });
    }
  }
});
