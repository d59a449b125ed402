/**
 * The files that let the web's links open the native apps (issue 19, item 1): the e-mailed
 * verification and password-reset links (shared/app-links.ts), and on Android the return of Sign in
 * with Apple from the system browser (decision 0071); the apps' other sign-ins are on the device. iOS reads
 * /.well-known/apple-app-site-association (universal links; the app's App.entitlements names this
 * domain), Android /.well-known/assetlinks.json (App Links; the manifest's autoVerify filter). Each
 * answers only when its platform is configured (APPLE_TEAM_ID, ANDROID_CERT_SHA256); otherwise 404,
 * so the links stay in the browser rather than naming an app nobody can verify.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { APP_LINK_PATHS, APPLE_RETURN_PATH } from '#shared/app-links.ts';
import { errorBody } from '#shared/contracts/errors.ts';
import { withContracts } from '#server/api-contracts.ts';
import type { Config } from '#server/config.ts';
import { AppError } from '#server/errors.ts';


const appleAssociation = z.object({
  applinks: z.object({ details: z.array(z.object({ appIDs: z.array(z.string()), components: z.array(z.object({ '/': z.string() })) })) }),
  webcredentials: z.object({ apps: z.array(z.string()) }),
});
const assetLinks = z.array(
  z.object({
    relation: z.array(z.string()),
    target: z.object({ namespace: z.literal('android_app'), package_name: z.string(), sha256_cert_fingerprints: z.array(z.string()) }),
  }),
);

export function appLinksRoutes(app: FastifyInstance, { appLinks }: Pick<Config, 'appLinks'>): void {
  const api = withContracts(app);
  const notConfigured = (platform: string) => new AppError('not-found', `No ${platform} app is associated with this site.`);

  api.get('/.well-known/apple-app-site-association', { schema: { tags: ['native'], response: { 200: appleAssociation, 404: errorBody } } }, async (_request, reply) => {
    if (!appLinks.appleTeamId) throw notConfigured('iOS');
    const appId = `${appLinks.appleTeamId}.${appLinks.appId}`;
    // Apple fetches it through its CDN, without redirects, as application/json.
    reply.header('cache-control', 'public, max-age=3600');
    // Not Apple's return: the iPhone signs in with Apple on its own sheet; only Android comes back by link (decision 0071).
    const paths = APP_LINK_PATHS.filter((path) => path !== APPLE_RETURN_PATH);
    return { applinks: { details: [{ appIDs: [appId], components: paths.map((path) => ({ '/': path })) }] }, webcredentials: { apps: [appId] } };
  });

  api.get('/.well-known/assetlinks.json', { schema: { tags: ['native'], response: { 200: assetLinks, 404: errorBody } } }, async (_request, reply) => {
    if (appLinks.androidFingerprints.length === 0) throw notConfigured('Android');
    reply.header('cache-control', 'public, max-age=3600');
    return [{ relation: ['delegate_permission/common.handle_all_urls'], target: { namespace: 'android_app' as const, package_name: appLinks.appId, sha256_cert_fingerprints: appLinks.androidFingerprints } }];
  });
}
