/**
 * The colour theme a person chose on this device (Account › Settings): the device's own setting,
 * or always light, or always dark. Kept per device, like the device's own setting it overrides.
 */
import { STORAGE_KEYS } from '#shared/constants.ts';
import { REMEMBERED_VIEWER_SCRIPT } from '#shared/remembered-viewer.ts';
export const THEMES = [
  { id: 'system', label: 'Match this device' },
  { id: 'light', label: 'Light' },
  { id: 'dark', label: 'Dark' },
] as const;
export type Theme = (typeof THEMES)[number]['id'];

export const THEME_STORAGE_KEY = STORAGE_KEYS.theme;

/** The browser's bar colour for each scheme (index.html carries the same pair for the device's own setting). */
export const THEME_COLORS = { light: '#f5f5f4', dark: '#0c0a09' } as const;

export function isTheme(value: unknown): value is Theme {
  return THEMES.some((theme) => theme.id === value);
}

/**
 * Runs in <head> before the first paint, so a chosen theme never flashes the other one. Inline,
 * and allowed by its SHA-256 in the Content-Security-Policy (security-headers.ts hashes this very
 * text, and the build writes this very text into index.html). Blocked storage: the device decides.
 * The same script, being the page's one inline script, also marks who the device last saw signed
 * in (shared/remembered-viewer.ts), so a member's first paint is not the visitors' page.
 */
export const THEME_BOOT_SCRIPT = `try{var t=localStorage.getItem(${JSON.stringify(THEME_STORAGE_KEY)});if(t==="light"||t==="dark")document.documentElement.classList.add(t)}catch(e){}${REMEMBERED_VIEWER_SCRIPT}`;
