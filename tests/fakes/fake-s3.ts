/**
 * A local stand-in for S3 speaking the real REST protocol (path-style), for the few calls the
 * app makes: PutObject, HeadObject, GetObject (with Range), DeleteObject, ListObjectsV2. Tests
 * drive it through the official @aws-sdk/client-s3, so the app's real client code is exercised.
 * It checks that every request is SigV4-signed, and keeps objects in memory.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

export type FakeS3 = { endpoint: string; objects: Map<string, { body: Buffer; modified: Date }>; requests: string[]; close(): Promise<void> };

const xml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function startFakeS3(bucket: string): Promise<FakeS3> {
  const objects = new Map<string, { body: Buffer; modified: Date }>();
  const requests: string[] = [];
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const [, bucketName, ...rest] = url.pathname.split('/');
    const key = decodeURIComponent(rest.join('/'));
    requests.push(`${req.method} ${url.pathname}${url.search}`);
    if (!/^AWS4-HMAC-SHA256 Credential=/.test(req.headers.authorization ?? '')) {
      res.writeHead(403, { 'content-type': 'application/xml' }).end('<Error><Code>AccessDenied</Code></Error>');
      return;
    }
    if (bucketName !== bucket) {
      res.writeHead(404, { 'content-type': 'application/xml' }).end('<Error><Code>NoSuchBucket</Code></Error>');
      return;
    }
    if (req.method === 'GET' && !key && url.searchParams.get('list-type') === '2') {
      const prefix = url.searchParams.get('prefix') ?? '';
      const items = [...objects.entries()].filter(([k]) => k.startsWith(prefix)).sort(([a], [b]) => a.localeCompare(b));
      const contents = items.map(([k, o]) => `<Contents><Key>${xml(k)}</Key><Size>${o.body.length}</Size><LastModified>${o.modified.toISOString()}</LastModified></Contents>`).join('');
      res.writeHead(200, { 'content-type': 'application/xml' }).end(`<?xml version="1.0" encoding="UTF-8"?><ListBucketResult><Name>${bucket}</Name><Prefix>${xml(prefix)}</Prefix><KeyCount>${items.length}</KeyCount><IsTruncated>false</IsTruncated>${contents}</ListBucketResult>`);
      return;
    }
    const object = objects.get(key);
    switch (req.method) {
      case 'PUT': {
        objects.set(key, { body: await readBody(req), modified: new Date() });
        res.writeHead(200, { etag: '"fake"' }).end();
        return;
      }
      case 'HEAD':
      case 'GET': {
        if (!object) {
          res.writeHead(404, { 'content-type': 'application/xml' }).end(req.method === 'GET' ? '<Error><Code>NoSuchKey</Code></Error>' : undefined);
          return;
        }
        const range = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range ?? '');
        const headers = { 'content-type': 'application/octet-stream', 'last-modified': object.modified.toUTCString(), etag: '"fake"', 'accept-ranges': 'bytes' };
        if (range && req.method === 'GET') {
          const start = Number(range[1]);
          const end = Math.min(Number(range[2]), object.body.length - 1);
          const slice = object.body.subarray(start, end + 1);
          res.writeHead(206, { ...headers, 'content-length': slice.length, 'content-range': `bytes ${start}-${end}/${object.body.length}` }).end(slice);
          return;
        }
        res.writeHead(200, { ...headers, 'content-length': object.body.length }).end(req.method === 'GET' ? object.body : undefined);
        return;
      }
      case 'DELETE': {
        objects.delete(key);
        res.writeHead(204).end();
        return;
      }
      default:
        res.writeHead(405).end();
    }
  };
  const server: Server = createServer((req, res) => void handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { endpoint: `http://127.0.0.1:${port}`, objects, requests, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
