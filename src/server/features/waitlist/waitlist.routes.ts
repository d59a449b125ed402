/**
 * The beta waitlist's HTTP side: the public sign-up and the admin views of it (list, clear, CSV
 * export, sandbox test data). The rules live in waitlist.service.ts.
 */
import type { FastifyInstance } from 'fastify';
import { ADMIN_MESSAGES } from '#shared/admin.ts';
import { clearWaitlistResponse, joinWaitlistBody, joinWaitlistResponse, waitlistEntriesResponse, waitlistExportQuery, waitlistPageQuery, waitlistTestDataResponse } from '#shared/contracts/waitlist.ts';
import { withContracts } from '#server/api-contracts.ts';
import { requireRole, type Auth } from '#server/auth.ts';
import type { Database } from '#server/db/client.ts';
import { AppError } from '#server/errors.ts';
import { auditContextOf } from '#server/features/admin/request-context.ts';
import type { RateLimitStore } from '#server/features/security/rate-limit-store.ts';
import { addWaitlistTestData, clearWaitlist, exportWaitlistCsv, joinWaitlist, listWaitlist } from '#server/features/waitlist/waitlist.service.ts';

const tags = ['waitlist'];

export function waitlistRoutes(app: FastifyInstance, { auth, db, limits, sandbox }: { auth: Auth; db: Database; limits: RateLimitStore; sandbox: boolean }): void {
  const api = withContracts(app);
  const admin = requireRole(auth, db, ['admin']);

  api.post('/api/waitlist', { schema: { tags, body: joinWaitlistBody, response: { 201: joinWaitlistResponse } } }, async (request, reply) => {
    return reply.status(201).send(await joinWaitlist({ db, limits, ip: request.ip, input: request.body }));
  });

  api.get('/api/admin/waitlist', { onRequest: admin, schema: { tags, querystring: waitlistPageQuery, response: { 200: waitlistEntriesResponse } } }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return listWaitlist({ db, after: request.query.after, limit: request.query.limit });
  });

  api.get(
    '/api/admin/waitlist/export',
    { onRequest: admin, schema: { tags, querystring: waitlistExportQuery, description: 'The waitlist as a text/csv attachment (UTF-8 with a BOM; formula cells neutralised).' } },
    async (request, reply) => {
      const csv = await exportWaitlistCsv({ db, by: auditContextOf(request) });
      return reply.header('content-type', 'text/csv; charset=utf-8').header('content-disposition', `attachment; filename="${csv.fileName}"`).header('cache-control', 'no-store').send(csv.body);
    },
  );

  api.delete('/api/admin/waitlist', { onRequest: admin, schema: { tags, response: { 200: clearWaitlistResponse } } }, async (request) => clearWaitlist({ db, by: auditContextOf(request) }));

  api.post('/api/admin/waitlist/test-data', { onRequest: admin, schema: { tags, response: { 200: waitlistTestDataResponse } } }, async (request) => {
    if (!sandbox) throw new AppError('auth/forbidden', ADMIN_MESSAGES.sandboxOnly, 403);
    return addWaitlistTestData({ db, by: auditContextOf(request) });
  });
}
