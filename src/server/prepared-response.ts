/**
 * A JSON answer made once and sent many times: serialised, compressed with brotli and gzip, and
 * tagged with a strong ETag over its bytes. Reads that change only when an editor changes something
 * (the catalogue) cost a lookup and a socket write, not a query, a serialisation and a compression.
 */
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

export type PreparedResponse = { contentType: string; etag: string; identity: Buffer; br: Buffer; gzip: Buffer };

export function prepareJson(value: unknown): Promise<PreparedResponse> {
  return prepareBytes(Buffer.from(JSON.stringify(value)), 'application/json; charset=utf-8');
}

export async function prepareBytes(identity: Buffer, contentType: string): Promise<PreparedResponse> {
  const [br, gz] = await Promise.all([
    // Made once per change, sent thousands of times: the best ratio is worth its milliseconds.
    brotli(identity, { params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: identity.length } }),
    gzipAsync(identity, { level: constants.Z_BEST_COMPRESSION }),
  ]);
  return { contentType, etag: `"${createHash('sha256').update(identity).digest('base64url').slice(0, 27)}"`, identity, br, gzip: gz };
}

type Encoding = 'br' | 'gzip' | 'identity';

/** Browsers send a handful of distinct headers: each is parsed once (bounded, so odd ones cannot grow it). */
const negotiated = new Map<string, Encoding>();
const NEGOTIATED_MAX = 64;

/** The best encoding the client accepts (RFC 9110 §12.5.3: q-values, `*`, q=0 refuses). */
export function negotiateEncoding(header: string | undefined): Encoding {
  if (!header) return 'identity';
  const known = negotiated.get(header);
  if (known) return known;
  const chosen = parseAcceptEncoding(header);
  if (negotiated.size < NEGOTIATED_MAX) negotiated.set(header, chosen);
  return chosen;
}

function parseAcceptEncoding(header: string): Encoding {
  const weights = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const weight = q ? Number(q.slice(2)) : 1;
    if (name) weights.set(name, Number.isFinite(weight) ? weight : 0);
  }
  const weightOf = (name: Encoding) => weights.get(name) ?? weights.get('*') ?? (name === 'identity' ? 1 : 0);
  // The highest weight wins; on a tie the smaller encoding. Nothing acceptable: identity anyway (no 406).
  const ranked = (['br', 'gzip', 'identity'] as const).filter((e) => weightOf(e) > 0).sort((a, b) => weightOf(b) - weightOf(a));
  return ranked[0] ?? 'identity';
}

/** True when If-None-Match names this entity (weak comparison, as RFC 9110 §13.1.2 asks for GET). */
function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

export function sendPrepared(request: FastifyRequest, reply: FastifyReply, prepared: PreparedResponse, cacheControl: string): FastifyReply {
  reply.header('cache-control', cacheControl).header('etag', prepared.etag).header('vary', 'Accept-Encoding');
  // Only a success is conditional: a 404 page stays a 404 whatever the client has cached.
  if (reply.statusCode === 200 && matches(request.headers['if-none-match'], prepared.etag)) return reply.status(304).send();
  const encoding = negotiateEncoding(request.headers['accept-encoding']);
  reply.header('content-type', prepared.contentType);
  if (encoding !== 'identity') reply.header('content-encoding', encoding);
  return reply.send(prepared[encoding]);
}
