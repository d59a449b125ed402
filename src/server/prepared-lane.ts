/**
 * The prepared lane (issue 15, goal 1; docs/decisions/0026-prepared-lane.md): the few public reads
 * whose answer is already made in memory (the catalogue's listings and cards, liveness) are answered
 * by the HTTP server before Fastify's routing and hook chain, which costs more than the answer
 * itself (docs/performance.md: ~68 µs of CPU a request against ~20 µs for a bare server).
 *
 * The lane takes a request only when nothing could make Fastify's path answer differently:
 * - GET or HEAD, no body declared, and a request target that is exactly one of the answers it holds
 *   (the string as sent, so a target that is not in normal form, or any other query, never matches);
 * - the server is neither draining nor shedding load;
 * - the global brake counts the request in its own counters and lets it pass.
 * Anything else, including a brake that refuses or cannot count, goes to Fastify, which answers as
 * it always has (its hooks refuse, log and count). What the lane sends is what the route sends: the
 * same prepared bytes through the same negotiation (`preparedReply`), the security headers helmet
 * decided at start, the brake's headers and the request metric.
 *
 * Logging: one line a second sums up the lane's reads (by route and status, the busiest clients),
 * instead of a line per read: building a pino line cost more than the whole answer (~10 µs of
 * ~30 under load). These reads are public and the same for everyone; every other request (signed
 * in, writes, refusals, errors, anything the lane leaves to Fastify) still gets its own line.
 */
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import type { GlobalBrake } from '#server/global-rate-limit.ts';
import type { ObserveRequest } from '#server/features/metrics/metrics.routes.ts';
import { preparedReply, type PreparedReply, type PreparedResponse } from '#server/prepared-response.ts';
import { assetSecurityHeaders } from '#server/security-headers.ts';

/**
 * A prepared answer for one request target, with the route pattern logs and metrics name it by.
 * `uncounted`: the global brake does not count it (hashed build files, as global-rate-limit.ts says).
 */
/** `asset`: a hashed build file, sent without the document-only security headers (security-headers.ts). */
type LaneAnswer = { route: string; prepared: PreparedResponse; cacheControl: string; uncounted?: boolean; asset?: boolean };

/** Looks up the answer for a raw request target; undefined when it is not made yet (Fastify's route makes it). */
export type LaneLookup = (target: string) => LaneAnswer | undefined;

export type LaneDeps = {
  lookups: readonly LaneLookup[];
  /** True while draining or shedding: Fastify's hooks give the refusal. */
  refusing: () => boolean;
  /** The client's address as Fastify's `request.ip` computes it (TRUST_PROXY_HOPS). */
  clientIp: (request: IncomingMessage) => string;
  brake: GlobalBrake | undefined;
  securityHeaders: Readonly<OutgoingHttpHeaders>;
  observe: ObserveRequest;
  /** The app's logger, or undefined when request lines are not logged (tests). */
  log: FastifyBaseLogger | undefined;
};

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

export type PreparedLane = {
  /** Connects the lane to the app once its parts exist; until then every request goes to Fastify. */
  open(deps: LaneDeps): void;
  /** The server's request handler: the lane in front of Fastify's `next`. */
  handler(next: Handler): Handler;
  /** Off: every request goes to Fastify (tests compare the two paths). */
  enabled: boolean;
  /** Requests the lane answered itself, for tests and the bench. */
  readonly served: number;
  /** Writes the summary of the reads since the last one now (tests; closing). */
  flushLog(): void;
  /** Stops the summary timer, writing what is left. */
  close(): void;
};

/** Distinct clients a summary keeps apart; past it, new ones are counted together (a flood of addresses cannot grow it). */
const TALLY_CLIENTS_MAX = 10_000;
const TALLY_TOP = 5;
const TALLY_EVERY_MS = 1000;

/** The lane's reads since the last summary line. */
function createReadTally() {
  let reads = 0;
  let byRoute = new Map<string, number>();
  let byClient = new Map<string, number>();
  return {
    add(method: string, route: string, status: number, ip: string) {
      reads += 1;
      const key = `${method} ${route} ${status}`;
      byRoute.set(key, (byRoute.get(key) ?? 0) + 1);
      const client = byClient.has(ip) || byClient.size < TALLY_CLIENTS_MAX ? ip : 'others';
      byClient.set(client, (byClient.get(client) ?? 0) + 1);
    },
    /** The summary, and a fresh start; undefined when there were no reads. */
    take() {
      if (reads === 0) return undefined;
      const busiest = [...byClient].sort((a, b) => b[1] - a[1]).slice(0, TALLY_TOP).map(([ip, count]) => ({ ip, reads: count }));
      const summary = { reads, routes: Object.fromEntries(byRoute), clients: byClient.size, busiest };
      reads = 0;
      byRoute = new Map();
      byClient = new Map();
      return summary;
    },
  };
}

