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
        scriptSrc: ["'self'", THEME_BOOT_SCRIPT_HASH],
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
