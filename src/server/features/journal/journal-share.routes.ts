/**
 * Shared journal entries' HTTP side (issue 36, item 5; decision 0050). Creating, listing and revoking
 * are the signed-in owner's, as every journal route: creating adds to the journal's reach, so it needs
 * the subscription (as a new entry does); listing and revoking never do, so a lapsed subscription can
 * always take a link back. Reading is anyone's who has the link: no account, rate-limited per address,
 * never cached, indexed or referred.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { journalShareApi } from '#shared/contracts/journal-share.routes.ts';
import { JOURNAL_MESSAGES } from '#shared/journal.ts';
import { can } from '#shared/policies.ts';
import { SHARE_MESSAGES } from '#shared/journal-share.ts';
import type { Auth } from '#server/auth.ts';
import type { Database } from '#server/db/client.ts';
import { AppError } from '#server/errors.ts';
import { whoIs } from '#server/features/billing/subscriptions.service.ts';
import { createShare, listShares, readShare, revokeShare } from '#server/features/journal/journal-share.service.ts';
import { enforceRateLimit, type RateLimitStore } from '#server/features/security/rate-limit-store.ts';
import { routeServer } from '#server/serve-route.ts';

/** A recipient opens a link a few times; anything like a scan of ids is stopped. Per address. */
export const SHARE_READS = { perWindow: 60, windowMs: 10 * 60 * 1000 };
/** Links made per account: a person shares a few entries, not hundreds an hour. */
const SHARE_CREATES = { perWindow: 30, windowMs: 60 * 60 * 1000 };

/**
 * Every share reply, refusals included (it runs before validation): never stored by a cache, never
 * indexed, and no address of ours passed on in a Referer.
 */
function privateReply(_request: FastifyRequest, reply: FastifyReply, done: () => void): void {
  reply.header('cache-control', 'no-store');
  reply.header('referrer-policy', 'no-referrer');
  reply.header('x-robots-tag', 'noindex, nofollow');
  done();
}

export function journalShareRoutes(app: FastifyInstance, { auth, db, limits }: { auth: Auth; db: Database; limits: RateLimitStore }): void {
  const serve = routeServer(app, { auth, db });

  serve(
    journalShareApi.create,
    async ({ viewer, body, request }, reply) => {
      if (!can(await whoIs({ db, userId: viewer.user.id, role: viewer.role }), 'keep-journal')) throw new AppError('subscription/required', JOURNAL_MESSAGES.subscribeBody, 403);
      await enforceRateLimit(limits, reply, `journal-share-create:${viewer.user.id}`, request.ip, SHARE_CREATES);
      const link = await createShare({ db, userId: viewer.user.id, ...body });
      if (!link) throw new AppError('database/constraint-violation', SHARE_MESSAGES.tooMany, 409);
      return reply.status(201).send(link);
    },
    { before: [privateReply] },
  );

  serve(journalShareApi.list, async ({ viewer }) => ({ links: await listShares({ db, userId: viewer.user.id }) }), { before: [privateReply] });

  serve(
    journalShareApi.revoke,
    async ({ viewer, params }) => {
      // Another account's link answers as a missing one: nobody learns which ids exist.
      if (!(await revokeShare({ db, userId: viewer.user.id, id: params.id }))) throw new AppError('not-found', SHARE_MESSAGES.unavailable);
      return { revoked: true as const };
    },
    { before: [privateReply] },
  );

  // A shared entry, sealed: the key is in the link's fragment, never sent. Counts one view.
  serve(
    journalShareApi.read,
    async ({ params }) => {
      const shared = await readShare({ db, id: params.id });
      if (!shared) throw new AppError('not-found', SHARE_MESSAGES.unavailable);
      return shared;
    },
    // Counted before the id is even read, so malformed guesses count too.
    {
      before: [privateReply, async (request, reply) => enforceRateLimit(limits, reply, `journal-share-read:${request.ip}`, request.ip, SHARE_READS)],
      description: 'A shared entry, sealed: the key is in the link’s fragment, never sent. Counts one view.',
    },
  );
}
