/**
 * Development and tests only (call.ts imports it behind import.meta.env.DEV): a reply that does not
 * fit its route's contract throws, naming the route and the first mismatch, so a client that has
 * drifted from the server fails its tests instead of showing a blank field to someone.
 */
import type { z } from 'zod';
import { contractOf } from '#shared/contracts/api-schemas.ts';
import type { Route } from '#shared/contracts/route.ts';

const isSchema = (value: unknown): value is z.ZodType => typeof value === 'object' && value !== null && '_zod' in value;

export function checkReply(route: Route, reply: unknown): void {
  const contract = contractOf(route);
  // A body-less answer (204) arrives as undefined; its contract says null.
  const value = reply === undefined ? null : reply;
  // Only the success statuses' contracts: a failure never reaches a caller as a reply (api() throws it).
  const candidates = isSchema(contract.response)
    ? [contract.response]
    : Object.entries(contract.response).flatMap(([status, schema]) => (schema && Number(status) < 300 ? [schema] : []));
  const results = candidates.map((schema) => schema.safeParse(value));
  if (results.some((result) => result.success)) return;
  const issue = results[0]?.error?.issues[0];
  throw new Error(`${route.method} ${route.path} answered outside its contract (${route.id}): ${issue ? `${issue.path.join('.') || 'reply'}: ${issue.message}` : 'no schema'}`);
}
