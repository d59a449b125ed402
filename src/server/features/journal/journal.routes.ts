/** The encrypted journal's storage and sync (issue 18; decision 0031). Every route is the signed-in owner's only. */
import type { FastifyInstance } from 'fastify';
import { keyringBody, keyringResponse, recordBody, rotationBody, recordParams, recordsQuery, recordsResponse, recordWriteResponse, resetBody, resetResponse } from '#shared/contracts/journal.ts';
import { JOURNAL_MESSAGES } from '#shared/journal.ts';
import { JOURNAL_LOCK_MESSAGES } from '#shared/journal-keys.ts';
import { withContracts } from '#server/api-contracts.ts';
import { requireUser, viewerOf, type Auth } from '#server/auth.ts';
import type { Database } from '#server/db/client.ts';
import { AppError } from '#server/errors.ts';
import { getEntitlement } from '#server/features/billing/subscriptions.service.ts';
import { createKeyring, getKeyring, listRecords, recordExists, replacePassphrase, resetJournal, rotateKeyring, writeRecord } from '#server/features/journal/journal.service.ts';

export function journalRoutes(app: FastifyInstance, { auth, db }: { auth: Auth; db: Database }): void {
  const api = withContracts(app);
  const signedIn = requireUser(auth, db);

  api.get('/api/journal/keyring', { onRequest: signedIn, schema: { tags: ['journal'], response: { 200: keyringResponse } } }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return { keyring: (await getKeyring(db, viewerOf(request).user.id)) as never };
  });

  api.post('/api/journal/keyring', { onRequest: signedIn, schema: { tags: ['journal'], body: keyringBody, response: { 201: keyringResponse } } }, async (request, reply) => {
    const created = await createKeyring(db, viewerOf(request).user.id, request.body.keyring);
    if (!created) throw new AppError('database/constraint-violation', 'This journal is already set up on another device: unlock it with your passphrase.', 409);
    return reply.status(201).send({ keyring: request.body.keyring });
  });

  api.put('/api/journal/keyring', { onRequest: signedIn, schema: { tags: ['journal'], body: keyringBody, response: { 200: keyringResponse } } }, async (request) => {
    const outcome = await replacePassphrase(db, viewerOf(request).user.id, request.body.keyring);
    if (outcome === 'missing') throw new AppError('not-found', 'This journal is not set up yet.');
    if (outcome === 'recovery-changed') throw new AppError('database/constraint-violation', 'Only the passphrase can be changed here; the recovery key stays as it is.', 409);
    return { keyring: request.body.keyring };
  });

  // A new data key and recovery key (issue 36, item 3; decision 0061): exactly the next generation, atomically.
  api.post('/api/journal/keyring/rotation', { onRequest: signedIn, schema: { tags: ['journal'], body: rotationBody, response: { 200: keyringResponse } } }, async (request) => {
    const outcome = await rotateKeyring(db, viewerOf(request).user.id, request.body.keyring);
    if (outcome === 'missing') throw new AppError('not-found', 'This journal is not set up yet.');
    if (outcome === 'stale') throw new AppError('journal/key-replaced');
    return { keyring: request.body.keyring };
  });

  // "Start a new journal" (issue 36, item 3): the typed word is checked by the contract; the owner only.
  api.post('/api/journal/reset', { onRequest: signedIn, schema: { tags: ['journal'], body: resetBody, response: { 200: resetResponse } } }, async (request) => {
    const deleted = await resetJournal(db, viewerOf(request).user.id);
    request.log.info({ deletedRecords: deleted.deletedRecords }, 'journal reset');
    return deleted;
  });

  api.get('/api/journal/records', { onRequest: signedIn, schema: { tags: ['journal'], querystring: recordsQuery, response: { 200: recordsResponse } } }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return listRecords(db, viewerOf(request).user.id, request.query.after, request.query.limit);
  });

  api.put(
    '/api/journal/records/:id',
    { onRequest: signedIn, schema: { tags: ['journal'], params: recordParams, body: recordBody, response: { 200: recordWriteResponse } } },
    async (request) => {
      const viewer = viewerOf(request);
      const { id } = request.params;
      // The spec's rule: writing new entries is part of the subscription. Changing or deleting what is
      // already there is not: a lapsed subscription never holds a journal hostage.
      if (request.body.baseSeq === null && !(await recordExists(db, viewer.user.id, id))) {
        const entitlement = await getEntitlement({ db, userId: viewer.user.id, role: viewer.role });
        if (!entitlement.subscribed) throw new AppError('subscription/required', JOURNAL_MESSAGES.subscribeBody, 403);
      }
      const result = await writeRecord(db, viewer.user.id, id, request.body);
      if (result.ok) return { id, seq: result.seq };
      // Issue 33, row 3: the account's journal is at its cap. The device keeps the change and says so.
      if ('keyGeneration' in result) throw new AppError('journal/key-replaced', undefined, undefined, { generation: result.keyGeneration });
      if ('full' in result) throw new AppError('journal/full', result.full === 'records' ? JOURNAL_LOCK_MESSAGES.recordsFull : JOURNAL_LOCK_MESSAGES.bytesFull, 403, { limit: result.full });
      // The change that got there first travels with the refusal, for the device to merge and write again.
      throw new AppError('database/constraint-violation', 'This entry changed on another device.', 409, { current: result.current });
    },
  );
}
