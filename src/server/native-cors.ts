/**
 * The native apps call the API from their WebViews' own origins (issue 19): Capacitor serves the
 * app as capacitor://localhost on iOS and https://localhost on Android (androidScheme), so their
 * requests are cross-origin. Only those origins get CORS consent, and only without credentials:
 * the apps authenticate with a bearer token (x-session-transport: bearer), never with our cookie, so
 * no page anywhere can borrow a session through this. The CSRF guard still refuses any
 * cookie-authenticated write from an origin that is not PUBLIC_URL's, and better-auth trusts these
 * origins only for requests without a cookie (trustedOriginsFor in auth.ts; issue 33).
 */
import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';

export const NATIVE_APP_ORIGINS: readonly string[] = ['capacitor://localhost', 'https://localhost'];

export async function registerNativeCors(app: FastifyInstance): Promise<void> {
  await app.register(cors, {
    origin: (origin, callback) => callback(null, origin !== undefined && NATIVE_APP_ORIGINS.includes(origin)),
    credentials: false,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: ['authorization', 'content-type', 'accept', 'x-session-transport', 'if-none-match'],
    // The session token arrives in set-auth-token; a 429 says when to try again; playback is ranged.
    exposedHeaders: ['set-auth-token', 'retry-after', 'etag', 'content-range', 'accept-ranges'],
    maxAge: 600,
  });
}
