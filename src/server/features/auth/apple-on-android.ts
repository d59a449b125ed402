/**
 * Sign in with Apple on Android (issue 35, item 4; decision 0071). Android has no Apple sheet, so the
 * app opens Apple's own page in the system browser and the answer comes back to the app by an App Link.
 * A link can be opened by anything that claims it, so what it carries is worth nothing alone: the app
 * starts with a proof key (PKCE, RFC 7636: the S256 challenge of a verifier it keeps), and only the
 * holder of the verifier can turn the link's one-time code into a session.
 *
 * 1. GET  /api/native/apple/start?challenge=  (system browser) records the challenge and hands over to
 *    better-auth's Apple redirect flow, to come back to step 2 whatever happens.
 * 2. GET  /api/native/apple/return?flow=      (system browser, after better-auth's callback) takes the
 *    session better-auth has just made in that browser, turns it into a one-time code for the flow's
 *    challenge, signs that browser out again, and sends it to the App Link with the code (or an error).
 * 3. POST /api/native/apple/redeem { code, verifier }  (the app) deletes the flow, checks the verifier
 *    against its challenge, and answers with a new session in `set-auth-token`, never a cookie.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { and, eq, gt, isNull, lt } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { APPLE_RETURN_PATH } from '#shared/app-links.ts';
import { authApi } from '#shared/contracts/auth.routes.ts';
import { APPLE_IN_BROWSER_MESSAGES, PKCE_CHALLENGE, type AppleReturnError } from '#shared/native-sign-in.ts';
import { withContracts } from '#server/api-contracts.ts';
import { authHeaders, type Auth } from '#server/auth.ts';
import type { Database } from '#server/db/client.ts';
import { account, nativeSignInFlows, user } from '#server/db/schema/auth.ts';
import { AppError } from '#server/errors.ts';
import { logSecurityEvent } from '#server/features/security/security-audit.service.ts';
import { routeServer } from '#server/serve-route.ts';

/** How long the person has at Apple's page; and how long the return link's code lasts once made. */
const FLOW_MS = 10 * 60_000;
const CODE_MS = 2 * 60_000;

const sha256 = (value: string) => createHash('sha256').update(value).digest('base64url');
const sameText = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

const startQuery = z.object({ challenge: z.string(APPLE_IN_BROWSER_MESSAGES.expired).regex(PKCE_CHALLENGE, APPLE_IN_BROWSER_MESSAGES.expired) });
/** A flow's id as the start made it (24 random bytes, base64url): anything else, a NUL byte included, never reaches the database. */
const returnQuery = z.object({ flow: z.string().regex(/^[A-Za-z0-9_-]{32}$/, APPLE_IN_BROWSER_MESSAGES.expired), error: z.string().max(200).optional() });
const redirect = { 302: z.null().describe('To the next step: Apple’s page, or the app’s return link.') };

type Deps = { auth: Auth; db: Database; publicUrl: string; appleConfigured: boolean };

