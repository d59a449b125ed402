/**
 * Routes declare their request and response contracts (zod schemas from `#shared/contracts/<feature>.ts`)
 * in Fastify's `schema`, and these compilers enforce them: requests are parsed before the handler runs
 * (a ZodError reaches the central handler as 400 `validation/invalid-input` with the schema's message),
 * and replies are encoded through the response schema, so a field the contract does not name never
 * leaves the server and a reply that breaks its contract is a 500, not a silent drift. The same
 * schemas produce the OpenAPI document (`npm run openapi`, docs/openapi.json) the native apps build on.
 */
import swagger from '@fastify/swagger';
import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { ZodType } from 'zod';

/** A Fastify instance whose routes infer request and reply types from their zod schemas. */
export type ApiInstance = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, ZodTypeProvider>;

export const withContracts = (app: FastifyInstance): ApiInstance => app.withTypeProvider<ZodTypeProvider>();

export async function installApiContracts(app: FastifyInstance, { version }: { version: string }): Promise<void> {
  app.setValidatorCompiler<ZodType>(({ schema }) => (data) => {
    // A POST without a body reads as an empty object, so its fields report their own messages
    // ('A session id is required.') instead of a generic "expected object".
    const result = schema.safeParse(data ?? {});
    return result.success ? { value: result.data } : { error: result.error };
  });
  app.setSerializerCompiler(serializerCompiler);
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Harbour Mind API', version, description: 'Generated from the zod contracts in src/shared/contracts (npm run openapi).' },
      components: {
        securitySchemes: {
          cookie: { type: 'apiKey', in: 'cookie', name: 'better-auth.session_token' },
          bearer: { type: 'http', scheme: 'bearer', description: 'Native apps: sign in with the x-session-transport: bearer header.' },
        },
      },
    },
    transform: jsonSchemaTransform,
  });
}
