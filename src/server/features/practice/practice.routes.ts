/** Practice API: record a completed session (idempotent per play), the practice summary, streak preference. */
import type { FastifyInstance } from 'fastify';
import { playedResponse, practicePreferencesBody, practicePreferencesResponse, practiceQuery, practiceResponse, recordSessionBody, recordSessionResponse } from '#shared/contracts/practice.ts';
import { withContracts } from '#server/api-contracts.ts';
import { requireUser, type Auth } from '#server/auth.ts';
import { viewerOf } from '#server/auth.ts';
import type { Database } from '#server/db/client.ts';
import { getPractice, listPlayed, recordSession, setPreferences } from '#server/features/practice/practice.service.ts';

export function practiceRoutes(app: FastifyInstance, { auth, db }: { auth: Auth; db: Database }): void {
  const api = withContracts(app);
  const signedIn = requireUser(auth, db);

  api.post('/api/sessions', { onRequest: signedIn, schema: { tags: ['practice'], body: recordSessionBody, response: { 200: recordSessionResponse, 201: recordSessionResponse } } }, async (request, reply) => {
    const result = await recordSession({ db, userId: viewerOf(request).user.id, body: request.body });
    return reply.status(result.created ? 201 : 200).send(result);
  });

  api.get('/api/practice', { onRequest: signedIn, schema: { tags: ['practice'], querystring: practiceQuery, response: { 200: practiceResponse } } }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return getPractice({ db, userId: viewerOf(request).user.id, timezone: request.query.tz });
  });

  api.get('/api/practice/played', { onRequest: signedIn, schema: { tags: ['practice'], response: { 200: playedResponse } } }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return { ids: await listPlayed({ db, userId: viewerOf(request).user.id }) };
  });

  api.put('/api/practice/preferences', { onRequest: signedIn, schema: { tags: ['practice'], body: practicePreferencesBody, response: { 200: practicePreferencesResponse } } }, async (request) => {
    return setPreferences(db, viewerOf(request).user.id, request.body);
  });
}
