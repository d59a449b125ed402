/**
 * HTTP requests exactly as written: the request line carries `path` untouched (Node's fetch and
 * URL would remove dot segments first), with no headers but the ones given, from a chosen
 * loopback address (per-IP limits then count each caller apart).
 */
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ErrorBody } from '#server/errors.ts';
import type { TestApp } from '#tests/setup/test-app.ts';

/** `json()` reads the body as T: the app's error body unless the test says otherwise. */
// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- light-my-request's json<T>() shape: the test names the body it expects and its assertions check it.
export type RawResponse = { status: number; headers: IncomingHttpHeaders; text: string; json<T = ErrorBody>(): T };

export type RawRequest = { method?: string; path: string; headers?: Record<string, string>; body?: unknown; from?: string };

export function rawRequest(port: number, { method = 'POST', path, headers = {}, body, from = '127.0.0.1' }: RawRequest): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        localAddress: from,
        headers: { ...(payload ? { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) } : {}), ...headers },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- implements RawResponse.json<T>() (above).
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json: <T,>() => JSON.parse(text) as T }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** Starts the test app on a free loopback port and returns the port. */
export async function listen(t: TestApp): Promise<number> {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  return (t.app.server.address() as AddressInfo).port;
}
