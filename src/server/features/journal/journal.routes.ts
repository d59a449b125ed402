/** The encrypted journal's storage and sync (issue 18; decision 0031). Every route is the signed-in owner's only. */
import type { FastifyInstance } from 'fastify';
import { journalApi } from '#shared/contracts/journal.routes.ts';
import { JOURNAL_MESSAGES } from '#shared/journal.ts';
import { can } from '#shared/policies.ts';
import { JOURNAL_LOCK_MESSAGES } from '#shared/journal-keys.ts';
import type { Auth } from '#server/auth.ts';
import type { Database } from '#server/db/client.ts';
import { AppError } from '#server/errors.ts';
import { whoIs } from '#server/features/billing/subscriptions.service.ts';
import { createKeyring, getKeyring, listRecords, recordExists, replacePassphrase, resetJournal, rotateKeyring, writeRecord } from '#server/features/journal/journal.service.ts';
import { routeServer } from '#server/serve-route.ts';

export function journalRoutes(app: FastifyInstance, { auth, db }: { auth: Auth; db: Database }): void {
  const serve = routeServer(app, { auth, db });

  serve(journalApi.keyring, async ({ viewer }) => ({ keyring: (await getKeyring(db, viewer.user.id)) as never }));

  serve(journalApi.createKeyring, async ({ viewer, body }, reply) => {
    const created = await createKeyring(db, viewer.user.id, body.keyring);
    if (!created) throw new AppError('database/constraint-violation', 'This journal is already set up on another device: unlock it with your passphrase.', 409);
    return reply.status(201).send({ keyring: body.keyring });
  });

  serve(journalApi.updateKeyring, async ({ viewer, body }) => {
    const outcome = await replacePassphrase(db, viewer.user.id, body.keyring);
    if (outcome === 'missing') throw new AppError('not-found', 'This journal is not set up yet.');
    if (outcome === 'recovery-changed') throw new AppError('database/constraint-violation', 'Only the passphrase can be changed here; the recovery key stays as it is.', 409);
    return { keyring: body.keyring };
  });

  // A new data key and recovery key (issue 36, item 3; decision 0061): exactly the next generation, atomically.
  serve(journalApi.rotateKeyring, async ({ viewer, body }) => {
    const outcome = await rotateKeyring(db, viewer.user.id, body.keyring);
    if (outcome === 'missing') throw new AppError('not-found', 'This journal is not set up yet.');
    if (outcome === 'stale') throw new AppError('journal/key-replaced');
    return { keyring: body.keyring };
  });

  // "Start a new journal" (issue 36, item 3): the typed word is checked by the contract; the owner only.
  serve(journalApi.reset, async ({ viewer, request }) => {
    const deleted = await resetJournal(db, viewer.user.id);
    request.log.info({ deletedRecords: deleted.deletedRecords }, 'journal reset');
    return deleted;
  });

  serve(journalApi.records, async ({ viewer, query }) => listRecords(db, viewer.user.id, query.after, query.limit));

  serve(journalApi.saveRecord, async ({ viewer, params, body }) => {
    const { id } = params;
    // The spec's rule: writing new entries is part of the subscription. Changing or deleting what is
    // already there is not: a lapsed subscription never holds a journal hostage.
    if (body.baseSeq === null && !(await recordExists(db, viewer.user.id, id))) {
      if (!can(await whoIs({ db, userId: viewer.user.id, role: viewer.role }), 'keep-journal')) throw new AppError('subscription/required', JOURNAL_MESSAGES.subscribeBody, 403);
    }
    const result = await writeRecord(db, viewer.user.id, id, body);
    if (result.ok) return { id, seq: result.seq };
    // Issue 33, row 3: the account's journal is at its cap. The device keeps the change and says so.
    if ('keyGeneration' in result) throw new AppError('journal/key-replaced', undefined, undefined, { generation: result.keyGeneration });
    if ('full' in result) throw new AppError('journal/full', result.full === 'records' ? JOURNAL_LOCK_MESSAGES.recordsFull : JOURNAL_LOCK_MESSAGES.bytesFull, 403, { limit: result.full });
    // The change that got there first travels with the refusal, for the device to merge and write again.
    throw new AppError('database/constraint-violation', 'This entry changed on another device.', 409, { current: result.current });
  });
}
