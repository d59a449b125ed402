/**
 * Programmes' HTTP side (issue 37, item 2; decision 0051). The list and a programme are public, as
 * the catalogue is; progress, starting, leaving and "Don't wait" are the signed-in person's own; the
 * dashboard's management is staff's (admins and editors, who manage the catalogue it is made of).
 * Playback is not here: each day plays through the one playback check (media.routes.ts).
 */
import type { FastifyInstance } from 'fastify';
import {
  adminProgrammeResponse,
  adminProgrammesResponse,
  deleteProgrammeResponse,
  enrolBody,
  leaveResponse,
  myProgrammesResponse,
  orderBody,
  programmeBody,
  programmeIdParams,
  programmeProgressResponse,
  programmeResponse,
  programmeSlugParams,
  programmesResponse,
  publishBody,
} from '#shared/contracts/programmes.ts';
import { PROGRAMME_MESSAGES } from '#shared/programmes.ts';
import { STAFF_ROLES } from '#shared/roles.ts';
import { withContracts } from '#server/api-contracts.ts';
import { requireRole, requireUser, viewerOf, type Auth } from '#server/auth.ts';
import type { Database } from '#server/db/client.ts';
import { AppError } from '#server/errors.ts';
import { auditContextOf } from '#server/features/admin/request-context.ts';
import { createProgramme, deleteProgramme, listAdminProgrammes, orderProgrammes, setPublished, updateProgramme } from '#server/features/programmes/programmes-admin.service.ts';
import { enrol, getProgramme, leave, listProgrammes, listProgress, openNextDay } from '#server/features/programmes/programmes.service.ts';

const tags = ['programmes'];

export function programmesRoutes(app: FastifyInstance, { auth, db }: { auth: Auth; db: Database }): void {
  const api = withContracts(app);
  const signedIn = requireUser(auth, db);
  const staff = requireRole(auth, db, STAFF_ROLES);

  api.get('/api/programmes', { schema: { tags, response: { 200: programmesResponse } } }, async () => ({ programmes: await listProgrammes({ db }) }));

  api.get('/api/programmes/:slug', { schema: { tags, params: programmeSlugParams, response: { 200: programmeResponse } } }, async (request) => getProgramme({ db, slug: request.params.slug }));

  api.get('/api/me/programmes', { onRequest: signedIn, schema: { tags, response: { 200: myProgrammesResponse } } }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return { enrolments: await listProgress({ db, userId: viewerOf(request).user.id }) };
  });

  api.get('/api/programmes/:slug/progress', { onRequest: signedIn, schema: { tags, params: programmeSlugParams, response: { 200: programmeProgressResponse } } }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    // An unknown or unpublished programme is a 404 here too, not an empty progress.
    await getProgramme({ db, slug: request.params.slug });
    return { progress: (await listProgress({ db, userId: viewerOf(request).user.id, slug: request.params.slug })).at(0) ?? null };
  });

  api.post(
    '/api/programmes/:slug/enrolment',
    { onRequest: signedIn, schema: { tags, params: programmeSlugParams, body: enrolBody, response: { 200: programmeProgressResponse }, description: 'Start a programme (or with restart: start it again from day 1).' } },
    async (request) => ({ progress: await enrol({ db, userId: viewerOf(request).user.id, slug: request.params.slug, ...request.body }) }),
  );

  api.delete('/api/programmes/:slug/enrolment', { onRequest: signedIn, schema: { tags, params: programmeSlugParams, response: { 200: leaveResponse } } }, async (request) => {
    if (!(await leave({ db, userId: viewerOf(request).user.id, slug: request.params.slug }))) throw new AppError('not-found', PROGRAMME_MESSAGES.notEnrolled);
    return { left: true as const };
  });

  api.post(
    '/api/programmes/:slug/enrolment/open-next',
    { onRequest: signedIn, schema: { tags, params: programmeSlugParams, response: { 200: programmeProgressResponse }, description: '"Don’t wait": open the day waiting for tomorrow now.' } },
    async (request) => ({ progress: await openNextDay({ db, userId: viewerOf(request).user.id, slug: request.params.slug }) }),
  );

  // ---- the dashboard

  api.get('/api/admin/programmes', { onRequest: staff, schema: { tags, response: { 200: adminProgrammesResponse } } }, async () => ({ programmes: await listAdminProgrammes({ db }) }));

  api.post('/api/admin/programmes', { onRequest: staff, schema: { tags, body: programmeBody, response: { 201: adminProgrammeResponse } } }, async (request, reply) => {
    return reply.status(201).send(await createProgramme({ db, by: auditContextOf(request), input: request.body }));
  });

  api.put('/api/admin/programmes/:id', { onRequest: staff, schema: { tags, params: programmeIdParams, body: programmeBody, response: { 200: adminProgrammeResponse } } }, async (request) =>
    updateProgramme({ db, by: auditContextOf(request), id: request.params.id, input: request.body }),
  );

  api.put('/api/admin/programmes/:id/published', { onRequest: staff, schema: { tags, params: programmeIdParams, body: publishBody, response: { 200: adminProgrammeResponse } } }, async (request) =>
    setPublished({ db, by: auditContextOf(request), id: request.params.id, published: request.body.published }),
  );

  api.put('/api/admin/programmes-order', { onRequest: staff, schema: { tags, body: orderBody, response: { 200: adminProgrammesResponse } } }, async (request) => ({
    programmes: await orderProgrammes({ db, by: auditContextOf(request), ids: request.body.ids }),
  }));

  api.delete('/api/admin/programmes/:id', { onRequest: staff, schema: { tags, params: programmeIdParams, response: { 200: deleteProgrammeResponse } } }, async (request) => {
    await deleteProgramme({ db, by: auditContextOf(request), id: request.params.id });
    return { deleted: true as const };
  });
}
