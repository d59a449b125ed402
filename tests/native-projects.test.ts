/**
 * The committed native projects agree with capacitor.config.ts and carry the app's own icons
 * (issue 19, item 1): one app id everywhere (the bundle id the server checks Apple tokens and
 * receipts against), the name, an opaque App Store icon (Apple refuses an alpha channel), and the
 * logo's teal behind Android's adaptive icon. `npm test` also runs `cap sync` (scripts/test.mjs).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import config from '../capacitor.config.ts';

const read = (path: string) => readFileSync(path, 'utf8');
/** A PNG's IHDR: width, height and colour type (2 = RGB, 6 = RGBA). */
function png(path: string) {
  const bytes = readFileSync(path);
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20), colourType: bytes[25] };
}

describe('the native projects (issue 19)', () => {
  it('use one app id and name everywhere', () => {
    expect(config.appId).toBe('app.harbourmind');
    expect(config.webDir).toBe('dist/web');
    expect(read('android/app/build.gradle')).toContain(`applicationId "${config.appId}"`);
    expect(read('android/app/src/main/res/values/strings.xml')).toContain(`<string name="app_name">${config.appName}</string>`);
    const bundleIds = [...read('ios/App/App.xcodeproj/project.pbxproj').matchAll(/PRODUCT_BUNDLE_IDENTIFIER = ([^;]+);/g)].map((m) => m[1]);
    expect(new Set(bundleIds)).toEqual(new Set([config.appId]));
    expect(read('ios/App/App/Info.plist')).toMatch(/<key>CFBundleDisplayName<\/key>\s*<string>Harbour Mind<\/string>/);
  });

  it('carry the logo as icons: an opaque 1024 App Store icon, Android launchers on the logo’s teal', () => {
    expect(png('ios/App/App/Assets.xcassets/AppIcon.appiconset/AppIcon-512@2x.png')).toEqual({ width: 1024, height: 1024, colourType: 2 });
    expect(png('android/app/src/main/res/mipmap-xxxhdpi/ic_launcher_foreground.png')).toMatchObject({ width: 432, height: 432, colourType: 6 });
    expect(read('android/app/src/main/res/values/ic_launcher_background.xml')).toContain('#0f766e');
  });

  it('keep audio playing with the screen off: iOS’s audio background mode, Android’s media playback service', () => {
    expect(read('ios/App/App/Info.plist')).toMatch(/<key>UIBackgroundModes<\/key>\s*<array>\s*<string>audio<\/string>/);
    const manifest = read('android/app/src/main/AndroidManifest.xml');
    expect(manifest).toContain('android.permission.FOREGROUND_SERVICE_MEDIA_PLAYBACK');
    // The service itself comes with the plugin, registered in the Android project by `cap sync`.
    expect(read('android/capacitor.settings.gradle')).toContain("project(':capgo-capacitor-media-session')");
    expect(JSON.parse(read('node_modules/@capgo/capacitor-media-session/package.json')).version).toMatch(/^8\./);
    expect(read('node_modules/@capgo/capacitor-media-session/android/src/main/AndroidManifest.xml')).toContain('android:foregroundServiceType="mediaPlayback"');
  });

  it('ask for what reminders and mindful minutes need, and nothing more (issue 20, items 4 and 5)', () => {
    const manifest = read('android/app/src/main/AndroidManifest.xml');
    // Health Connect: writing mindfulness sessions, and every other health permission the plugin declares removed.
    const declared = [...read('node_modules/@capgo/capacitor-health/android/src/main/AndroidManifest.xml').matchAll(/android\.permission\.health\.(\w+)/g)].map((m) => m[1]);
    expect(declared).toContain('WRITE_MINDFULNESS');
    expect(manifest).toMatch(/android\.permission\.health\.WRITE_MINDFULNESS" \/>/);
    for (const permission of declared.filter((p) => p !== 'WRITE_MINDFULNESS')) expect(manifest, permission).toContain(`android.permission.health.${permission}" tools:node="remove" />`);
    // Local notifications without exact alarms.
    expect(manifest).toContain('android.permission.POST_NOTIFICATIONS');
    expect(manifest).toContain('android.permission.SCHEDULE_EXACT_ALARM" tools:node="remove"');
    for (const plugin of ['capacitor-local-notifications', 'capgo-capacitor-health']) expect(read('android/capacitor.settings.gradle')).toContain(`project(':${plugin}')`);
    // HealthKit: the capability and the sentences. The app only writes, but the plugin links HealthKit's
    // read APIs, so the upload needs the reading sentence too (ITMS-90683; issue 35, tests/native-doctor.test.ts).
    expect(read('ios/App/App/App.entitlements')).toMatch(/<key>com\.apple\.developer\.healthkit<\/key>\s*<true\/>/);
    const plist = read('ios/App/App/Info.plist');
    expect(plist).toMatch(/<key>NSHealthUpdateUsageDescription<\/key>\s*<string>[^<]*never reads[^<]*<\/string>/);
    expect(plist).toMatch(/<key>NSHealthShareUsageDescription<\/key>\s*<string>[^<]*never reads[^<]*<\/string>/);
    for (const plugin of ['CapacitorLocalNotifications', 'CapgoCapacitorHealth']) expect(read('ios/App/CapApp-SPM/Package.swift')).toContain(`.product(name: "${plugin}"`);
  });

  it('lets the journal unlock with Face ID / fingerprint (issue 36, item 1; decision 0065)', () => {
    // iOS refuses Face ID to an app without the sentence; the app asks for USE_BIOMETRIC itself.
    expect(read('ios/App/App/Info.plist')).toMatch(/<key>NSFaceIDUsageDescription<\/key>\s*<string>[^<]*journal[^<]*passphrase[^<]*<\/string>/);
    expect(read('ios/App/CapApp-SPM/Package.swift')).toContain('.product(name: "CapgoCapacitorNativeBiometric"');
    expect(read('android/capacitor.settings.gradle')).toContain("project(':capgo-capacitor-native-biometric')");
    expect(read('android/app/src/main/AndroidManifest.xml')).toContain('<uses-permission android:name="android.permission.USE_BIOMETRIC" />');
  });
});
