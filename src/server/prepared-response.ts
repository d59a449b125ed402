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

/** The bytes as they are and compressed; a file too small or not worth compressing has no compressed copies. */
export type PreparedResponse = { contentType: string; etag: string; identity: Buffer; br?: Buffer; gzip?: Buffer };

/** A strong ETag over the bytes as they are (the same content in any encoding is one entity). */
export function etagOf(identity: Buffer): string {
  return `"${createHash('sha256').update(identity).digest('base64url').slice(0, 27)}"`;
}

export function prepareJson(value: unknown): Promise<PreparedResponse> {
  return prepareBytes(Buffer.from(JSON.stringify(value)), 'application/json; charset=utf-8');
}

export async function prepareBytes(identity: Buffer, contentType: string, { compress = true }: { compress?: boolean } = {}): Promise<PreparedResponse> {
  if (!compress) return { contentType, etag: etagOf(identity), identity };
  const [br, gz] = await Promise.all([
    // Made once per change, sent thousands of times: the best ratio is worth its milliseconds.
    brotli(identity, { params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: identity.length } }),
    gzipAsync(identity, { level: constants.Z_BEST_COMPRESSION }),
  ]);
  return { contentType, etag: etagOf(identity), identity, br, gzip: gz };
}

type Encoding = 'br' | 'gzip' | 'identity';

/** Browsers send a handful of distinct headers: each is parsed once (bounded, so odd ones cannot grow it). */
const negotiated = new Map<string, readonly Encoding[]>();
const NEGOTIATED_MAX = 64;

const IDENTITY_ONLY: readonly Encoding[] = ['identity'];

/** The encodings the client accepts, best first (RFC 9110 §12.5.3: q-values, `*`, q=0 refuses). */
function acceptedEncodings(header: string | undefined): readonly Encoding[] {
  if (!header) return IDENTITY_ONLY;
  const known = negotiated.get(header);
  if (known) return known;
  const ranked = parseAcceptEncoding(header);
  if (negotiated.size < NEGOTIATED_MAX) negotiated.set(header, ranked);
  return ranked;
}

/** The best encoding the client accepts. */
export function negotiateEncoding(header: string | undefined): Encoding {
  return acceptedEncodings(header)[0] ?? 'identity';
}

function parseAcceptEncoding(header: string): readonly Encoding[] {
  const weights = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const weight = q ? Number(q.slice(2)) : 1;
    if (name) weights.set(name, Number.isFinite(weight) ? weight : 0);
  }
  const weightOf = (name: Encoding) => weights.get(name) ?? weights.get('*') ?? (name === 'identity' ? 1 : 0);
  // The highest weight wins; on a tie the smaller encoding. Nothing acceptable: identity anyway (no 406).
  return (['br', 'gzip', 'identity'] as const).filter((e) => weightOf(e) > 0).sort((a, b) => weightOf(b) - weightOf(a));
}

/** True when If-None-Match names this entity (weak comparison, as RFC 9110 §13.1.2 asks for GET). */
function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

/**
 * What every prepared answer varies by. The encoding, and the Origin: the native apps' origins get
 * CORS consent (native-cors.ts), so the same URL answers them with Access-Control-Allow-Origin and
 * everyone else without. A shared cache told only `Accept-Encoding` would hand one to the other
 * (issue 33, row 6). Said on every reply, the prepared lane's (which never sees an Origin) included,
 * so every copy of a URL names the same Vary.
 */
const PREPARED_VARY = 'Origin, Accept-Encoding';

/** `existing` (a header value or list) with the fields of `add` that it does not name yet, case-insensitively. */
function mergeVary(existing: unknown, add: string): string {
  const fields: string[] = [];
  const seen = new Set<string>();
  const values = Array.isArray(existing) ? existing : existing === undefined ? [] : [existing];
  for (const field of [...values.flatMap((v) => String(v).split(',')), ...add.split(',')].map((f) => f.trim()).filter(Boolean)) {
    if (field === '*') return '*';
    if (seen.has(field.toLowerCase())) continue;
    seen.add(field.toLowerCase());
    fields.push(field);
  }
  return fields.join(', ');
}

/** What to send for a prepared answer: the status, the headers it adds, and the body (none for a 304). */
export type PreparedReply = { status: 200 | 304; headers: Record<string, string>; body?: Buffer };

/**
 * The reply to a request for `prepared`: 304 when the client's If-None-Match names it (only a
 * success is conditional), otherwise the client's best encoding of the copies this answer has.
 * Used by the routes (sendPrepared) and by the prepared lane (prepared-lane.ts), so both send alike.
 */
export function preparedReply(
  request: { ifNoneMatch: string | undefined; acceptEncoding: string | undefined },
  prepared: PreparedResponse,
  cacheControl: string,
  conditional = true,
): PreparedReply {
  const headers: Record<string, string> = { 'cache-control': cacheControl, etag: prepared.etag, vary: PREPARED_VARY };
  if (conditional && matches(request.ifNoneMatch, prepared.etag)) return { status: 304, headers };
  // The client's best of the copies this answer has; nothing acceptable: the bytes as they are (no 406).
  const encoding = acceptedEncodings(request.acceptEncoding).find((e) => e === 'identity' || prepared[e]) ?? 'identity';
  headers['content-type'] = prepared.contentType;
  if (encoding !== 'identity') headers['content-encoding'] = encoding;
  return { status: 200, headers, body: prepared[encoding] ?? prepared.identity };
}

export function sendPrepared(request: FastifyRequest, reply: FastifyReply, prepared: PreparedResponse, cacheControl: string): FastifyReply {
  // Only a success is conditional: a 404 page stays a 404 whatever the client has cached.
  const answer = preparedReply(
    { ifNoneMatch: request.headers['if-none-match'], acceptEncoding: request.headers['accept-encoding'] },
    prepared,
    cacheControl,
    reply.statusCode === 200,
  );
  // Added to what hooks said before (CORS names Origin): a prepared answer never takes a field away.
  reply.headers({ ...answer.headers, vary: mergeVary(reply.getHeader('vary'), PREPARED_VARY) });
  return answer.status === 304 ? reply.status(304).send() : reply.send(answer.body);
}
