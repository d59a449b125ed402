/**
 * Sign in with Apple against local fakes, for a test file: Apple's published keys and its token and
 * revoke endpoints (tests/fakes), this process's fetches of them routed there for the file, and the
 * Sign in with Apple key (.p8) the server signs client secrets with. `env(servicesId)` is what the
 * app needs for the web's redirect flow and the key, as an operator sets it.
 */
import { afterAll, beforeAll } from 'vitest';
import { appleClientSecret, loadAppleSigningKey } from '#server/features/auth/apple-tokens.ts';
import { createAppleKeyFile, routeAppleIdTo, startFakeAppleId, TEST_KEY_ID, TEST_TEAM_ID, type FakeAppleId } from '#tests/fakes/apple-id-server.ts';
import { routeProviderKeysTo, startFakeIdTokenKeys, type FakeIdTokenKeys } from '#tests/fakes/fake-id-token-keys.ts';

export type FakeApple = {
  keys: FakeIdTokenKeys;
  apple: FakeAppleId;
  keyFile: ReturnType<typeof createAppleKeyFile>;
  env(servicesId: string): Record<string, string>;
};

/** Starts the fakes before the file's tests and stops them after; read the fields inside tests and hooks. */
export function useFakeApple(): FakeApple {
  const fake = {} as FakeApple;
  const undo: (() => void)[] = [];
  beforeAll(async () => {
    fake.keyFile = createAppleKeyFile();
    fake.keys = await startFakeIdTokenKeys();
    fake.apple = await startFakeAppleId({ publicKey: fake.keyFile.publicKey, signIdToken: (claims) => fake.keys.sign(claims) });
    undo.push(routeProviderKeysTo(fake.keys.url), routeAppleIdTo(fake.apple.url));
  });
  afterAll(async () => {
    for (const u of undo.reverse()) u();
    await fake.apple.close();
    await fake.keys.close();
  });
  fake.env = (servicesId) => {
    const secretKey = loadAppleSigningKey({ keyId: TEST_KEY_ID, teamId: TEST_TEAM_ID, privateKeyFile: fake.keyFile.path });
    return {
      APPLE_CLIENT_ID: servicesId,
      // The web's client secret, made with the same key, as an operator would make it.
      APPLE_CLIENT_SECRET: appleClientSecret(secretKey, servicesId),
      APPLE_TEAM_ID: TEST_TEAM_ID,
      APPLE_KEY_ID: TEST_KEY_ID,
      APPLE_PRIVATE_KEY_FILE: fake.keyFile.path,
    };
  };
  return fake;
}
