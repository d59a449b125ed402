/**
 * The OpenAPI document of the API the apps call, generated from the routes' zod contracts
 * (api-contracts.ts). It describes a production configuration (Stripe billing, so no sandbox
 * checkout pages or admin test tools); `npm run openapi` writes it to docs/openapi.json, and
 * openapi.test.ts fails when the committed file and the code disagree. The server publishes that
 * committed document at GET /api/openapi.json (issue 19, item 7): the same contract whatever mode
 * this server runs in, for the native apps' generated clients.
 */
import { readFile } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { withContracts } from '#server/api-contracts.ts';
import { prepareBytes, sendPrepared, type PreparedResponse } from '#server/prepared-response.ts';

export const OPENAPI_FILE = 'docs/openapi.json';
/** The committed document, found from this module rather than the working directory. */
const PUBLISHED = new URL('../../docs/openapi.json', import.meta.url);

const openApiDocument = z.looseObject({
  openapi: z.literal('3.1.0'),
  info: z.looseObject({ title: z.string(), version: z.string() }),
  paths: z.record(z.string(), z.unknown()),
});

export function openApiRoutes(app: FastifyInstance): void {
  // Read and compressed once, at the first request: the file does not change while the process runs.
  let prepared: Promise<PreparedResponse> | undefined;
  withContracts(app).get('/api/openapi.json', { schema: { tags: ['meta'], response: { 200: openApiDocument } } }, async (request, reply) => {
    prepared ??= readFile(PUBLISHED).then((bytes) => prepareBytes(bytes, 'application/json; charset=utf-8'));
    return sendPrepared(request, reply, await prepared, 'public, max-age=300');
  });
}

/** The configuration the document describes: production-like billing with placeholder secrets (nothing is called). */
export const OPENAPI_ENV = {
  BILLING_MODE: 'stripe',
  STRIPE_SECRET_KEY: 'sk_test_openapi',
  STRIPE_WEBHOOK_SECRET: 'whsec_openapi',
  STRIPE_PRICE_MONTHLY: 'price_monthly',
  STRIPE_PRICE_YEARLY: 'price_yearly',
} as const;

/** The document as stable, diff-friendly JSON text. */
export function openApiText(app: FastifyInstance): string {
  return `${JSON.stringify(app.swagger(), null, 2)}\n`;
}
