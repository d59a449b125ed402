/**
 * What the HTTP fuzz test (fuzz.test.ts) sends and how: hostile JSON bodies as fast-check
 * arbitraries, a raw HTTP client that speaks from a random loopback address (per-IP limits then
 * count each request apart, as they would for an attacker's botnet), and a fingerprint of tables.
 */
import { request } from 'node:http';
import { sql, type SQL } from 'drizzle-orm';
import fc from 'fast-check';
import type { Database } from '#server/db/client.ts';

/** A JSON token written as is: numbers JSON.stringify cannot produce (1e400, 30 digits, -0). */
export class RawJson {
  constructor(readonly text: string) {}
}

/** JSON text of a value that may hold RawJson tokens; non-finite numbers become null as in JSON.stringify. */
export function toJson(value: unknown): string {
  if (value instanceof RawJson) return value.text;
  if (Array.isArray(value)) return `[${value.map(toJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    return `{${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)}:${toJson(v)}`)
      .join(',')}}`;
  }
  if (typeof value === 'number' && !Number.isFinite(value)) return 'null';
  // What JSON.stringify would answer undefined for (its type does not say so).
  if (value === undefined || typeof value === 'function' || typeof value === 'symbol') return 'null';
  return JSON.stringify(value);
}

/** One request body: its bytes as text and the content type it is sent with. */
export type FuzzBody = { text: string; contentType: string | undefined };

/** C0 (NUL included), DEL and C1. */
export const controlChar = fc.oneof(fc.integer({ min: 0, max: 0x1f }), fc.integer({ min: 0x7f, max: 0x9f })).map((c) => String.fromCharCode(c));
const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c));
const oddUnicode = fc.constantFrom('\u202e', '\u2028', '\u2029', '\ufeff', '\u200b', '\u0301', '𝕳𝖆𝖗𝖇𝖔𝖚𝖗', 'Zoë', '李小龍', '😀👩‍👩‍👧', 'İ', 'ß', '\uffff', '\u{10ffff}');
const attackText = fc.constantFrom(
  "' OR '1'='1",
  "'; DROP TABLE \"user\"; --",
  "1' AND SLEEP(5)--",
  '%00',
  '\\u0000',
  '../../../../etc/passwd',
  '<script>alert(1)</script>',
  '${7*7}{{7*7}}',
  '\\',
  'null',
  'NaN',
  'Infinity',
  '-1',
  '__proto__',
  'constructor',
  'cs_sandbox_000000000000000000000000',
  '00000000-0000-0000-0000-000000000000',
  'javascript:alert(1)',
  'http://evil.example/',
  '//evil.example',
  'monthly ',
  'Monthly',
  'hm_plus_monthly\u0000',
);

/** Strings of every kind: any code point, lone surrogates, odd unicode, attack text, control characters. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: fc.oneof(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }), loneSurrogate, oddUnicode, controlChar), maxLength: 30 }) },
  { weight: 2, arbitrary: attackText },
  { weight: 3, arbitrary: fc.tuple(fc.string({ maxLength: 20 }), controlChar, fc.string({ maxLength: 20 })).map(([a, c, b]) => a + c + b) },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom(256, 5_001, 70_000), fc.constantFrom('a', 'é', '\u0000', '😀', '<', ' ')).map(([n, c]) => c.repeat(n)) },
);

const hostileNumber: fc.Arbitrary<unknown> = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(
    Number.MAX_SAFE_INTEGER + 2,
    Number.MAX_VALUE,
    Number.MIN_VALUE,
    -(2 ** 63),
    2 ** 64,
    new RawJson('1e400'),
    new RawJson('-1e400'),
    new RawJson('123456789012345678901234567890123456789'),
    new RawJson('-0'),
    new RawJson('1E-400'),
  ),
);

const scalar: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 5, arbitrary: hostileString },
  { weight: 2, arbitrary: hostileNumber },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
);

const key = fc.oneof({ weight: 4, arbitrary: fc.string({ maxLength: 12 }) }, { weight: 1, arbitrary: hostileString });

/** Any JSON value with hostile leaves, nested a few levels. */
export const hostileValue: fc.Arbitrary<unknown> = fc.letrec<{ value: unknown; array: unknown[]; object: Record<string, unknown> }>((tie) => ({
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, scalar, tie('array'), tie('object')),
  array: fc.array(tie('value'), { maxLength: 4 }),
  object: fc.dictionary(key, tie('value'), { maxKeys: 4 }),
})).value;