export function appleOnAndroidRoutes(app: FastifyInstance, { auth, db, publicUrl, appleConfigured }: Deps): void {
  const api = withContracts(app);
  const serve = routeServer(app, { auth, db });

  /** To the app, through its App Link (in a browser without the app, the web's page says to open the app). */
  const toApp = (reply: FastifyReply, answer: { code: string } | { error: AppleReturnError }) =>
    reply.header('cache-control', 'no-store').redirect(`${new URL(APPLE_RETURN_PATH, publicUrl).href}?${new URLSearchParams(answer).toString()}`, 302);
  /** better-auth's cookies for this browser (its OAuth state going out; the sign-out's expiry coming back). */
  const passCookies = (reply: FastifyReply, headers: Headers) => {
    const cookies = headers.getSetCookie();
    if (cookies.length > 0) reply.header('set-cookie', cookies);
  };

  api.get(
    '/api/native/apple/start',
    { schema: { tags: ['auth'], description: 'Sign in with Apple on Android, opened in the system browser with the app’s PKCE challenge (S256): on to Apple’s page through better-auth’s redirect flow.', querystring: startQuery, response: redirect } },
    async (request, reply) => {
      if (!appleConfigured) return toApp(reply, { error: 'unavailable' });
      // Flows nobody finished are of no use to anyone after their ten minutes.
      await db.delete(nativeSignInFlows).where(lt(nativeSignInFlows.expiresAt, new Date()));
      const id = randomBytes(24).toString('base64url');
      // On this process's clock, as better-auth dates the session the return step compares it with (a database on
      // another host may keep another time).
      const now = Date.now();
      await db.insert(nativeSignInFlows).values({ id, challenge: request.query.challenge, createdAt: new Date(now), expiresAt: new Date(now + FLOW_MS) });
      const returnTo = `/api/native/apple/return?flow=${id}`;
      const { headers, response } = await auth.api.signInSocial({ body: { provider: 'apple', callbackURL: returnTo, errorCallbackURL: returnTo }, headers: authHeaders(request), returnHeaders: true });
      // The id-token branch of better-auth's answer has no address; the redirect flow always does.
      if (typeof response.url !== 'string') return toApp(reply, { error: 'failed' });
      passCookies(reply, headers);
      return reply.header('cache-control', 'no-store').redirect(response.url, 302);
    },
  );

  api.get(
    '/api/native/apple/return',
    { schema: { tags: ['auth'], description: 'Where better-auth’s Apple callback sends the system browser: the session it made there becomes a one-time code for the app (by App Link), and that browser is signed out.', querystring: returnQuery, response: redirect } },
    async (request, reply) => {
      const { flow: id, error } = request.query;
      const flow = (await db.select().from(nativeSignInFlows).where(and(eq(nativeSignInFlows.id, id), gt(nativeSignInFlows.expiresAt, new Date()), isNull(nativeSignInFlows.codeHash)))).at(0);
      if (!flow) return toApp(reply, { error: 'expired' });
      if (error !== undefined) {
        await db.delete(nativeSignInFlows).where(eq(nativeSignInFlows.id, id));
        // Apple's 'user_cancelled_authorize' when the person closes its page; anything else failed.
        return toApp(reply, { error: /cancel|denied/i.test(error) ? 'cancelled' : 'failed' });
      }
      const headers = authHeaders(request);
      const signedIn = await auth.api.getSession({ headers });
      // Only a session made by this sign-in, with Apple: never one the browser already had (someone signed in
      // on the web there, whose callback failed) handed to whoever started the flow.
      const viaApple = signedIn ? await db.select({ id: account.id }).from(account).where(and(eq(account.userId, signedIn.user.id), eq(account.providerId, 'apple'))) : [];
      if (!signedIn || signedIn.session.createdAt < flow.createdAt || viaApple.length === 0) {
        await db.delete(nativeSignInFlows).where(eq(nativeSignInFlows.id, id));
        return toApp(reply, { error: 'failed' });
      }
      const code = randomBytes(32).toString('base64url');
      const claimed = await db
        .update(nativeSignInFlows)
        .set({ userId: signedIn.user.id, codeHash: sha256(code), expiresAt: new Date(Date.now() + CODE_MS) })
        .where(and(eq(nativeSignInFlows.id, id), isNull(nativeSignInFlows.codeHash)))
        .returning({ id: nativeSignInFlows.id });
      // The app gets its own session; the one in the system browser ends here, so no one finds it signed in there.
      const signedOut = await auth.api.signOut({ headers, returnHeaders: true });
      passCookies(reply, signedOut.headers);
      if (claimed.length === 0) return toApp(reply, { error: 'expired' });
      return toApp(reply, { code });
    },
  );

  serve(
    authApi.appleRedeem,
    async ({ body, request }, reply) => {
      const flow = (
        await db
          .delete(nativeSignInFlows)
          .where(and(eq(nativeSignInFlows.codeHash, sha256(body.code)), gt(nativeSignInFlows.expiresAt, new Date())))
          .returning()
      ).at(0);
      // One answer for a used, late, unknown or mismatched code: nothing to learn from trying.
      if (!flow?.userId || !sameText(sha256(body.verifier), flow.challenge)) throw new AppError('auth/invalid-token', APPLE_IN_BROWSER_MESSAGES.expired, 400);
      const created = await (await auth.$context).internalAdapter.createSession(flow.userId, false, { ipAddress: request.ip, userAgent: request.headers['user-agent'] ?? '' });
      const [person] = await db.select({ id: user.id, email: user.email, name: user.name }).from(user).where(eq(user.id, flow.userId));
      await logSecurityEvent({ db, eventType: 'user_login', severity: 'low', userId: person.id, userEmail: person.email, ipAddress: request.ip, details: { method: 'apple', via: 'system-browser' } });
      // The bearer plugin signs an unsigned token itself on every request; the app keeps it as any other sign-in's.
      reply.header('set-auth-token', created.token);
      return { user: person };
    },
    { description: 'Sign in with Apple on Android, last step: the one-time code the return link brought and the verifier of the challenge the sign-in started with, for a session in `set-auth-token` (decision 0071). A code works once, for two minutes.' },
  );
}
