/**
 * Registers a handler against a route of the table (src/shared/contracts/route.ts): the route's
 * policy runs before the body is read (401 for a visitor, 403 for a signed-in caller without the
 * role), its zod contract validates the request and serialises the reply (api-contracts.ts), and its
 * cache rule sets the header. A handler is only the work:
 *   const serve = routeServer(app, { auth, db });
 *   serve(favouritesApi.list, async ({ viewer }) => ({ favourites: await listFavourites({ db, userId: viewer.user.id }) }));
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler, preHandlerHookHandler, preValidationHookHandler } from 'fastify';
import type { z } from 'zod';
import { contractOf } from '#shared/contracts/api-schemas.ts';
import type { ReplyOf, Route } from '#shared/contracts/route.ts';
import type { Policy } from '#shared/policies.ts';
import { optionalUser, requirePolicy, requireUser, type Auth, type Viewer } from '#server/auth.ts';
import type { Database } from '#server/db/client.ts';

type SchemasOf<R> = R extends Route<infer S> ? S : never;
type Parsed<S, K extends 'params' | 'query' | 'body'> = S extends { [P in K]: infer X extends z.ZodType } ? z.output<X> : undefined;
type ViewerUnder<P> = P extends 'public' ? undefined : P extends 'public-with-viewer' ? Viewer | undefined : Viewer;
type PolicyOf<R> = R extends Route<infer _S, infer P> ? P : never;

/** What a handler is given: the parsed request, and who asks as the route's policy knows them. */
type RouteInput<R> = {
  params: Parsed<SchemasOf<R>, 'params'>;
  query: Parsed<SchemasOf<R>, 'query'>;
  body: Parsed<SchemasOf<R>, 'body'>;
  viewer: ViewerUnder<PolicyOf<R>>;
  request: FastifyRequest;
};

/** A handler answers with the route's reply, or sends it itself (a status other than 200, a stream). */
export type RouteHandler<R> = (input: RouteInput<R>, reply: FastifyReply) => Promise<ReplyOf<R> | FastifyReply>;

/** What a route may add around the table's rules: hooks that run before its policy or after it. */
export type RouteExtras = {
  /** Run before the policy (a private-reply header that must be on every answer, a 401 included). */
  before?: onRequestHookHandler[];
  preValidation?: preValidationHookHandler;
  preHandler?: preHandlerHookHandler;
  bodyLimit?: number;
  config?: Record<string, unknown>;
  /** For the OpenAPI document only (what the route does beyond its name). */
  description?: string;
};

const isSchema = (value: unknown): value is z.ZodType => typeof value === 'object' && value !== null && '_zod' in value;

/**
 * `sessions`: what the session policies read the caller with. A feature whose routes are all public
 * (the catalogue, health, which starts before authentication exists) passes none; a session policy
 * there is refused when the route is registered, not when someone calls it.
 */
export function routeServer(app: FastifyInstance, sessions?: { auth: Auth; db: Database }) {
  const needs = (make: (auth: Auth, db: Database) => onRequestHookHandler) => (route: Route) => {
    if (!sessions) throw new Error(`${route.id}: policy ${route.policy} needs the session reader (routeServer(app, { auth, db }))`);
    return [make(sessions.auth, sessions.db)];
  };
  const policyHooks: Record<Policy, (route: Route) => onRequestHookHandler[]> = {
    public: () => [],
    'public-with-viewer': needs(optionalUser),
    'signed-in': needs(requireUser),
    staff: needs((auth, db) => requirePolicy(auth, db, 'staff')),
    admin: needs((auth, db) => requirePolicy(auth, db, 'admin')),
  };

  return function serve<R extends Route>(route: R, handler: RouteHandler<R>, extras: RouteExtras = {}): void {
    if (route.servedBy) throw new Error(`${route.id} is served by ${route.servedBy}, not by serve()`);
    const schemas = contractOf(route);
    app.route({
      method: route.method,
      url: route.path,
      schema: {
        tags: [route.feature],
        ...(extras.description && { description: extras.description }),
        ...(schemas.params && { params: schemas.params }),
        ...(schemas.query && { querystring: schemas.query }),
        ...(schemas.body && { body: schemas.body }),
        response: isSchema(schemas.response) ? { 200: schemas.response } : schemas.response,
      },
      onRequest: [...(extras.before ?? []), ...policyHooks[route.policy](route)],
      ...(extras.preValidation && { preValidation: extras.preValidation }),
      ...(extras.preHandler && { preHandler: extras.preHandler }),
      ...(extras.bodyLimit !== undefined && { bodyLimit: extras.bodyLimit }),
      ...(extras.config && { config: extras.config }),
      handler: async (request, reply) => {
        if (route.cache === 'no-store') reply.header('cache-control', 'no-store');
        const input = { params: request.params, query: request.query, body: request.body, viewer: request.viewer, request } as RouteInput<R>;
        return handler(input, reply);
      },
    });
  };
}
