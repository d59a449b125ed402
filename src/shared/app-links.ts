/**
 * The web paths the native apps open when a link to them is tapped (issue 19): the e-mailed
 * verification and password-reset links. The apps' AndroidManifest.xml and App.entitlements claim
 * the domain, the server's /.well-known files list these paths, and the app routes only these.
 */
export const APP_LINK_PATHS = ['/verify-email', '/reset-password'] as const;
