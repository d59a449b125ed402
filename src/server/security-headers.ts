/**
 * Security headers as real HTTP headers from the first response (spec asked for a meta tag;
 * ARCHITECTURE.md: headers are enforced before any script runs).
 *
 * Helmet decides them; they are the same for every response (no per-request nonce), so helmet runs
 * once at start and each request gets the resulting set. (@fastify/helmet rebuilt helmet's
 * middleware, CSP parsing included, on every request: a tenth of a catalogue read's CPU.)
 */
import { IncomingMessage, type OutgoingHttpHeaders, type ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { createHash } from 'node:crypto';
import helmet, { type HelmetOptions } from 'helmet';
import { THEME_BOOT_SCRIPT } from '#shared/theme.ts';

/** The one inline script index.html carries (the theme, before the first paint), allowed by its hash alone. */
const THEME_BOOT_SCRIPT_HASH = `'sha256-${createHash('sha256').update(THEME_BOOT_SCRIPT).digest('base64')}'`;

/** The headers helmet sets for `options`, read once from a stand-in response. */
function helmetHeaders(options: HelmetOptions): OutgoingHttpHeaders {
  const headers: OutgoingHttpHeaders = {};
  const response = {
    setHeader: (name: string, value: string | number | string[]) => {
      headers[name.toLowerCase()] = value;
    },
    removeHeader: (name: string) => {
      // `headers` is ours and keyed by name: the stand-in only forgets what helmet took back.
      Reflect.deleteProperty(headers, name.toLowerCase());
    },
  } as unknown as ServerResponse;
  helmet(options)(new IncomingMessage(new Socket()), response, () => {});
  return headers;
}

/** Returns the headers, which the prepared lane sends too (prepared-lane.ts). */
export function registerSecurityHeaders(app: FastifyInstance, { https }: { https: boolean }): Readonly<OutgoingHttpHeaders> {
  const headers = helmetHeaders({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        // 'wasm-unsafe-eval' lets the page compile WebAssembly (the journal's Argon2id, hash-wasm: decision 0061), and
        // nothing else: eval(), new Function() and inline scripts stay refused (CSP Level 3; Chrome 97, Safari 16, Firefox 102).
        scriptSrc: ["'self'", "'wasm-unsafe-eval'", THEME_BOOT_SCRIPT_HASH],
        // Toasts and Radix position themselves with inline styles; scripts stay 'self' plus the one hashed theme script.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        mediaSrc: ["'self'", 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        workerSrc: ["'self'"],
        manifestSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'", 'https://checkout.stripe.com', 'https://appleid.apple.com', 'https://accounts.google.com'],
        frameAncestors: ["'none'"],
        ...(https ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    // HSTS only means something over https; on plain http it would pin nothing and confuse local use.
    strictTransportSecurity: https ? { maxAge: 15552000, includeSubDomains: true } : false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    crossOriginEmbedderPolicy: false,
    crossOriginResourcePolicy: { policy: 'same-origin' },
  });
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
  return headers;
}

/**
 * Headers that govern a document (what it may load, frame or tell others) and mean nothing on a
 * script, stylesheet, font or image: the build's hashed assets go without them. Over HTTP/1.1 they
 * were about 750 bytes on each of the ~45 chunks a first visit loads, a sixth of the JavaScript a
 * phone fetched before the network went quiet (issue 39). nosniff and the resource policy stay:
 * they are what a subresource needs; HSTS stays wherever it is sent.
 */
const DOCUMENT_ONLY_HEADERS = [
  'content-security-policy',
  'cross-origin-opener-policy',
  'origin-agent-cluster',
  'referrer-policy',
  'x-dns-prefetch-control',
  'x-download-options',
  'x-frame-options',
  'x-permitted-cross-domain-policies',
  'x-xss-protection',
] as const;

/** The security headers a hashed asset is sent with (both lanes: web-app.ts and prepared-lane.ts). */
export function assetSecurityHeaders(headers: Readonly<OutgoingHttpHeaders>): OutgoingHttpHeaders {
  const kept: OutgoingHttpHeaders = { ...headers };
  for (const name of DOCUMENT_ONLY_HEADERS) Reflect.deleteProperty(kept, name);
  return kept;
}

/** Removes the document-only headers from a Fastify reply (the onRequest hook above set them all). */
export function dropDocumentHeaders(reply: { removeHeader: (name: string) => unknown }): void {
  for (const name of DOCUMENT_ONLY_HEADERS) reply.removeHeader(name);
}
