/**
 * The programmes routes (contracts: programmes.ts; decision 0051): the published list and one
 * programme (public, as the catalogue is), the signed-in person's enrolments and progress, and the
 * dashboard's management (staff: admins and editors).
 */
import type { programmesSchemas } from '#shared/contracts/programmes.ts';
import { defineRoutes } from '#shared/contracts/route.ts';

export const programmesApi = defineRoutes<typeof programmesSchemas>()('programmes', { defaults: { policy: 'signed-in', cache: 'no-store' } }, {
  list: { method: 'GET', path: '/api/programmes', policy: 'public' },
  /** 404 for an unknown or unpublished programme. */
  get: { method: 'GET', path: '/api/programmes/:slug', policy: 'public' },
  /** Every programme the person has started, the most recently started first. */
  mine: { method: 'GET', path: '/api/me/programmes' },
  /** `progress` is null when not started; 404 for an unknown or unpublished programme. */
  progress: { method: 'GET', path: '/api/programmes/:slug/progress' },
  /** Start a programme (or with restart: start it again from day 1). */
  enrol: { method: 'POST', path: '/api/programmes/:slug/enrolment' },
  /** 404 when not enrolled. */
  leave: { method: 'DELETE', path: '/api/programmes/:slug/enrolment' },
  /** "Don’t wait": open the day waiting for tomorrow now. */
  openNext: { method: 'POST', path: '/api/programmes/:slug/enrolment/open-next' },
  adminList: { method: 'GET', path: '/api/admin/programmes', policy: 'staff' },
  /** 201 with the new programme. */
  create: { method: 'POST', path: '/api/admin/programmes', policy: 'staff' },
  update: { method: 'PUT', path: '/api/admin/programmes/:id', policy: 'staff' },
  publish: { method: 'PUT', path: '/api/admin/programmes/:id/published', policy: 'staff' },
  order: { method: 'PUT', path: '/api/admin/programmes-order', policy: 'staff' },
  remove: { method: 'DELETE', path: '/api/admin/programmes/:id', policy: 'staff' },
});