/** A valid body with one to all of its fields replaced by hostile values or removed, and maybe an extra key. */
export function mutate(template: Record<string, unknown>): fc.Arbitrary<unknown> {
  const keys = Object.keys(template);
  const replacement = (k: string) => {
    const original = template[k];
    const options: fc.Arbitrary<unknown>[] = [hostileValue, fc.constant(undefined)];
    // The same text with a control character slipped in: the near-valid input that reached PostgreSQL.
    if (typeof original === 'string') {
      options.push(fc.tuple(fc.nat(original.length), controlChar).map(([at, c]) => original.slice(0, at) + c + original.slice(at)));
    }
    return fc.oneof(...options);
  };
  return fc
    .record({
      changed: fc.subarray(keys, { minLength: keys.length ? 1 : 0 }),
      values: fc.array(fc.oneof(...(keys.length ? keys : ['x']).map(replacement)), { minLength: keys.length, maxLength: keys.length }),
      extra: fc.option(fc.tuple(key, hostileValue), { freq: 3 }),
    })
    .map(({ changed, values, extra }) => {
      // A changed key drawn as undefined is left out; the others keep the template's key order.
      const dropped = new Set(changed.filter((k) => values[keys.indexOf(k)] === undefined));
      const body: Record<string, unknown> = Object.fromEntries(Object.entries(template).filter(([k]) => !dropped.has(k)));
      changed.forEach((k) => {
        const v = values[keys.indexOf(k)];
        if (v !== undefined) body[k] = v;
      });
      if (extra) body[extra[0]] = extra[1];
      return body;
    });
}

const depth = (n: number, open: string, inner: string, close: string) => open.repeat(n) + inner + close.repeat(n);

/** Bodies that are not the JSON they claim to be, or are JSON built to hurt a parser. */
const rawBodies: fc.Arbitrary<FuzzBody> = fc.oneof(
  fc.constantFrom(
    '',
    '{',
    '{"a":1,}',
    "{'a':1}",
    '\ufeff{}',
    'null',
    'NaN',
    '{"__proto__":{"isAdmin":true}}',
    '{"constructor":{"prototype":{"isAdmin":true}}}',
    '{"email":"a@b.co","email":"b@c.co"}',
    depth(20_000, '[', '', ']'),
    depth(100_000, '[', '"x"', ']'),
    depth(20_000, '{"a":', '1', '}'),
    '"\\ud800"',
    '{"\\u0000":"\\u0000"}',
    '[' + '1,'.repeat(60_000) + '1]',
    '{"a":"' + 'x'.repeat(300_000) + '"}',
  ).map((text) => ({ text, contentType: 'application/json' })),
  fc.record({
    text: fc.oneof(fc.constant('{}'), fc.string({ maxLength: 40 })),
    contentType: fc.constantFrom(undefined, 'text/plain', 'application/json; charset=utf-16', 'application/json; charset=latin1', 'application/xml', 'multipart/form-data; boundary=x'),
  }),
);

/** Bodies for a route whose valid body is `template`: mutations of it, any JSON at all, and raw text. */
export function hostileBodies(template: Record<string, unknown>): fc.Arbitrary<FuzzBody> {
  const json = (value: unknown): FuzzBody => ({ text: toJson(value), contentType: 'application/json' });
  return fc.oneof(
    { weight: 6, arbitrary: mutate(template).map(json) },
    { weight: 3, arbitrary: hostileValue.map(json) },
    { weight: 1, arbitrary: rawBodies },
  );
}

