/** The media routes of the JSON API (contracts: media.ts); the signed audio stream itself is not JSON and stays outside the table. */
import type { mediaSchemas } from '#shared/contracts/media.ts';
import { defineRoutes } from '#shared/contracts/route.ts';

export const mediaApi = defineRoutes<typeof mediaSchemas>()('media', {
  /** A short-lived signed audio URL: the free samples for anyone, the rest for subscribers (the service decides: 401/403). */
  playback: { method: 'GET', path: '/api/meditations/:id/playback', policy: 'public-with-viewer', cache: 'no-store' },
});
