/**
 * Graceful shutdown (issue 13, item 6). On SIGTERM an orchestrator gives a process a grace period
 * (Kubernetes and ECS: 30 s) before SIGKILL. Within SHUTDOWN_GRACE_SECONDS (default 25, just under
 * it) the server:
 * 1. stops accepting: the listening socket closes (new connections are refused), idle keep-alive
 *    connections are closed, and a request that still arrives on an open connection is answered
 *    503 'server/unavailable' with `Connection: close` and Retry-After (the load balancer retries
 *    it on another process);
 * 2. lets in-flight requests and uploads finish, each answered with `Connection: close`;
 * 3. when the bound is reached, cuts whatever is left and resolves, so the caller can close the
 *    database and exit. A cut upload leaves only its temporary file, which the start-up sweep
 *    removes (as after a crash: tests/integration/crash-safety.test.ts).
 */
import type { FastifyInstance } from 'fastify';
import { AppError } from '#server/errors.ts';

/** Seconds a client refused during shutdown is asked to wait (a replacement process is starting). */
const CLOSING_RETRY_AFTER_SECONDS = 5;
/** How often keep-alive connections whose last request just finished are closed while draining. */
const IDLE_SWEEP_MS = 200;

/**
 * Answers requests that arrive while the server drains in the app's error shape (Fastify's own
 * 503 body is not). Pair with `return503OnClosing: false` in the Fastify options.
 */
export function registerShutdownRefusal(app: FastifyInstance): { isClosing: () => boolean } {
  let closing = false;
  app.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  app.addHook('onRequest', (_request, reply, done) => {
    if (!closing) {
      done();
      return;
    }
    reply.header('connection', 'close').header('retry-after', String(CLOSING_RETRY_AFTER_SECONDS));
    done(new AppError('server/unavailable'));
  });
  // In-flight requests: the connection ends with the answer instead of idling until keep-alive expires.
  app.addHook('onSend', async (_request, reply) => {
    if (closing && !reply.raw.headersSent) reply.header('connection', 'close');
  });
  return { isClosing: () => closing };
}

export type CloseOutcome = { drained: boolean; waitedMs: number };

/**
 * Closes the app (Fastify close: stop listening, drain, onClose hooks), cutting the connections
 * still open after `graceMs`. Resolves once the app is closed either way.
 */
export async function closeGracefully(app: FastifyInstance, { graceMs }: { graceMs: number }): Promise<CloseOutcome> {
  const started = Date.now();
  const server = app.server;
  // Node's server.close() closes idle connections once; the ones that finish later are closed here.
  const sweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
  sweep.unref();
  let timer: NodeJS.Timeout | undefined;
  const closed = app.close().then(() => true);
  const bound = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), graceMs);
    timer.unref();
  });
  try {
    const drained = await Promise.race([closed, bound]);
    if (!drained) {
      app.log.warn({ graceMs }, 'shutdown grace period over: closing the connections still open');
      server.closeAllConnections();
      await closed;
    }
    return { drained, waitedMs: Date.now() - started };
  } finally {
    clearInterval(sweep);
    clearTimeout(timer);
  }
}

/**
 * The last resort: exits with code 1 `ms` after being armed, whatever is still pending (a hung
 * onClose hook, a database that never answers its close). Unref'd: it never keeps the process alive.
 */
export function armHardExit(ms: number, exit: (code: number) => void = (code) => process.exit(code)): void {
  setTimeout(() => exit(1), ms).unref();
}

/** Extra time after the grace period for closing the database and releasing DATA_DIR. */
export const HARD_EXIT_MARGIN_MS = 5000;
