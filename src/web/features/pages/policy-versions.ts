/**
 * The legal pages' versions (issue 33): a policy's date changes only when its words do, and each
 * change says what changed. `textSha256` is the hash of the policy's words as that version published
 * them (the page's text without its date and this history); policy-versions.test.tsx fails when a
 * page's words no longer match its newest version, so new words need a new dated version here.
 */
export type PolicyVersion = { date: string; textSha256: string; changes: readonly string[] };
export type Policy = 'privacy' | 'cookies' | 'terms';

/** Oldest first. */
export const POLICY_VERSIONS: Record<Policy, readonly PolicyVersion[]> = {
  privacy: [
    { date: '26 November 2026', textSha256: 'c8d49d279496420043208081d8f61e8eb8e4a47a8af12b59eb08bf035ca4b2be', changes: ['The policy as published with the current service.'] },
    {
      date: '27 November 2026',
      textSha256: '4ba2f5f972f6c9349582e55f1a80ec037a4d1b08f654fda84878d2301742f549',
      changes: [
        'How long we keep it: a deleted account is erased from the service at once and leaves our backups within 30 days; a restored backup has every account deleted after it erased again, from a list of internal numbers that says nothing about who you were.',
      ],
    },
  ],
  cookies: [
    { date: '26 November 2026', textSha256: 'bb4e12a4c8abd43fb94cf77ff26021b49539b19855313b93e602d6f01a4fe517', changes: ['The policy as published with the current service.'] },
  ],
  terms: [
    { date: '27 January 2025', textSha256: '82716dd52b4da975e08cb76a3f150a2166f42ba5f510819ed568ce260bcfbc7b', changes: ['The terms as first published.'] },
  ],
};

/** The newest version: its date is the page's 'Last updated'. */
export function currentVersion(policy: Policy): PolicyVersion {
  const versions = POLICY_VERSIONS[policy];
  const newest = versions.at(-1);
  if (!newest) throw new Error(`no version of the ${policy} policy`);
  return newest;
}