/** What the server will see once it has parsed the body as JSON, or a marker that it cannot. */
export const UNPARSEABLE = Symbol('unparseable');
export function parsedBody(body: FuzzBody): unknown {
  // Fastify's JSON parser takes any application/json, whatever charset it names.
  if (!body.contentType?.startsWith('application/json')) return UNPARSEABLE;
  // Fastify's parser drops a leading byte-order mark.
  const text = body.text.replace(/^\ufeff/, '');
  if (text === '') return UNPARSEABLE;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return UNPARSEABLE;
  }
}

/** Path segments: any text, percent-encoded as UTF-8 bytes, and a few odd but well-formed encodings. */
export const hostileSegment: fc.Arbitrary<string> = fc.oneof(
  { weight: 5, arbitrary: fc.oneof(hostileString, fc.uuid()).map(percentEncode).filter((s) => s.length > 0 && s.length <= MAX_SEGMENT) },
  { weight: 1, arbitrary: fc.constantFrom('%00', '%2e%2e', '..%2f..%2fadmin', '%2f', '%5c', '%ef%bf%bd') },
);

/** Fastify's default maxParamLength: a longer parameter is refused before routing (see BROKEN_PATHS). */
const MAX_SEGMENT = 100;

/**
 * Segments Fastify refuses before routing (broken percent-encoding or UTF-8, a parameter over
 * its length limit): they answer from Fastify's framework-error path, not the route.
 */
export const BROKEN_SEGMENTS = ['%', '%zz', '%%', '%4', '%u0000', '%c0%af', '%ed%a0%80', '%ff', '%fe%ff', 'a'.repeat(MAX_SEGMENT + 1)] as const;

export function percentEncode(text: string): string {
  return [...Buffer.from(text, 'utf8')].map((b) => (/[A-Za-z0-9_.~-]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).padStart(2, '0')}`)).join('');
}

export type HttpAnswer = { status: number; contentType: string; text: string };

/** A loopback address other than 127.0.0.1, new for every request. */
export function randomLoopback(): string {
  const byte = (min: number, max: number) => min + Math.floor(Math.random() * (max - min + 1));
  return `127.${byte(1, 254)}.${byte(0, 255)}.${byte(1, 254)}`;
}

/** One request over a fresh connection; the raw path is sent exactly as given. */
export function send(port: number, method: string, path: string, headers: Record<string, string>, body?: FuzzBody): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const all: Record<string, string | number> = { ...headers };
    if (body) {
      if (body.contentType !== undefined) all['content-type'] = body.contentType;
      all['content-length'] = Buffer.byteLength(body.text);
    }
    const req = request({ host: '127.0.0.1', port, method, path, headers: all, localAddress: randomLoopback(), agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, contentType: res.headers['content-type'] ?? '', text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body?.text);
  });
}

/** Rows of a raw query (PGlite and node-postgres both answer `{ rows }`). */
export async function queryRows<T>(db: Database, query: SQL): Promise<T[]> {
  const result: unknown = await db.execute(query);
  return (result as { rows: T[] }).rows;
}

/** The tables a database holds, less those every refused request may write (security log, limiter counters). */
export async function businessTables(db: Database, ignore: readonly string[]): Promise<string[]> {
  const rows = await queryRows<{ table_name: string }>(db, sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`);
  return rows.map((r) => r.table_name).filter((t) => !ignore.includes(t) && !t.startsWith('__drizzle')).sort();
}

/** A fingerprint of every row of the tables: equal before and after means nothing changed. */
export async function fingerprint(db: Database, tables: readonly string[]): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const table of tables) {
    const rows = await queryRows<{ n: number | string; h: string | null }>(
      db,
      sql.raw(`select count(*) as n, md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as h from "${table}" t`),
    );
    const row = rows.at(0);
    if (!row) throw new Error(`no fingerprint for ${table}`);
    out[table] = `${row.n}:${row.h}`;
  }
  return out;
}
