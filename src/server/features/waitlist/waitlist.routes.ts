/**
 * The beta waitlist's HTTP side: the public sign-up and the admin views of it (list, clear, CSV
 * export, sandbox test data). The rules live in waitlist.service.ts.
 */
import type { FastifyInstance } from 'fastify';
import { ADMIN_MESSAGES } from '#shared/admin.ts';
import { waitlistExportQuery } from '#shared/contracts/waitlist.ts';
import { waitlistApi } from '#shared/contracts/waitlist.routes.ts';
import { withContracts } from '#server/api-contracts.ts';
import { requirePolicy, type Auth } from '#server/auth.ts';
import type { Database } from '#server/db/client.ts';
import { AppError } from '#server/errors.ts';
import { auditContextOf } from '#server/features/admin/request-context.ts';
import type { RateLimitStore } from '#server/features/security/rate-limit-store.ts';
import { addWaitlistTestData, clearWaitlist, exportWaitlistCsv, joinWaitlist, listWaitlist } from '#server/features/waitlist/waitlist.service.ts';
import { routeServer } from '#server/serve-route.ts';

const tags = ['waitlist'];

export function waitlistRoutes(app: FastifyInstance, { auth, db, limits, sandbox }: { auth: Auth; db: Database; limits: RateLimitStore; sandbox: boolean }): void {
  const serve = routeServer(app, { auth, db });
  const admin = requirePolicy(auth, db, 'admin');

  serve(waitlistApi.join, async ({ body, request }, reply) => reply.status(201).send(await joinWaitlist({ db, limits, ip: request.ip, input: body })));

  serve(waitlistApi.list, async ({ query }) => listWaitlist({ db, after: query.after, limit: query.limit }));

  // A CSV download, not JSON (outside the route table).
  withContracts(app).get(
    '/api/admin/waitlist/export',
    { onRequest: admin, schema: { tags, querystring: waitlistExportQuery, description: 'The waitlist as a text/csv attachment (UTF-8 with a BOM; formula cells neutralised).' } },
    async (request, reply) => {
      const csv = await exportWaitlistCsv({ db, by: auditContextOf(request) });
      return reply.header('content-type', 'text/csv; charset=utf-8').header('content-disposition', `attachment; filename="${csv.fileName}"`).header('cache-control', 'no-store').send(csv.body);
    },
  );

  serve(waitlistApi.clear, async ({ request }) => clearWaitlist({ db, by: auditContextOf(request) }));

  serve(waitlistApi.testData, async ({ request }) => {
    if (!sandbox) throw new AppError('auth/forbidden', ADMIN_MESSAGES.sandboxOnly, 403);
    return addWaitlistTestData({ db, by: auditContextOf(request) });
  });
}
