/**
 * The native-project doctor (issue 35, item 1): what Xcode, Gradle and the stores' upload checks would
 * refuse, read from the files they would read, since neither build runs on these machines. Each check
 * returns the problems it finds, in words a person can act on; an empty list is a pass.
 *
 * It reads the installed plugins' own Package.swift, android/build.gradle and AndroidManifest.xml
 * (node_modules), and the app's Info.plist, SceneDelegate.swift, variables.gradle, strings.xml,
 * AndroidManifest.xml and capacitor.config.ts. `npx tsx tests/native-doctor.ts` prints the report.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { CapacitorConfig } from '@capacitor/cli';

export type Finding = { check: string; problem: string };

/** Where the doctor reads (the repository, or the repository with some files replaced, in tests). */
export type Files = { read: (path: string) => string; exists: (path: string) => boolean; list: (dir: string) => { name: string; dir: boolean }[] };

/** The files under `root`, with `overrides` (path relative to root → text) read in their place. */
export function filesAt(root: string, overrides: Record<string, string> = {}): Files {
  const key = (path: string) => relative(root, path);
  return {
    read: (path) => overrides[key(path)] ?? readFileSync(path, 'utf8'),
    exists: (path) => key(path) in overrides || existsSync(path),
    list: (dir) => (existsSync(dir) ? readdirSync(dir, { withFileTypes: true }).map((e) => ({ name: e.name, dir: e.isDirectory() })) : []),
  };
}
type Version = [number, number, number];

const parseVersion = (text: string): Version => {
  const [major = 0, minor = 0, patch = 0] = text.split('.').map(Number);
  return [major, minor, patch];
};
const compare = (a: Version, b: Version) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];

/**
 * The versions a Swift package's requirement of capacitor-swift-pm accepts, as SwiftPM reads it:
 * `from: "X"` and `.upToNextMajor(from: "X")` mean X up to the next major; `.upToNextMinor`,
 * `exact:` and `"A"..<"B"` as written. Undefined when the requirement is not one of these.
 */
export function swiftRequirement(manifest: string): { text: string; accepts: (v: Version) => boolean } | undefined {
  const line = manifest.match(/\.package\([^)]*capacitor-swift-pm(?:\.git)?"\s*,\s*([^\n]*)\)/)?.[1];
  if (!line) return undefined;
  const text = line.trim().replace(/\),?$/, '');
  const from = line.match(/(?:upToNextMajor\()?from:\s*"([^"]+)"/);
  if (from && !/upToNextMinor/.test(line)) {
    const low = parseVersion(from[1]);
    return { text, accepts: (v) => compare(v, low) >= 0 && v[0] === low[0] };
  }
  const minor = line.match(/upToNextMinor\(from:\s*"([^"]+)"/);
  if (minor) {
    const low = parseVersion(minor[1]);
    return { text, accepts: (v) => compare(v, low) >= 0 && v[0] === low[0] && v[1] === low[1] };
  }
  const exact = line.match(/exact:\s*"([^"]+)"/);
  if (exact) return { text, accepts: (v) => compare(v, parseVersion(exact[1])) === 0 };
  const range = line.match(/"([^"]+)"\s*\.\.<\s*"([^"]+)"/);
  if (range) return { text, accepts: (v) => compare(v, parseVersion(range[1])) >= 0 && compare(v, parseVersion(range[2])) < 0 };
  return undefined;
}

/** The Android library projects `cap sync` includes: name → folder (android/capacitor.settings.gradle). */
function androidPlugins(root: string, fs: Files) {
  const settings = fs.read(join(root, 'android/capacitor.settings.gradle'));
  return [...settings.matchAll(/project\(':([^']+)'\)\.projectDir = new File\('\.\.\/([^']+)'\)/g)]
    .filter((m) => m[1] !== 'capacitor-android')
    .map((m) => ({ name: m[1], dir: join(root, m[2]) }));
}

/** The Swift packages the app links: name → folder (ios/App/CapApp-SPM/Package.swift). */
function swiftPlugins(root: string, fs: Files) {
  const app = fs.read(join(root, 'ios/App/CapApp-SPM/Package.swift'));
  return [...app.matchAll(/\.package\(name: "([^"]+)", path: "\.\.\/\.\.\/\.\.\/([^"]+)"\)/g)].map((m) => ({ name: m[1], dir: join(root, m[2]) }));
}

