/**
 * A test stand-in for Apple's signing chain: a root CA, an intermediate and a leaf made with
 * openssl carrying Apple's marker extensions (1.2.840.113635.100.6.2.1 on the intermediate,
 * 1.2.840.113635.100.6.11.1 on the leaf), and ES256 JWS signed like the App Store signs them.
 * The real SignedDataVerifier is given this root instead of Apple's.
 */
import { execFileSync } from 'node:child_process';
import { createPrivateKey, randomUUID, sign } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export type AppleTestChain = { rootDer: Buffer; rootPath: string; signJws(payload: object): string; cleanup(): void };

export function createAppleTestChain(): AppleTestChain {
  const dir = mkdtempSync(join(tmpdir(), 'hm-apple-'));
  const run = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  writeFileSync(
    join(dir, 'ext.cnf'),
    [
      '[intermediate]',
      'basicConstraints=critical,CA:true,pathlen:0',
      'keyUsage=critical,keyCertSign,cRLSign',
      '1.2.840.113635.100.6.2.1=ASN1:NULL',
      '[leaf]',
      'basicConstraints=critical,CA:false',
      'keyUsage=critical,digitalSignature',
      '1.2.840.113635.100.6.11.1=ASN1:NULL',
    ].join('\n'),
  );
  for (const name of ['root', 'intermediate', 'leaf']) run('ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', `${name}.key`);
  run('req', '-x509', '-new', '-key', 'root.key', '-sha256', '-days', '3650', '-subj', '/CN=Harbour Mind Test Root CA', '-addext', 'basicConstraints=critical,CA:true', '-addext', 'keyUsage=critical,keyCertSign,cRLSign', '-out', 'root.pem');
  run('req', '-new', '-key', 'intermediate.key', '-subj', '/CN=Harbour Mind Test WWDR', '-out', 'intermediate.csr');
  run('x509', '-req', '-in', 'intermediate.csr', '-CA', 'root.pem', '-CAkey', 'root.key', '-CAcreateserial', '-days', '3650', '-sha256', '-extfile', 'ext.cnf', '-extensions', 'intermediate', '-out', 'intermediate.pem');
  run('req', '-new', '-key', 'leaf.key', '-subj', '/CN=Harbour Mind Test StoreKit Signing', '-out', 'leaf.csr');
  run('x509', '-req', '-in', 'leaf.csr', '-CA', 'intermediate.pem', '-CAkey', 'intermediate.key', '-CAcreateserial', '-days', '3650', '-sha256', '-extfile', 'ext.cnf', '-extensions', 'leaf', '-out', 'leaf.pem');
  const der = (name: string) => execFileSync('openssl', ['x509', '-in', `${name}.pem`, '-outform', 'DER'], { cwd: dir });
  const x5c = ['leaf', 'intermediate', 'root'].map((n) => der(n).toString('base64'));
  const leafKey = createPrivateKey(readFileSync(join(dir, 'leaf.key')));
  const rootDer = der('root');
  writeFileSync(join(dir, 'root.cer'), rootDer);

  const b64url = (value: Buffer | string) => Buffer.from(value).toString('base64url');
  return {
    rootDer,
    rootPath: join(dir, 'root.cer'),
    signJws(payload) {
      const header = b64url(JSON.stringify({ alg: 'ES256', x5c }));
      const body = b64url(JSON.stringify(payload));
      const signature = sign('sha256', Buffer.from(`${header}.${body}`), { key: leafKey, dsaEncoding: 'ieee-p1363' });
      return `${header}.${body}.${b64url(signature)}`;
    },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * An App Store Server Notification v2 as Apple sends it: the outer payload and the transaction
 * (and renewal info, when given) each signed by `chain`.
 */
export function signNotification(
  chain: Pick<AppleTestChain, 'signJws'>,
  { type, subtype, bundleId, environment = 'Sandbox', transaction, renewal }: { type: string; subtype?: string; bundleId: string; environment?: string; transaction: object; renewal?: object },
): string {
  return chain.signJws({
    notificationType: type,
    subtype,
    notificationUUID: randomUUID(),
    version: '2.0',
    signedDate: Date.now(),
    data: {
      bundleId,
      environment,
      signedTransactionInfo: chain.signJws(transaction),
      signedRenewalInfo: renewal ? chain.signJws({ signedDate: Date.now(), environment, ...renewal }) : undefined,
    },
  });
}
