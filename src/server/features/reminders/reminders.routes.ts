/** Reminders API (issue 20, item 4): the person's reminder, this browser's push subscription, and the one-tap off a reminder carries. */
import type { FastifyInstance } from 'fastify';
import { pushDeviceBody, pushDeviceResponse, reminderSettingsBody, remindersQuery, remindersResponse, removePushDeviceBody, removePushDeviceResponse, turnOffBody, turnOffResponse } from '#shared/contracts/reminders.ts';
import { withContracts } from '#server/api-contracts.ts';
import { requireUser, viewerOf, type Auth } from '#server/auth.ts';
import type { Database } from '#server/db/client.ts';
import { addPushDevice, getReminderSettings, removePushDevice, saveReminderSettings, turnOffByToken } from '#server/features/reminders/reminders.service.ts';

export function remindersRoutes(app: FastifyInstance, { auth, db, pushKey, offSecret, extraPushOrigins }: { auth: Auth; db: Database; pushKey: string; offSecret: string; extraPushOrigins: readonly string[] }): void {
  const api = withContracts(app);
  const signedIn = requireUser(auth, db);

  api.get('/api/reminders', { onRequest: signedIn, schema: { tags: ['reminders'], querystring: remindersQuery, response: { 200: remindersResponse } } }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return { ...(await getReminderSettings(db, viewerOf(request).user.id, request.query.tz)), pushKey };
  });

  api.put('/api/reminders', { onRequest: signedIn, schema: { tags: ['reminders'], body: reminderSettingsBody, response: { 200: remindersResponse } } }, async (request) => {
    const userId = viewerOf(request).user.id;
    await saveReminderSettings(db, userId, request.body);
    return { ...(await getReminderSettings(db, userId)), pushKey };
  });

  api.post('/api/reminders/devices', { onRequest: signedIn, schema: { tags: ['reminders'], body: pushDeviceBody, response: { 201: pushDeviceResponse } } }, async (request, reply) => {
    return reply.status(201).send(await addPushDevice(db, viewerOf(request).user.id, request.body, extraPushOrigins));
  });

  api.delete('/api/reminders/devices', { onRequest: signedIn, schema: { tags: ['reminders'], body: removePushDeviceBody, response: { 204: removePushDeviceResponse } } }, async (request, reply) => {
    await removePushDevice(db, viewerOf(request).user.id, request.body.endpoint);
    return reply.status(204).send(null);
  });

  // No session needed: the service worker sends the token the reminder carried (its "Turn off reminders").
  api.post('/api/reminders/off', { schema: { tags: ['reminders'], body: turnOffBody, response: { 200: turnOffResponse } } }, async (request) => {
    await turnOffByToken(db, offSecret, request.body.token);
    return { enabled: false as const };
  });
}
