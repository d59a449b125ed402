/**
 * Programmes' HTTP side (issue 37, item 2; decision 0051). The list and a programme are public, as
 * the catalogue is; progress, starting, leaving and "Don't wait" are the signed-in person's own; the
 * dashboard's management is staff's (admins and editors, who manage the catalogue it is made of).
 * Playback is not here: each day plays through the one playback check (media.routes.ts).
 */
import type { FastifyInstance } from 'fastify';
import { programmesApi } from '#shared/contracts/programmes.routes.ts';
import { PROGRAMME_MESSAGES } from '#shared/programmes.ts';
import type { Auth } from '#server/auth.ts';
import type { Database } from '#server/db/client.ts';
import { AppError } from '#server/errors.ts';
import { auditContextOf } from '#server/features/admin/request-context.ts';
import { createProgramme, deleteProgramme, listAdminProgrammes, orderProgrammes, setPublished, updateProgramme } from '#server/features/programmes/programmes-admin.service.ts';
import { enrol, getProgramme, leave, listProgrammes, listProgress, openNextDay } from '#server/features/programmes/programmes.service.ts';
import { routeServer } from '#server/serve-route.ts';

export function programmesRoutes(app: FastifyInstance, { auth, db }: { auth: Auth; db: Database }): void {
  const serve = routeServer(app, { auth, db });

  serve(programmesApi.list, async () => ({ programmes: await listProgrammes({ db }) }));

  serve(programmesApi.get, async ({ params }) => getProgramme({ db, slug: params.slug }));

  serve(programmesApi.mine, async ({ viewer }) => ({ enrolments: await listProgress({ db, userId: viewer.user.id }) }));

  serve(programmesApi.progress, async ({ params, viewer }) => {
    // An unknown or unpublished programme is a 404 here too, not an empty progress.
    await getProgramme({ db, slug: params.slug });
    return { progress: (await listProgress({ db, userId: viewer.user.id, slug: params.slug })).at(0) ?? null };
  });

  serve(programmesApi.enrol, async ({ params, body, viewer }) => ({ progress: await enrol({ db, userId: viewer.user.id, slug: params.slug, ...body }) }), {
    description: 'Start a programme (or with restart: start it again from day 1).',
  });

  serve(programmesApi.leave, async ({ params, viewer }) => {
    if (!(await leave({ db, userId: viewer.user.id, slug: params.slug }))) throw new AppError('not-found', PROGRAMME_MESSAGES.notEnrolled);
    return { left: true as const };
  });

  serve(programmesApi.openNext, async ({ params, viewer }) => ({ progress: await openNextDay({ db, userId: viewer.user.id, slug: params.slug }) }), {
    description: '"Don’t wait": open the day waiting for tomorrow now.',
  });

  // ---- the dashboard

  serve(programmesApi.adminList, async () => ({ programmes: await listAdminProgrammes({ db }) }));

  serve(programmesApi.create, async ({ body, request }, reply) => reply.status(201).send(await createProgramme({ db, by: auditContextOf(request), input: body })));

  serve(programmesApi.update, async ({ params, body, request }) => updateProgramme({ db, by: auditContextOf(request), id: params.id, input: body }));

  serve(programmesApi.publish, async ({ params, body, request }) => setPublished({ db, by: auditContextOf(request), id: params.id, published: body.published }));

  serve(programmesApi.order, async ({ body, request }) => ({ programmes: await orderProgrammes({ db, by: auditContextOf(request), ids: body.ids }) }));

  serve(programmesApi.remove, async ({ params, request }) => {
    await deleteProgramme({ db, by: auditContextOf(request), id: params.id });
    return { deleted: true as const };
  });
}
