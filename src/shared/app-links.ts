/**
 * The web paths the native apps open when a link to them is tapped (issue 19): the e-mailed
 * verification and password-reset links, and the return of Sign in with Apple on Android from the
 * system browser (decision 0071). The apps' AndroidManifest.xml and App.entitlements claim
 * the domain, the server's /.well-known files list these paths, and the app routes only these.
 */
/** The apps' id: the iOS bundle id and the Android package (capacitor.config.ts; the server's NATIVE_APP_ID default). */
export const NATIVE_APP_ID = 'app.harbourmind';
export const APPLE_RETURN_PATH = '/apple-sign-in';
export const APP_LINK_PATHS = ['/verify-email', '/reset-password', APPLE_RETURN_PATH] as const;
