/**
 * Deadlines for slow clients (security issue 12, item 10). Fastify's requestTimeout and
 * connectionTimeout default to 0, so a client that declares a body and never sends it holds a
 * connection (and its memory) for ever; a few hundred such sockets exhaust the server.
 *
 * Node's deadlines are per server, not per route, so:
 * - the server-wide request deadline (headers + body) is the long upload limit;
 * - headers must arrive within the ordinary limit (headersTimeout);
 * - every request's body must have arrived within the ordinary limit of the request starting, or
 *   the connection is answered 408 and closed, unless the handler lifts it with
 *   `request.allowLongBody()`: the upload route does, once the caller is known to be staff, so an
 *   anonymous client cannot borrow the upload deadline;
 * - a socket with no traffic at all is closed after IDLE_SOCKET_MS.
 */
import type { FastifyInstance, FastifyRequest, FastifyServerOptions } from 'fastify';
import type { ServerOptions } from 'node:http';
import { Socket } from 'node:net';
import type { Config } from '#server/config.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** Lifts the ordinary body deadline: the body may take UPLOAD_TIMEOUT_SECONDS. Call after authorisation. */
    allowLongBody(): void;
  }
}

type Limits = Pick<Config, 'requestTimeoutSeconds' | 'uploadTimeoutSeconds'>;

/**
 * Longer than Fastify's keep-alive timeout (72 s, itself longer than load balancers' usual 60 s
 * idle timeout, so the balancer never reuses a connection the server is closing). Slow bodies and
 * headers are cut by the deadlines above long before this.
 */
const IDLE_SOCKET_MS = 120_000;

const limitsMs = ({ requestTimeoutSeconds, uploadTimeoutSeconds }: Limits) => ({
  ordinary: requestTimeoutSeconds * 1000,
  upload: Math.max(uploadTimeoutSeconds, requestTimeoutSeconds) * 1000,
});

/** Options for `Fastify({...})`: the server-wide deadlines. */
export function serverTimeoutOptions(limits: Limits): Pick<FastifyServerOptions, 'requestTimeout' | 'connectionTimeout'> & { http: ServerOptions } {
  const { ordinary, upload } = limitsMs(limits);
  return {
    requestTimeout: upload,
    connectionTimeout: Math.max(ordinary, IDLE_SOCKET_MS),
    http: {
      requestTimeout: upload,
      headersTimeout: ordinary,
      // Node enforces the two deadlines above on this interval (default 30 s, which would double a 30 s limit).
      connectionsCheckingInterval: Math.min(5000, Math.max(250, Math.floor(ordinary / 4))),
    },
  };
}

const liftDeadline = new WeakMap<FastifyRequest, () => void>();

/** The ordinary body deadline, on every request that declares a body. Register before any other hook. */
export function registerBodyDeadline(app: FastifyInstance, limits: Limits): void {
  const { ordinary } = limitsMs(limits);
  app.decorateRequest('allowLongBody', function (this: FastifyRequest) {
    liftDeadline.get(this)?.();
  });
  app.addHook('onRequest', (request, reply, done) => {
    const raw = request.raw;
    const declaresBody = (raw.headers['content-length'] !== undefined && raw.headers['content-length'] !== '0') || raw.headers['transfer-encoding'] !== undefined;
    const socket = raw.socket;
    // Only a connection can be held open. app.inject's stand-in socket (light-my-request) is none: it
    // never closes, and a body nobody reads never ends, so the deadline would fire on it later.
    if (!declaresBody || raw.complete || !(socket instanceof Socket)) { done(); return; }
    const timer = setTimeout(() => {
      if (raw.complete) return;
      request.log.info({ route: request.routeOptions.url }, 'request body not received in time: closing the connection');
      // As Node does for its own request timeout: a bare 408, then the connection is gone.
      if (!reply.raw.headersSent && socket.writable) socket.end('HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      socket.destroySoon();
    }, ordinary);
    timer.unref();
    // Only the body's end or the connection's end stop the clock. Not the response: after an early
    // answer (401, 404, CSRF refusal) Node keeps reading and discarding the rest of the body.
    const clear = () => {
      clearTimeout(timer);
      raw.off('end', clear);
      socket.off('close', clear);
    };
    raw.once('end', clear);
    socket.once('close', clear);
    liftDeadline.set(request, clear);
    done();
  });
}
