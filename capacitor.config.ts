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
  ios: { contentInset: 'automatic', limitsNavigationsToAppBoundDomains: false },
  android: { allowMixedContent: false },
};

export default config;
