/** Practice API: record a session (idempotent per play), the practice summary, streak preference, resume positions. */
import type { FastifyInstance } from 'fastify';
import { meditationIdParams } from '#shared/contracts/catalogue.ts';
import { playedResponse, positionsResponse, practicePreferencesBody, practicePreferencesResponse, practiceQuery, practiceResponse, recordSessionBody, recordSessionResponse, savePositionBody, savePositionResponse } from '#shared/contracts/practice.ts';
import { withContracts } from '#server/api-contracts.ts';
import { requireUser, type Auth } from '#server/auth.ts';
import { viewerOf } from '#server/auth.ts';
import type { Database } from '#server/db/client.ts';
import { getPractice, listPlayed, recordSession, setPreferences } from '#server/features/practice/practice.service.ts';
import { listPositions, savePosition } from '#server/features/practice/positions.service.ts';

export function practiceRoutes(app: FastifyInstance, { auth, db }: { auth: Auth; db: Database }): void {
  const api = withContracts(app);
  const signedIn = requireUser(auth, db);

  api.post('/api/sessions', { onRequest: signedIn, schema: { tags: ['practice'], body: recordSessionBody, response: { 200: recordSessionResponse, 201: recordSessionResponse } } }, async (request, reply) => {
    const viewer = viewerOf(request);
    const result = await recordSession({ db, userId: viewer.user.id, role: viewer.role, body: request.body });
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

  // Resume where you left off (issue 20, item 2).
  api.get('/api/practice/positions', { onRequest: signedIn, schema: { tags: ['practice'], response: { 200: positionsResponse } } }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return { positions: await listPositions({ db, userId: viewerOf(request).user.id }) };
  });

  api.put('/api/practice/positions/:id', { onRequest: signedIn, schema: { tags: ['practice'], params: meditationIdParams, body: savePositionBody, response: { 200: savePositionResponse } } }, async (request) => {
    return savePosition({ db, userId: viewerOf(request).user.id, meditationId: request.params.id, body: request.body });
  });

  api.put('/api/practice/preferences', { onRequest: signedIn, schema: { tags: ['practice'], body: practicePreferencesBody, response: { 200: practicePreferencesResponse } } }, async (request) => {
    return setPreferences(db, viewerOf(request).user.id, request.body);
  });
}
