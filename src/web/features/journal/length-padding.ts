/**
 * What a sealed text's length may tell: nothing finer than a step. Before sealing, 4 bytes of its
 * length, the text, then zeros up to `size`; after opening, the text again. Used by the journal's
 * records (journal-crypto.ts) and by a shared entry's sealed copy (journal-share-crypto.ts).
 */
export function padTo(bytes: Uint8Array, size: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(size);
  new DataView(out.buffer).setUint32(0, bytes.length);
  out.set(bytes, 4);
  return out;
}

/** The text `padTo` wrapped, or null when the length it names does not fit (a damaged copy). */
export function unpadded(bytes: Uint8Array): Uint8Array | null {
  const length = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(0);
  return length > bytes.length - 4 ? null : bytes.subarray(4, 4 + length);
}
