/**
 * The calls the practice-session suites make (timer-sessions.test.ts, breathing-sessions.test.ts):
 * record a session, read the summary and the stored rows, and check a refusal.
 */
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import type { practiceApi } from '#shared/contracts/practice.routes.ts';
import type { ReplyOf } from '#shared/contracts/route.ts';
import { meditationSessions } from '#server/db/schema/practice.ts';
import { origin } from '#tests/setup/auth-helpers.ts';
import type { TestApp } from '#tests/setup/test-app.ts';

/** What GET /api/practice answers. */
type Summary = ReplyOf<typeof practiceApi.summary>;

export function sessionCalls(t: TestApp) {
  const post = (cookie: string, payload: object) => t.app.inject({ method: 'POST', url: '/api/sessions', headers: { ...origin(t), cookie }, payload });
  const summary = async (cookie: string) => (await t.app.inject({ method: 'GET', url: '/api/practice?tz=UTC', headers: { cookie } })).json<Summary>();
  const rows = (clientId: string) => t.database.db.select().from(meditationSessions).where(eq(meditationSessions.clientId, clientId));
  /** Sends `body` (which carries its `id`): it must be refused with a 400 whose message holds `message`, and nothing stored. */
  async function expectRefused(cookie: string, body: object, message: string) {
    const res = await post(cookie, body);
    expect(res.statusCode).toBe(400);
    expect(res.json<{ error: { message: string } }>().error.message).toContain(message);
    expect(await rows((body as { id: string }).id)).toHaveLength(0);
  }
  return { post, summary, rows, expectRefused };
}
