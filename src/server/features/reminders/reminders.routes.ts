/**
 * Reminders API (issue 20, item 4; issue 38, item 6): the person's reminder, this browser's push
 * subscription, the one-tap off a reminder carries (push and e-mail), and the calendar file.
 */
import type { FastifyInstance } from 'fastify';
import { calendarQuery, mailOneClickBody, mailOneClickQuery, mailOneClickResponse } from '#shared/contracts/reminders.ts';
import { remindersApi } from '#shared/contracts/reminders.routes.ts';
import { REMINDER_MESSAGES } from '#shared/reminders.ts';
import { AppError } from '#server/errors.ts';
import { reminderCalendar } from '#server/features/reminders/reminder-calendar.ts';
import { turnOffMailByToken } from '#server/features/reminders/reminder-mail.ts';
import { withContracts } from '#server/api-contracts.ts';
import { requireUser, viewerOf, type Auth } from '#server/auth.ts';
import type { Database } from '#server/db/client.ts';
import { addPushDevice, getReminderSettings, removePushDevice, saveReminderSettings, turnOffByToken } from '#server/features/reminders/reminders.service.ts';
import { routeServer } from '#server/serve-route.ts';

export function remindersRoutes(
  app: FastifyInstance,
  { auth, db, pushKey, offSecret, mailOffSecret, extraPushOrigins, publicUrl }: { auth: Auth; db: Database; pushKey: string; offSecret: string; mailOffSecret: string; extraPushOrigins: readonly string[]; publicUrl: string },
): void {
  const serve = routeServer(app, { auth, db });
  const signedIn = requireUser(auth, db);

  serve(remindersApi.get, async ({ viewer: { user }, query }) => ({ ...(await getReminderSettings(db, user.id, query.tz)), pushKey, mail: { address: user.email, verified: user.emailVerified } }));

  serve(remindersApi.save, async ({ viewer: { user }, body }) => {
    await saveReminderSettings(db, user, body);
    return { ...(await getReminderSettings(db, user.id)), pushKey, mail: { address: user.email, verified: user.emailVerified } };
  });

  // The calendar file: the time and days as chosen on screen (saved or not), in the device's zone. Not JSON, so not in the route table.
  withContracts(app).get(
    '/api/reminders/calendar.ics',
    { onRequest: signedIn, schema: { tags: ['reminders'], querystring: calendarQuery, description: 'The daily reminder as a text/calendar attachment (RFC 5545): one repeating event with its VTIMEZONE.' } },
    async (request, reply) => {
      const body = reminderCalendar({ time: request.query.time, days: request.query.days, timeZone: request.query.tz, personId: viewerOf(request).user.id, publicUrl, now: new Date() });
      return reply.header('content-type', 'text/calendar; charset=utf-8').header('content-disposition', 'attachment; filename="harbour-mind-reminder.ics"').header('cache-control', 'no-store').send(body);
    },
  );

  serve(remindersApi.addDevice, async ({ viewer, body }, reply) => reply.status(201).send(await addPushDevice(db, viewer.user.id, body, extraPushOrigins)));

  serve(remindersApi.removeDevice, async ({ viewer, body }, reply) => {
    await removePushDevice(db, viewer.user.id, body.endpoint);
    return reply.status(204).send(null);
  });

  // No session needed: the service worker sends the token the reminder carried (its "Turn off reminders").
  serve(remindersApi.turnOff, async ({ body }) => {
    await turnOffByToken(db, offSecret, body.token);
    return { enabled: false as const };
  });

  // No session needed either: the button on the page an e-mail reminder links to (a GET there changes nothing).
  serve(remindersApi.mailOff, async ({ body }) => {
    const result = await turnOffMailByToken({ db, secret: mailOffSecret, token: body.token });
    if (!result) throw new AppError('validation/invalid-input', REMINDER_MESSAGES.badOffLink);
    return { result };
  });

  // A mail client's own unsubscribe button (RFC 8058): a form POST to the List-Unsubscribe address, never
  // the web's call (so not in the route table).
  // The form parser is this route's alone: everywhere else a form body stays 415.
  void app.register((scope, _options, registered) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 1024 }, (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    });
    // RFC 8058 allows either form encoding; the one field is all that is read of a multipart body.
    scope.addContentTypeParser('multipart/form-data', { parseAs: 'string', bodyLimit: 4096 }, (_request, body, done) => {
      const value = /content-disposition:\s*form-data;\s*name="List-Unsubscribe"[^\r\n]*\r?\n(?:[^\r\n]+\r?\n)*\r?\n([^\r\n]*)/i.exec(body as string)?.[1];
      done(null, value === undefined ? {} : { 'List-Unsubscribe': value });
    });
    withContracts(scope).post(
      '/api/reminders/email/one-click',
      { schema: { tags: ['reminders'], querystring: mailOneClickQuery, body: mailOneClickBody, response: { 204: mailOneClickResponse }, consumes: ['application/x-www-form-urlencoded'] } },
      async (request, reply) => {
        const result = await turnOffMailByToken({ db, secret: mailOffSecret, token: request.query.token });
        if (!result) throw new AppError('validation/invalid-input', REMINDER_MESSAGES.badOffLink);
        return reply.status(204).send(null);
      },
    );
    registered();
  });
}
