/**
 * Loaded with `--import` into an e2e server process (startServer's `preload`): that process's fetches
 * of Apple's and Google's published keys go to the test's local fake (FAKE_ID_TOKEN_KEYS_URL), and of
 * Apple's token endpoint to the fake of it when the test names one (FAKE_APPLE_ID_URL), so the
 * server verifies identity tokens signed by the test key with better-auth's code unchanged. The
 * server itself has no setting for this: production cannot be made to trust a test key.
 */
import { routeAppleIdTo } from '#tests/fakes/apple-id-server.ts';
import { routeProviderKeysTo } from '#tests/fakes/fake-id-token-keys.ts';

const url = process.env.FAKE_ID_TOKEN_KEYS_URL;
if (!url?.startsWith('http://127.0.0.1:')) throw new Error('FAKE_ID_TOKEN_KEYS_URL must name the local fake of the providers’ keys');
routeProviderKeysTo(url);
// And, when the test runs one, Apple's token endpoint (the web's and Android's redirect flow exchange their code there).
const appleId = process.env.FAKE_APPLE_ID_URL;
if (appleId !== undefined) {
  if (!appleId.startsWith('http://127.0.0.1:')) throw new Error('FAKE_APPLE_ID_URL must name the local fake of Apple’s token endpoint');
  routeAppleIdTo(appleId);
}
