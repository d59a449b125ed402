/** http_ece (the Web Push encryption reference, web-push's own) ships no types: the one call the fake push service makes. */
declare module 'http_ece' {
  import type { ECDH } from 'node:crypto';
  const ece: { decrypt(buffer: Buffer, params: { version: 'aes128gcm'; privateKey: ECDH; authSecret: string }): Buffer };
  export default ece;
}
