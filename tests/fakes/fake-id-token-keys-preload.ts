/**
 * Loaded with `--import` into an e2e server process (startServer's `preload`): that process's fetches
 * of Apple's and Google's published keys go to the test's local fake (FAKE_ID_TOKEN_KEYS_URL), so the
 * server verifies identity tokens signed by the test key with better-auth's code unchanged. The
 * server itself has no setting for this: production cannot be made to trust a test key.
 */
import { routeProviderKeysTo } from '#tests/fakes/fake-id-token-keys.ts';

const url = process.env.FAKE_ID_TOKEN_KEYS_URL;
if (!url?.startsWith('http://127.0.0.1:')) throw new Error('FAKE_ID_TOKEN_KEYS_URL must name the local fake of the providers’ keys');
routeProviderKeysTo(url);
