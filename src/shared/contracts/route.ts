/**
 * The API's route table, as both sides read it. Each endpoint is one object: method, path, who may
 * call it (a policy, src/shared/policies.ts) and its cache rule, with the types of its params, query,
 * body and reply taken from its zod contract. The server registers a handler against the object
 * (src/server/serve-route.ts: policy, schemas and cache header come from the table); the web calls
 * `call(route, input)` (src/web/lib/call.ts) and derives its TanStack Query key from the route.
 *
 * Why the schemas are types here and values in the contract modules (`<feature>.ts`): the web's first
 * load has no room for zod and every schema (decision 0067). A route object is a few strings; its
 * contract travels as types through `import type`, and `defineRoutes<typeof schemas>` makes the
 * compiler hold the two tables to the same names: a route without a contract, or a contract without a
 * route, is a type error, and so is a web call that no longer fits a changed contract.
 */
import type { z } from 'zod';
import type { Policy } from '#shared/policies.ts';

type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * `no-store`: a personal or changing answer no cache may keep (the server sets it).
 * `route`: the handler sets its own header (the public catalogue's max-age, an ETag'd answer).
 */
type CacheRule = 'no-store' | 'route';

type Schema = z.ZodType;

/**
 * What one route reads and answers: one schema for its 200, or one per status (a failure status is
 * there for the OpenAPI document, as health's 503; the caller's reply type is the success ones').
 */
export type RouteSchemas = {
  params?: Schema;
  query?: Schema;
  body?: Schema;
  response: Schema | Partial<Record<number, Schema>>;
};

/** A feature's contracts, by route name (the values the server validates with). */
export type SchemaTable = Record<string, RouteSchemas>;

export type RouteSpec = {
  method: HttpMethod;
  path: `/${string}`;
  policy: Policy;
  cache: CacheRule;
  /**
   * Served by better-auth's own handler under /api/auth/* (src/server/features/auth/auth.routes.ts), not
   * registered with serve(): its contract types the web's calls and its policy is better-auth's.
   */
  servedBy?: 'better-auth';
};

export type Route<S extends RouteSchemas = RouteSchemas, P extends Policy = Policy> = RouteSpec & {
  readonly policy: P;
  /** `feature.name`: where the server finds the route's schemas (api-schemas.ts). */
  readonly id: string;
  readonly feature: string;
  readonly name: string;
  /** Never set: carries the contract's types to call() and to the server's handler. */
  readonly contract?: S;
};

/** What a table may give each of its routes once, at its top: the policy and cache rule most of them share. */
type RouteDefaults = Partial<Pick<RouteSpec, 'policy' | 'cache'>>;

/** A route in a table with defaults: what they give may be left out, or named where this route differs. */
type SpecUnder<Defaults extends RouteDefaults> = Omit<RouteSpec, keyof Defaults> & Partial<Pick<RouteSpec, keyof Defaults & keyof RouteSpec>>;

/** The route's own policy, else the table's default. */
type PolicyOf<Spec, Defaults> = Spec extends { policy: infer P extends Policy } ? P : Defaults extends { policy: infer P extends Policy } ? P : never;

type RoutesOf<Table extends SchemaTable, Specs, Defaults> = { [Name in keyof Table]: Route<Table[Name], PolicyOf<Specs[Name & keyof Specs], Defaults>> };

/**
 * A feature's routes, one per entry of its schema table (and no other). Called twice because
 * TypeScript cannot take the table's type from the caller and infer each route's policy in one call:
 *   export const favouritesApi = defineRoutes<typeof favouritesSchemas>()('favourites', { list: { method: 'GET', … } });
 * A table whose routes mostly share a policy and cache rule names them once, before its routes, and
 * each route then names only what differs:
 *   defineRoutes<typeof billingSchemas>()('billing', { defaults: { policy: 'signed-in', cache: 'no-store' } }, { … });
 * Without defaults (or without a default policy), a route that names no policy is a type error.
 */
export function defineRoutes<Table extends SchemaTable>() {
  function define<const Specs extends { [Name in keyof Table]: RouteSpec }>(feature: string, specs: Specs): RoutesOf<Table, Specs, object>;
  function define<const Defaults extends RouteDefaults, const Specs extends { [Name in keyof Table]: SpecUnder<Defaults> }>(feature: string, options: { defaults: Defaults }, specs: Specs): RoutesOf<Table, Specs, Defaults>;
  function define(feature: string, ...args: [Record<string, RouteSpec>] | [{ defaults: RouteDefaults }, Record<string, Partial<RouteSpec>>]) {
    const [defaults, specs] = args.length === 1 ? [{}, args[0]] : [args[0].defaults, args[1]];
    const routes: Record<string, Route> = {};
    for (const [name, spec] of Object.entries(specs)) routes[name] = { ...defaults, ...spec, id: `${feature}.${name}`, feature, name } as Route;
    return routes;
  }
  return define;
}

type SchemasOf<R> = R extends Route<infer S> ? S : never;
type Part<S, K extends 'params' | 'query' | 'body'> = S extends { [P in K]: infer X extends Schema } ? { [P in K]: z.input<X> } : { [P in K]?: never };

/** What a caller sends: the params, query and body the contract names (each as the server parses it). */
export type InputOf<R> = Part<SchemasOf<R>, 'params'> & Part<SchemasOf<R>, 'query'> & Part<SchemasOf<R>, 'body'>;

type Output<X> = X extends Schema ? z.output<X> : never;
type ResponseOutput<Res> = Res extends Schema ? z.output<Res> : Output<Res[Extract<keyof Res, 200 | 201 | 202 | 204>]>;
/** What the route answers on success (the union of its success statuses' contracts). */
export type ReplyOf<R> = ResponseOutput<SchemasOf<R>['response']>;

/** The route's path with its params filled in, each encoded as one path segment. */
export function pathOf(route: Pick<Route, 'path'>, params?: Record<string, unknown>): string {
  return route.path.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    const value = params?.[name];
    if (typeof value !== 'string' && typeof value !== 'number') throw new Error(`${route.path}: no value for :${name}`);
    return encodeURIComponent(value);
  });
}

/** The path and query string a call goes to (query values that are undefined are left out). */
export function urlOf(route: Pick<Route, 'path'>, input?: { params?: unknown; query?: unknown }): string {
  const path = pathOf(route, input?.params as Record<string, unknown> | undefined);
  const entries = Object.entries((input?.query ?? {}) as Record<string, unknown>).filter(([, value]) => value !== undefined && value !== null);
  return entries.length === 0 ? path : `${path}?${new URLSearchParams(entries.map(([key, value]) => [key, String(value)]))}`;
}

/**
 * The TanStack Query key of a GET: [feature, name] and, with input, its params and query. A feature's
 * queries share the first element, so `{ queryKey: [route.feature] }` invalidates them all.
 */
export function queryKeyOf<R extends Route>(route: R, input?: Pick<InputOf<R>, 'params' | 'query'>): readonly unknown[] {
  const { feature, name } = route;
  const parts = input === undefined ? {} : Object.fromEntries(Object.entries(input as Record<string, unknown>).filter(([, value]) => value !== undefined));
  return Object.keys(parts).length === 0 ? [feature, name] : [feature, name, parts];
}
