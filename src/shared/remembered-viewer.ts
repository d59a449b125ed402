/**
 * Who this device last saw signed in, on <html> before the first paint (issue 38: a member's home
 * flashed the visitors' hero, and a subscriber's listing reordered under their finger, until
 * /api/me answered). The app keeps the last /api/me answer on the device (STORAGE_KEYS.viewerSnapshot,
 * written by use-viewer.ts); the head's boot script (THEME_BOOT_SCRIPT in shared/theme.ts, allowed by
 * its hash in the CSP) reads it and sets `data-viewer` on <html>: "subscriber", "member", or nothing.
 *
 * It only shapes what is painted before the server has answered: styles.css hides a prepared page's
 * visitors-only parts for a remembered person, and the app shows a remembered person's home and
 * listing order until /api/me says otherwise. The server decides everything else.
 */
import { STORAGE_KEYS } from '#shared/constants.ts';

export type RememberedViewer = 'subscriber' | 'member';

/** Inline in <head>, after the theme's part; blocked storage or an unreadable snapshot: nobody is remembered. */
export const REMEMBERED_VIEWER_SCRIPT = `try{var v=JSON.parse(localStorage.getItem(${JSON.stringify(STORAGE_KEYS.viewerSnapshot)})||"null");if(v&&v.user&&v.user.id)document.documentElement.dataset.viewer=v.subscribed?"subscriber":"member"}catch(e){}`;
