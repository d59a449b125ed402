/** Practice API: record a session (idempotent per play), the practice summary, streak preference, resume positions. */
import type { FastifyInstance } from 'fastify';
import { practiceApi } from '#shared/contracts/practice.routes.ts';
import type { Auth } from '#server/auth.ts';
import type { Database } from '#server/db/client.ts';
import { getPractice, listPlayed, recordSession, setPreferences } from '#server/features/practice/practice.service.ts';
import { listPositions, savePosition } from '#server/features/practice/positions.service.ts';
import { routeServer } from '#server/serve-route.ts';

export function practiceRoutes(app: FastifyInstance, { auth, db }: { auth: Auth; db: Database }): void {
  const serve = routeServer(app, { auth, db });

  serve(practiceApi.record, async ({ viewer, body }, reply) => {
    const result = await recordSession({ db, userId: viewer.user.id, role: viewer.role, body });
    return reply.status(result.created ? 201 : 200).send(result);
  });

  serve(practiceApi.summary, async ({ viewer, query }) => getPractice({ db, userId: viewer.user.id, timezone: query.tz }));

  serve(practiceApi.played, async ({ viewer }) => ({ ids: await listPlayed({ db, userId: viewer.user.id }) }));

  // Resume where you left off (issue 20, item 2).
  serve(practiceApi.positions, async ({ viewer }) => ({ positions: await listPositions({ db, userId: viewer.user.id }) }));

  serve(practiceApi.savePosition, async ({ viewer, params, body }) => savePosition({ db, userId: viewer.user.id, meditationId: params.id, body }));

  serve(practiceApi.preferences, async ({ viewer, body }) => setPreferences(db, viewer.user.id, body));
}
