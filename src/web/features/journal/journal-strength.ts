/**
 * How hard a journal passphrase is to guess (issue 36, item 2; decision 0061): zxcvbn's score (0–4) from
 * `@zxcvbn-ts/core` with the common and English dictionaries (common passwords, names, words, keyboard
 * patterns). Everything is loaded on first use, in a chunk of its own: the dictionaries are ~400 KB gzip,
 * and only the set-up, recovery and change dialogs need them. Nothing is sent anywhere.
 */
import type { ZxcvbnFactory } from '@zxcvbn-ts/core';

/** Words anyone would try first against this app's journal. */
const APP_WORDS = ['harbour', 'harbourmind', 'mind', 'journal', 'meditation', 'passphrase'];

let factory: Promise<ZxcvbnFactory> | null = null;

function load(): Promise<ZxcvbnFactory> {
  factory ??= Promise.all([import('@zxcvbn-ts/core'), import('@zxcvbn-ts/language-common'), import('@zxcvbn-ts/language-en')]).then(
    ([core, common, en]) => new core.ZxcvbnFactory({ translations: en.translations, graphs: common.adjacencyGraphs, dictionary: { ...common.dictionary, ...en.dictionary } }),
  );
  // A failed load (offline before the chunk was cached) is tried again next time.
  factory.catch(() => {
    factory = null;
  });
  return factory;
}

/** zxcvbn's score for a passphrase: 0 (guessed at once) to 4 (very hard to guess). */
export async function passphraseScore(passphrase: string): Promise<number> {
  return (await load()).check(passphrase, APP_WORDS).score;
}
