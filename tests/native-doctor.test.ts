/**
 * The native-project doctor (tests/native-doctor.ts; issue 35, item 1) on the committed projects and
 * installed plugins: what Xcode, Gradle, App Store upload and Play review would refuse. Each blocker
 * found on the first read of the shells also has a test that puts that file back as it was and sees
 * the doctor name it, so a check that stops checking fails here.
 */
import { describe, expect, it } from 'vitest';
import config from '../capacitor.config.ts';
import {
  checkHealthConnectPolicy,
  checkMinSdk,
  checkNoFacebook,
  checkSceneViewController,
  checkStoreKitBridge,
  checkSwiftPackages,
  checkUsageDescriptions,
  filesAt,
  nativeDoctor,
  swiftRequirement,
} from './native-doctor.ts';

const root = process.cwd();
const here = filesAt(root);
/** The repository with one file's text changed by `edit` (today's file, before issue 35). */
const withEdit = (path: string, edit: (text: string) => string) => filesAt(root, { [path]: edit(here.read(`${root}/${path}`)) });

describe('the native doctor (issue 35, item 1)', () => {
  it('finds nothing Xcode, Gradle or the stores would refuse', () => {
    expect(nativeDoctor(root, config)).toEqual([]);
  });

  it('reads Swift package requirements as SwiftPM does', () => {
    const manifest = (req: string) => `.package(url: "https://github.com/ionic-team/capacitor-swift-pm.git", ${req})`;
    const accepts = (req: string, v: [number, number, number]) => swiftRequirement(manifest(req))?.accepts(v);
    expect(accepts('from: "8.0.0"', [8, 5, 2])).toBe(true);
    expect(accepts('from: "7.0.0"', [8, 5, 2])).toBe(false);
    expect(accepts('.upToNextMajor(from: "8.6.0")', [8, 5, 2])).toBe(false);
    expect(accepts('.upToNextMinor(from: "8.5.0")', [8, 5, 2])).toBe(true);
    expect(accepts('exact: "8.5.1"', [8, 5, 2])).toBe(false);
    expect(accepts('"8.0.0"..<"8.5.0"', [8, 5, 2])).toBe(false);
  });

  it('names a Swift package whose capacitor-swift-pm requirement excludes the pin (one cap sync does not rewrite)', () => {
    const path = 'node_modules/@capgo/capacitor-health/Package.swift';
    const fs = withEdit(path, (t) => t.replace(/capacitor-swift-pm\.git", from: "[^"]+"/, 'capacitor-swift-pm.git", exact: "8.4.0"'));
    expect(checkSwiftPackages(root, fs)).toEqual([expect.objectContaining({ problem: expect.stringContaining('CapgoCapacitorHealth requires capacitor-swift-pm exact: "8.4.0"') })]);
  });

  it('names a plugin whose minSdk is above the app’s (today’s minSdkVersion 24 against the health plugin’s 26)', () => {
    const fs = withEdit('android/variables.gradle', (t) => t.replace(/minSdkVersion = \d+/, 'minSdkVersion = 24'));
    expect(checkMinSdk(root, fs).map((f) => f.problem)).toEqual([expect.stringContaining('capgo-capacitor-health hard-codes minSdk 26')]);
  });

  it('names a scene that shows a view controller other than the one registering the StoreKit bridge', () => {
    const fs = withEdit('ios/App/App/SceneDelegate.swift', (t) => t.replace(/rootViewController = \w+\(\)/, 'rootViewController = CAPBridgeViewController()'));
    expect(checkSceneViewController(root, fs).map((f) => f.problem)).toEqual([expect.stringContaining('MainViewController (which registers HarbourStoreKitPlugin) never loads')]);
  });

  it('names a bridge method JavaScript calls that the Swift plugin does not declare or implement', () => {
    // The bridge before issue 35's item 2: Swift offered latestTransaction, JavaScript now asks for signedTransaction.
    const renamed = withEdit('ios/App/App/HarbourStoreKit.swift', (t) => t.replaceAll('signedTransaction(_ call', 'latestTransaction(_ call').replace('name: "signedTransaction"', 'name: "latestTransaction"'));
    expect(checkStoreKitBridge(root, renamed).map((f) => f.problem)).toEqual([expect.stringContaining('calls HarbourStoreKit.signedTransaction, which HarbourStoreKit.swift does not list')]);
    const unimplemented = withEdit('ios/App/App/HarbourStoreKit.swift', (t) => t.replace('@objc func finishTransaction(_ call', '@objc func finishIt(_ call'));
    expect(checkStoreKitBridge(root, unimplemented).map((f) => f.problem)).toEqual([expect.stringContaining('no @objc func finishTransaction')]);
  });

  it('names a missing HealthKit reading sentence (ITMS-90683)', () => {
    const fs = withEdit('ios/App/App/Info.plist', (t) => t.replace(/<key>NSHealthShareUsageDescription<\/key>\s*<string>[^<]*<\/string>/, ''));
    expect(checkUsageDescriptions(root, fs).map((f) => f.problem)).toEqual([expect.stringContaining('Info.plist needs NSHealthShareUsageDescription')]);
  });

  it('names the Facebook SDK and AD_ID when the social-login providers are not narrowed', () => {
    const { plugins: _plugins, ...withoutPlugins } = config;
    const fs = withEdit('android/app/src/main/AndroidManifest.xml', (t) => t.replace(/<uses-permission android:name="com\.google\.android\.gms\.permission\.AD_ID"[^>]*>/, ''));
    const problems = checkNoFacebook(root, withoutPlugins, fs).map((f) => f.problem);
    expect(problems).toEqual(expect.arrayContaining([expect.stringContaining('facebook: false'), expect.stringContaining('AD_ID')]));
    expect(config.plugins?.SocialLogin).toEqual({ providers: { google: true, apple: true, facebook: false, twitter: false } });
  });

  it('names a Health Connect privacy screen with no policy address', () => {
    const fs = withEdit('android/app/src/main/res/values/strings.xml', (t) => t.replace(/<string name="health_connect_privacy_policy_url">[^<]*<\/string>/, ''));
    expect(checkHealthConnectPolicy(root, fs).map((f) => f.problem)).toEqual([expect.stringContaining('no health_connect_privacy_policy_url')]);
  });
});
