/**
 * The native shells (issue 19; decision 0033): the same React app as the web, built to dist/web and
 * copied into ios/ and android/ by `npm run native:sync`. The app id is the bundle id the server
 * checks Apple identity tokens and App Store receipts against (APPLE_IAP_BUNDLE_ID).
 */
import type { CapacitorConfig } from '@capacitor/cli';

const config: CapacitorConfig = {
  appId: 'app.harbourmind',
  appName: 'Harbour Mind',
  webDir: 'dist/web',
  // https:// on Android as on iOS's capacitor://, so secure-context APIs (WebCrypto, IndexedDB keys) behave as on the web.
  server: { androidScheme: 'https' },
  // 'never': the page runs edge to edge and clears the status bar and home indicator itself with the
  // safe-area insets (src/web/styles.css; issue 35, item 6), rather than WebKit insetting the scroll view.
  ios: { contentInset: 'never', limitsNavigationsToAppBoundDomains: false },
  android: { allowMixedContent: false },
  plugins: {
    // @capgo/capacitor-social-login bundles every provider not named false (its sync hook edits its own
    // Package.swift and gradle.properties): no Facebook SDK, and so no AD_ID, in either app (issue 35).
    // Google signs in on Android; Apple stays on for the plugin's Apple provider (issue 35, item 4).
    SocialLogin: { providers: { google: true, apple: true, facebook: false, twitter: false } },
  },
};

export default config;
