/**
 * A small HTTP client for the cluster journeys: one cookie jar per "browser", a chosen loopback
 * source address per client (STACK-NOTES: per-IP limits count 127.0.0.23 apart from 127.0.0.1, and
 * nginx passes that address on in X-Forwarded-For), and any base URL, so one session can talk to
 * the proxy and to each upstream directly. Built on node:http rather than fetch because fetch
 * cannot choose its source address.
 */
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { createCookieJar } from '#tests/setup/cookies.ts';

export type Reply = {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  text(): string;
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- light-my-request's json<T>() shape: the test names the body it expects and its assertions check it.
  json<T = Record<string, unknown>>(): T;
};

export type RequestOptions = {
  /** Another origin than the client's default (an upstream instead of the proxy). */
  base?: string;
  json?: unknown;
  body?: Buffer;
  headers?: Record<string, string>;
};

export type Client = {
  /** The loopback address this client's connections come from. */
  readonly from: string;
  request(method: string, path: string, options?: RequestOptions): Promise<Reply>;
  get(path: string, options?: RequestOptions): Promise<Reply>;
  post(path: string, json?: unknown, options?: RequestOptions): Promise<Reply>;
  /** The session as a browser holds it: every cookie set so far, whichever process set it. */
  cookieHeader(): string;
};

/**
 * `origin` is what a browser on the public site sends with state-changing requests (PUBLIC_URL);
 * `base` is where requests go unless a call names another.
 */
export function createClient({ base, origin, from = '127.0.0.1' }: { base: string; origin: string; from?: string }): Client {
  const jar = createCookieJar();

  function request(method: string, path: string, { base: target = base, json, body, headers = {} }: RequestOptions = {}): Promise<Reply> {
    const url = new URL(path, target);
    const payload = json !== undefined ? Buffer.from(JSON.stringify(json)) : body;
    const outgoing: Record<string, string> = {
      ...(method === 'GET' || method === 'HEAD' ? {} : { origin }),
      ...(json !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(payload ? { 'content-length': String(payload.length) } : {}),
      ...(jar.header() ? { cookie: jar.header() } : {}),
      ...headers,
    };
    return new Promise((resolve, reject) => {
      const req = httpRequest({ method, host: url.hostname, port: url.port, path: url.pathname + url.search, headers: outgoing, localAddress: from }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', reject);
        res.on('end', () => {
          jar.remember(res.headers['set-cookie']);
          const buffer = Buffer.concat(chunks);
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: buffer,
            text: () => buffer.toString('utf8'),
            // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- implements Reply.json<T>() (above).
            json: <T>() => JSON.parse(buffer.toString('utf8')) as T,
          });
        });
      });
      req.on('error', reject);
      req.end(payload);
    });
  }

  return {
    from,
    request,
    get: (path, options) => request('GET', path, options),
    post: (path, json, options) => request('POST', path, { ...options, json }),
    cookieHeader: jar.header,
  };
}

/** A multipart body as a browser's FormData would send it, with its boundary in the content type. */
export async function multipartBody(form: FormData): Promise<{ body: Buffer; contentType: string }> {
  const encoded = new Response(form);
  return { body: Buffer.from(await encoded.arrayBuffer()), contentType: encoded.headers.get('content-type') ?? '' };
}