/** Every Swift package accepts the capacitor-swift-pm version the app pins, and the app's iOS version. */
export function checkSwiftPackages(root: string, fs: Files = filesAt(root)): Finding[] {
  const check = 'Swift packages';
  const app = fs.read(join(root, 'ios/App/CapApp-SPM/Package.swift'));
  const pin = app.match(/capacitor-swift-pm\.git", exact: "([^"]+)"/)?.[1];
  if (!pin) return [{ check, problem: 'ios/App/CapApp-SPM/Package.swift pins no exact capacitor-swift-pm version' }];
  const appIos = Number(app.match(/\.iOS\(\.v(\d+)\)/)?.[1] ?? 0);
  const findings: Finding[] = [];
  for (const plugin of swiftPlugins(root, fs)) {
    const file = join(plugin.dir, 'Package.swift');
    if (!fs.exists(file)) {
      findings.push({ check, problem: `${plugin.name}: no Package.swift at ${file} (npm install?)` });
      continue;
    }
    const manifest = fs.read(file);
    const requirement = swiftRequirement(manifest);
    // `cap sync` rewrites a plain `from: "X"` of another major to the platform's major (Capacitor CLI,
    // ios/update.js) and warns "built for Capacitor X"; every other form reaches SwiftPM as written.
    const plainFrom = requirement?.text.match(/^from:\s*"([^"]+)"/)?.[1];
    const rewritten = plainFrom !== undefined && parseVersion(plainFrom)[0] !== parseVersion(pin)[0];
    if (requirement && !rewritten && !requirement.accepts(parseVersion(pin))) {
      findings.push({ check, problem: `${plugin.name} requires capacitor-swift-pm ${requirement.text}, which excludes the app's pin ${pin}: SwiftPM cannot resolve the package graph` });
    }
    const ios = Number(manifest.match(/\.iOS\(\.v(\d+)\)/)?.[1] ?? 0);
    if (ios > appIos) findings.push({ check, problem: `${plugin.name} needs iOS ${ios}, the app targets iOS ${appIos}` });
  }
  return findings;
}

/** No plugin needs a higher minSdk than the app's (the manifest merge refuses it). */
export function checkMinSdk(root: string, fs: Files = filesAt(root)): Finding[] {
  const check = 'Android minSdk';
  const appMin = Number(fs.read(join(root, 'android/variables.gradle')).match(/minSdkVersion\s*=\s*(\d+)/)?.[1]);
  const findings: Finding[] = [];
  for (const plugin of androidPlugins(root, fs)) {
    const gradle = fs.read(join(plugin.dir, 'build.gradle'));
    // A literal number (a plugin that takes rootProject.ext.minSdkVersion follows the app).
    const fixed = gradle.match(/^\s*minSdk(?:Version)?\s*=?\s*(\d+)\s*$/m)?.[1];
    if (fixed && Number(fixed) > appMin) {
      findings.push({ check, problem: `${plugin.name} hard-codes minSdk ${fixed}, the app's android/variables.gradle says minSdkVersion = ${appMin}: the manifest merge fails` });
    }
  }
  return findings;
}

/** The view controller the scene shows is the one that registers the app's own plugins. */
export function checkSceneViewController(root: string, fs: Files = filesAt(root)): Finding[] {
  const check = 'iOS scene';
  const dir = join(root, 'ios/App/App');
  const scene = fs.read(join(dir, 'SceneDelegate.swift'));
  const shown = scene.match(/rootViewController\s*=\s*(\w+)\(/)?.[1];
  const sources = fs.list(dir).filter((f) => f.name.endsWith('.swift')).map((f) => fs.read(join(dir, f.name)));
  const registering = sources.flatMap((s) => [...s.matchAll(/class (\w+)\s*:\s*CAPBridgeViewController\s*\{[^]*?registerPluginInstance\((\w+)\(/g)].map((m) => ({ vc: m[1], plugin: m[2] })));
  if (!registering.length) return [];
  return registering
    .filter((r) => r.vc !== shown)
    .map((r) => ({ check, problem: `SceneDelegate shows ${shown ?? 'no view controller it names'}, so ${r.vc} (which registers ${r.plugin}) never loads and ${r.plugin} is missing at run time` }));
}

/** What an iOS source links → the Info.plist keys Apple's upload (ITMS-90683) or the first call needs. */
const USAGE_KEYS: { symbol: RegExp; keys: string[]; why: string }[] = [
  { symbol: /HKHealthStore[^]*requestAuthorization\(toShare:[^)]*read:/, keys: ['NSHealthShareUsageDescription', 'NSHealthUpdateUsageDescription'], why: "HealthKit's read and write authorization" },
  { symbol: /AVCaptureDevice/, keys: ['NSCameraUsageDescription'], why: 'the camera' },
  { symbol: /PHPhotoLibrary/, keys: ['NSPhotoLibraryUsageDescription'], why: 'the photo library' },
  { symbol: /CLLocationManager/, keys: ['NSLocationWhenInUseUsageDescription'], why: 'location' },
  { symbol: /CNContactStore/, keys: ['NSContactsUsageDescription'], why: 'contacts' },
  { symbol: /requestRecordPermission/, keys: ['NSMicrophoneUsageDescription'], why: 'the microphone' },
  { symbol: /CMMotionActivityManager|CMPedometer/, keys: ['NSMotionUsageDescription'], why: 'motion' },
  { symbol: /EKEventStore/, keys: ['NSCalendarsUsageDescription'], why: 'calendars' },
];

function swiftSources(dir: string, fs: Files): string[] {
  return fs.list(dir).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.dir) return swiftSources(path, fs);
    return /\.(swift|m)$/.test(entry.name) ? [fs.read(path)] : [];
  });
}

/** Every usage description the linked frameworks need is in Info.plist, with words in it. */
export function checkUsageDescriptions(root: string, fs: Files = filesAt(root)): Finding[] {
  const check = 'iOS usage descriptions';
  const plist = fs.read(join(root, 'ios/App/App/Info.plist'));
  const findings: Finding[] = [];
  for (const plugin of swiftPlugins(root, fs)) {
    const code = swiftSources(join(plugin.dir, 'ios'), fs).join('\n');
    for (const usage of USAGE_KEYS.filter((u) => u.symbol.test(code))) {
      for (const key of usage.keys) {
        if (!new RegExp(`<key>${key}</key>\\s*<string>[^<]{20,}</string>`).test(plist)) {
          findings.push({ check, problem: `${plugin.name} links ${usage.why}: Info.plist needs ${key} (App Store upload refuses the build without it, ITMS-90683)` });
        }
      }
    }
  }
  return findings;
}

/** No Facebook SDK and no advertising id: the social-login plugin told which providers ship. */
export function checkNoFacebook(root: string, config: CapacitorConfig, fs: Files = filesAt(root)): Finding[] {
  const check = 'no Facebook, no AD_ID';
  const findings: Finding[] = [];
  const usesSocialLogin = swiftPlugins(root, fs).some((p) => p.name === 'CapgoCapacitorSocialLogin') || androidPlugins(root, fs).some((p) => p.name === 'capgo-capacitor-social-login');
  if (usesSocialLogin) {
    const providers = (config.plugins?.SocialLogin as { providers?: Record<string, boolean> } | undefined)?.providers;
    // The plugin's sync hook bundles every provider not named false.
    if (providers?.facebook !== false) findings.push({ check, problem: 'capacitor.config.ts plugins.SocialLogin.providers does not set facebook: false, so @capgo/capacitor-social-login bundles the Facebook SDK in both apps' });
    if (providers?.twitter !== false) findings.push({ check, problem: 'capacitor.config.ts plugins.SocialLogin.providers does not set twitter: false (a provider the apps do not use)' });
    // What the last `cap sync` left in the plugin (its hook edits these files): stale until the next sync.
    const plugin = join(root, 'node_modules/@capgo/capacitor-social-login');
    if (/^\s*\.product\(name: "Facebook(Core|Login)"/m.test(fs.read(join(plugin, 'Package.swift')))) {
      findings.push({ check, problem: "@capgo/capacitor-social-login's Package.swift still links FacebookCore/FacebookLogin (run npm run native:sync)" });
    }
    const gradleProperties = join(plugin, 'android/gradle.properties');
    if (!fs.exists(gradleProperties) || !/^socialLogin\.facebook\.include=false$/m.test(fs.read(gradleProperties))) {
      findings.push({ check, problem: "@capgo/capacitor-social-login's android/gradle.properties does not say socialLogin.facebook.include=false, so Gradle adds com.facebook.android:facebook-login (run npm run native:sync)" });
    }
  }
  const manifest = fs.read(join(root, 'android/app/src/main/AndroidManifest.xml'));
  if (!/com\.google\.android\.gms\.permission\.AD_ID"\s+tools:node="remove"/.test(manifest)) {
    findings.push({ check, problem: 'android/app/src/main/AndroidManifest.xml does not remove com.google.android.gms.permission.AD_ID, which a library can merge in (Play then asks for the advertising-id declaration)' });
  }
  return findings;
}

/** Health Connect's privacy screen: the plugin's rationale activity and alias, and the address they load. */
export function checkHealthConnectPolicy(root: string, fs: Files = filesAt(root)): Finding[] {
  const check = 'Health Connect privacy policy';
  const health = androidPlugins(root, fs).find((p) => p.name === 'capgo-capacitor-health');
  if (!health) return [];
  const findings: Finding[] = [];
  const pluginManifest = fs.read(join(health.dir, 'src/main/AndroidManifest.xml'));
  if (!/androidx\.health\.ACTION_SHOW_PERMISSIONS_RATIONALE/.test(pluginManifest)) findings.push({ check, problem: 'no activity handles androidx.health.ACTION_SHOW_PERMISSIONS_RATIONALE (Android 13 and earlier)' });
  if (!/android\.intent\.action\.VIEW_PERMISSION_USAGE[^]*android\.intent\.category\.HEALTH_PERMISSIONS/.test(pluginManifest)) findings.push({ check, problem: 'no activity-alias handles VIEW_PERMISSION_USAGE / HEALTH_PERMISSIONS (Android 14 and later)' });
  const appManifest = fs.read(join(root, 'android/app/src/main/AndroidManifest.xml'));
  if (/(PermissionsRationaleActivity|ViewPermissionUsageActivity)"[^>]*tools:node="remove"/.test(appManifest)) findings.push({ check, problem: "the app's manifest removes the plugin's privacy-policy activity" });
  const strings = fs.read(join(root, 'android/app/src/main/res/values/strings.xml'));
  if (!/<string name="health_connect_privacy_policy_url">https:\/\/[^<]+\/privacy<\/string>/.test(strings)) {
    findings.push({ check, problem: "android/app/src/main/res/values/strings.xml has no health_connect_privacy_policy_url (https://…/privacy): Health Connect's privacy screen loads a file that does not exist, and Play's health review needs the policy" });
  }
  return findings;
}

/**
 * The app's own bridge (ios/App/App/HarbourStoreKit.swift) against its JavaScript side
 * (src/web/platform/native-store-plugins.ts): every method JavaScript calls must be declared in the
 * plugin's `pluginMethods` and implemented as an `@objc func`, or the call rejects with
 * "not implemented" at run time, after the buyer has been charged. The tests fake the bridge in
 * JavaScript, so only a read of both files can see a rename on one side.
 */
export function checkStoreKitBridge(root: string, fs: Files = filesAt(root)): Finding[] {
  const check = 'iOS StoreKit bridge';
  const swift = fs.read(join(root, 'ios/App/App/HarbourStoreKit.swift'));
  const js = fs.read(join(root, 'src/web/platform/native-store-plugins.ts'));
  // What the bridge's wrapper hands out: the names given to pluginMethods (plugin-methods.ts), and any method called on the plugin itself.
  const wrapped = [...js.matchAll(/pluginMethods\(plugin,\s*\[([^\]]*)\]/g)].flatMap((m) => [...m[1].matchAll(/'(\w+)'/g)].map((name) => name[1]));
  const called = new Set([...wrapped, ...[...js.matchAll(/\bplugin\.(\w+)\(/g)].map((m) => m[1])]);
  const declared = new Set([...swift.matchAll(/CAPPluginMethod\(name:\s*"(\w+)"/g)].map((m) => m[1]));
  const implemented = new Set([...swift.matchAll(/@objc func (\w+)\(_ call: CAPPluginCall\)/g)].map((m) => m[1]));
  // A wrapper this check cannot read would leave it nothing to compare: say so rather than pass.
  if (called.size === 0) return [{ check, problem: 'native-store-plugins.ts calls no HarbourStoreKit method this check can read (pluginMethods(plugin, [...]) or plugin.name(...))' }];
  const findings: Finding[] = [];
  for (const name of called) {
    if (!declared.has(name)) findings.push({ check, problem: `JavaScript calls HarbourStoreKit.${name}, which HarbourStoreKit.swift does not list in pluginMethods` });
    else if (!implemented.has(name)) findings.push({ check, problem: `HarbourStoreKit.swift lists ${name} but has no @objc func ${name}(_ call: CAPPluginCall)` });
  }
  return findings;
}

/** Every check, in the order a first build meets them. */
export function nativeDoctor(root: string, config: CapacitorConfig, fs: Files = filesAt(root)): Finding[] {
  return [
    ...checkSwiftPackages(root, fs),
    ...checkMinSdk(root, fs),
    ...checkSceneViewController(root, fs),
    ...checkStoreKitBridge(root, fs),
    ...checkUsageDescriptions(root, fs),
    ...checkNoFacebook(root, config, fs),
    ...checkHealthConnectPolicy(root, fs),
  ];
}

if (process.argv[1]?.endsWith('native-doctor.ts')) {
  const { default: config } = await import('../capacitor.config.ts');
  const findings = nativeDoctor(process.cwd(), config);
  for (const f of findings) console.log(`✖ ${f.check}: ${f.problem}`);
  console.log(findings.length ? `${findings.length} problem(s)` : 'native doctor: no problems');
}
