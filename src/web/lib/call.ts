/**
 * The web's way to the API: `call(route, input)` with a route of the table (src/shared/contracts),
 * typed end to end. The path, query and body come from the input the route's contract names, and the
 * reply has the contract's type. In development and tests the reply is also checked against the
 * contract itself (loaded only there: the production bundle carries no zod for it).
 */
import type { InputOf, ReplyOf, Route } from '#shared/contracts/route.ts';
import { urlOf } from '#shared/contracts/route.ts';
import { api, type CallOptions } from '#web/lib/api.ts';

/** The input may be left out when the route reads no params, query or body. */
type CallArgs<R extends Route> = object extends InputOf<R> ? [input?: InputOf<R>, options?: CallOptions] : [input: InputOf<R>, options?: CallOptions];

export async function call<R extends Route>(route: R, ...[input, options]: CallArgs<R>): Promise<ReplyOf<R>> {
  const { params, query, body } = (input ?? {}) as { params?: unknown; query?: unknown; body?: unknown };
  const reply = await api<unknown>(urlOf(route, { params, query }), { ...options, method: route.method, body });
  if (import.meta.env.DEV) (await import('#web/lib/reply-check.ts')).checkReply(route, reply);
  return reply as ReplyOf<R>;
}
