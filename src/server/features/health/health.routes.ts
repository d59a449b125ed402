/** Liveness for load balancers: 200 only when the database answers. */
import type { FastifyInstance } from 'fastify';
import type { DatabaseHandle } from '#server/db/client.ts';

export function healthRoutes(app: FastifyInstance, { database }: { database: DatabaseHandle }): void {
  app.get('/api/health', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    if (await database.ping()) return { status: 'ok' };
    return reply.status(503).send({ status: 'unavailable' });
  });
}
