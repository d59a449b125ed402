/**
 * Who is looking at the page, as far as the UI needs to know. Accounts and subscriptions are
 * separate issues; until they land every visitor is anonymous and no one can listen, which is
 * exactly what the server enforces too. The server stays the authority either way.
 */
export type Viewer = { signedIn: boolean; canListen: boolean };

const ANONYMOUS: Viewer = { signedIn: false, canListen: false };

export function useViewer(): Viewer {
  return ANONYMOUS;
}