const NO_HEADERS: readonly string[] = [];

const declaresBody = (request: IncomingMessage) =>
  (request.headers['content-length'] !== undefined && request.headers['content-length'] !== '0') || request.headers['transfer-encoding'] !== undefined;

export function createPreparedLane(): PreparedLane {
  let deps: LaneDeps | undefined;
  let served = 0;
  const tally = createReadTally();
  const flushLog = () => {
    const summary = tally.take();
    if (summary) deps?.log?.info(summary, 'prepared reads');
  };
  const timer = setInterval(flushLog, TALLY_EVERY_MS);
  timer.unref();

  const find = (target: string): LaneAnswer | undefined => {
    for (const lookup of deps?.lookups ?? []) {
      const answer = lookup(target);
      if (answer) return answer;
    }
    return undefined;
  };

  // The headers of each distinct reply (answer, encoding, 304), made once as a flat list: building
  // and spreading a fresh object of ~17 headers per request cost a bare server's whole answer.
  const madeHeaders = new WeakMap<PreparedResponse, Map<string, string[]>>();
  const headersFor = (answer: LaneAnswer, reply: PreparedReply): string[] => {
    let byReply = madeHeaders.get(answer.prepared);
    if (!byReply) madeHeaders.set(answer.prepared, (byReply = new Map<string, string[]>()));
    const key = `${reply.status} ${reply.headers['content-encoding'] ?? ''} ${answer.cacheControl}`;
    let flat = byReply.get(key);
    if (!flat) {
      const security = deps?.securityHeaders ?? {};
      const all: OutgoingHttpHeaders = { ...(answer.asset ? assetSecurityHeaders(security) : security), ...reply.headers };
      if (reply.body) all['content-length'] = reply.body.length;
      flat = Object.entries(all).flatMap(([name, value]) => (Array.isArray(value) ? value.map((v) => [name, v]) : [[name, String(value)]])).flat();
      byReply.set(key, flat);
    }
    return flat;
  };

  const send = (request: IncomingMessage, response: ServerResponse, answer: LaneAnswer, ip: string, brakeHeaders: readonly string[], started: number) => {
    const reply = preparedReply({ ifNoneMatch: request.headers['if-none-match'], acceptEncoding: request.headers['accept-encoding'] }, answer.prepared, answer.cacheControl);
    const headers = headersFor(answer, reply);
    response.writeHead(reply.status, brakeHeaders.length > 0 ? headers.concat(brakeHeaders) : headers);
    // HEAD: the same headers, no body (Node sends none for HEAD either way).
    response.end(request.method === 'HEAD' ? undefined : reply.body);
    served += 1;
    const method = request.method ?? 'GET';
    deps?.observe(method, answer.route, reply.status, (performance.now() - started) / 1000);
    if (deps?.log) tally.add(method, answer.route, reply.status, ip);
  };

  const lane: PreparedLane = {
    enabled: true,
    open(next) {
      deps = next;
    },
    get served() {
      return served;
    },
    flushLog,
    close() {
      clearInterval(timer);
      flushLog();
    },
    handler(next) {
      return (request, response) => {
        // A cross-origin request (it names its Origin: the native apps) goes to Fastify, which adds the CORS consent.
        if (!deps || !lane.enabled || (request.method !== 'GET' && request.method !== 'HEAD') || declaresBody(request) || request.headers.origin !== undefined || deps.refusing()) {
          next(request, response);
          return;
        }
        const answer = find(request.url ?? '');
        if (!answer) {
          next(request, response);
          return;
        }
        const started = performance.now();
        const ip = deps.clientIp(request);
        const brake = deps.brake;
        if (!brake || answer.uncounted) {
          send(request, response, answer, ip, NO_HEADERS, started);
          return;
        }
        brake.count(ip, (verdict) => {
          if (verdict.pass) send(request, response, answer, ip, verdict.headers, started);
          else next(request, response);
        });
      };
    },
  };
  return lane;
}
