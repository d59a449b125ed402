/** Reads and applies the theme chosen on this device (src/shared/theme.ts). */
import { useCallback, useState } from 'react';
import { isTheme, THEME_COLORS, THEME_STORAGE_KEY, type Theme } from '#shared/theme.ts';
import { readStored, removeStored, writeStored } from '#web/lib/storage.ts';

export function readTheme(): Theme {
  const stored = readStored(THEME_STORAGE_KEY);
  return isTheme(stored) ? stored : 'system';
}

/**
 * Puts the class the stylesheet's dark variant reads on <html> (as the boot script did before the
 * first paint), and gives the browser's bar the chosen scheme's colour.
 */
export function applyTheme(theme: Theme): void {
  const root = document.documentElement;
  root.classList.toggle('light', theme === 'light');
  root.classList.toggle('dark', theme === 'dark');
  document.head.querySelectorAll('meta[name="theme-color"]').forEach((meta) => meta.remove());
  for (const scheme of theme === 'system' ? (['light', 'dark'] as const) : [theme]) {
    const meta = document.createElement('meta');
    meta.name = 'theme-color';
    meta.content = THEME_COLORS[scheme];
    if (theme === 'system') meta.media = `(prefers-color-scheme: ${scheme})`;
    document.head.append(meta);
  }
}

/** The theme and a way to change it: applied at once, and remembered when storage allows. */
export function useTheme(): [Theme, (theme: Theme) => boolean] {
  const [theme, setTheme] = useState<Theme>(readTheme);
  const choose = useCallback((next: Theme) => {
    applyTheme(next);
    setTheme(next);
    if (next !== 'system') return writeStored(THEME_STORAGE_KEY, next);
    removeStored(THEME_STORAGE_KEY);
    return true;
  }, []);
  return [theme, choose];
}
