/**
 * The OpenAPI document of the API the apps call, generated from the routes' zod contracts
 * (api-contracts.ts). It describes a production configuration (Stripe billing, so no sandbox
 * checkout pages or admin test tools); `npm run openapi` writes it to docs/openapi.json, and
 * openapi.test.ts fails when the committed file and the code disagree.
 */
import type { FastifyInstance } from 'fastify';

export const OPENAPI_FILE = 'docs/openapi.json';

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
