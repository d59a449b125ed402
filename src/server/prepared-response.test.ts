/** Prepared answers: negotiation by Accept-Encoding, strong ETags, 304s, bytes that decompress to the JSON. */
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { negotiateEncoding, prepareJson, sendPrepared } from '#server/prepared-response.ts';

describe('negotiateEncoding', () => {
  it.each([
    [undefined, 'identity'],
    ['', 'identity'],
    ['gzip, deflate, br', 'br'],
    ['gzip', 'gzip'],
    ['br;q=0.5, gzip', 'gzip'],
    ['br;q=0, gzip;q=0', 'identity'],
    ['*', 'br'],
    ['*;q=0, identity', 'identity'],
    ['GZIP;Q=1', 'gzip'],
    ['deflate', 'identity'],
    ['br;q=nonsense, gzip', 'gzip'],
  ])('%j → %s', (header, expected) => {
    expect(negotiateEncoding(header)).toBe(expected);
  });
});

describe('sendPrepared', () => {
  const value = { meditations: Array.from({ length: 40 }, (_, i) => ({ id: i, title: `A calm title ${i}` })) };

  async function appWith() {
    const prepared = await prepareJson(value);
    const app = Fastify();
    app.get('/thing', (request, reply) => sendPrepared(request, reply, prepared, 'public, max-age=30'));
    return { app, prepared };
  }

  it('sends brotli, gzip or plain bytes of the same JSON, with Vary, a strong ETag and the cache policy', async () => {
    const { app, prepared } = await appWith();
    const br = await app.inject({ url: '/thing', headers: { 'accept-encoding': 'gzip, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString())).toEqual(value);
    const gz = await app.inject({ url: '/thing', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gz.rawPayload).toString())).toEqual(value);
    const plain = await app.inject({ url: '/thing' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.json()).toEqual(value);
    for (const res of [br, gz, plain]) {
      expect(res.statusCode).toBe(200);
      expect(res.headers.etag).toBe(prepared.etag);
      expect(res.headers.etag).toMatch(/^"[\w-]{27}"$/);
      expect(res.headers.vary).toBe('Origin, Accept-Encoding');
      expect(res.headers['cache-control']).toBe('public, max-age=30');
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    }
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
  });

  it('answers 304 with no body to a matching If-None-Match (listed, weak or *), and 200 to another tag', async () => {
    const { app, prepared } = await appWith();
    for (const tag of [prepared.etag, `"other", ${prepared.etag}`, `W/${prepared.etag}`, '*']) {
      const res = await app.inject({ url: '/thing', headers: { 'if-none-match': tag } });
      expect(res.statusCode).toBe(304);
      expect(res.rawPayload.length).toBe(0);
      expect(res.headers.etag).toBe(prepared.etag);
    }
    expect((await app.inject({ url: '/thing', headers: { 'if-none-match': '"stale"' } })).statusCode).toBe(200);
  });

  it('tags different content differently and the same content alike', async () => {
    const a = await prepareJson({ n: 1 });
    expect((await prepareJson({ n: 1 })).etag).toBe(a.etag);
    expect((await prepareJson({ n: 2 })).etag).not.toBe(a.etag);
  });
});
