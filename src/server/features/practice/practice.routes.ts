/** Practice API: record a completed session (idempotent per play), the practice summary, streak preference. */
import type { FastifyInstance } from 'fastify';
import { practicePreferencesBody, practiceQuery, recordSessionBody } from '#shared/contracts/practice.ts';
import { requireUser, type Auth } from '#server/auth.ts';
import type { Database } from '#server/db/client.ts';
import { getPractice, recordSession, setShowStreaks } from '#server/features/practice/practice.service.ts';

export function practiceRoutes(app: FastifyInstance, { auth, db }: { auth: Auth; db: Database }): void {
  const signedIn = { preHandler: requireUser(auth, db) };

  app.post('/api/sessions', signedIn, async (request, reply) => {
    const body = recordSessionBody.parse(request.body ?? {});
    const result = await recordSession({ db, userId: request.viewer!.user.id, body });
    return reply.status(result.created ? 201 : 200).send(result);
  });

  app.get('/api/practice', signedIn, async (request, reply) => {
    const { tz } = practiceQuery.parse(request.query);
    reply.header('cache-control', 'no-store');
    return getPractice({ db, userId: request.viewer!.user.id, timezone: tz });
  });

  app.put('/api/practice/preferences', signedIn, async (request) => {
    const { showStreaks } = practicePreferencesBody.parse(request.body ?? {});
    await setShowStreaks(db, request.viewer!.user.id, showStreaks);
    return { showStreaks };
  });
}
