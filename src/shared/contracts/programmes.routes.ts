/**
 * The programmes routes (contracts: programmes.ts; decision 0051): the published list and one
 * programme (public, as the catalogue is), the signed-in person's enrolments and progress, and the
 * dashboard's management (staff: admins and editors).
 */
import type { programmesSchemas } from '#shared/contracts/programmes.ts';
import { defineRoutes } from '#shared/contracts/route.ts';

export const programmesApi = defineRoutes<typeof programmesSchemas>()('programmes', {
  list: { method: 'GET', path: '/api/programmes', policy: 'public', cache: 'no-store' },
  /** 404 for an unknown or unpublished programme. */
  get: { method: 'GET', path: '/api/programmes/:slug', policy: 'public', cache: 'no-store' },
  /** Every programme the person has started, the most recently started first. */
  mine: { method: 'GET', path: '/api/me/programmes', policy: 'signed-in', cache: 'no-store' },
  /** `progress` is null when not started; 404 for an unknown or unpublished programme. */
  progress: { method: 'GET', path: '/api/programmes/:slug/progress', policy: 'signed-in', cache: 'no-store' },
  /** Start a programme (or with restart: start it again from day 1). */
  enrol: { method: 'POST', path: '/api/programmes/:slug/enrolment', policy: 'signed-in', cache: 'no-store' },
  /** 404 when not enrolled. */
  leave: { method: 'DELETE', path: '/api/programmes/:slug/enrolment', policy: 'signed-in', cache: 'no-store' },
  /** "Don’t wait": open the day waiting for tomorrow now. */
  openNext: { method: 'POST', path: '/api/programmes/:slug/enrolment/open-next', policy: 'signed-in', cache: 'no-store' },
  adminList: { method: 'GET', path: '/api/admin/programmes', policy: 'staff', cache: 'no-store' },
  /** 201 with the new programme. */
  create: { method: 'POST', path: '/api/admin/programmes', policy: 'staff', cache: 'no-store' },
  update: { method: 'PUT', path: '/api/admin/programmes/:id', policy: 'staff', cache: 'no-store' },
  publish: { method: 'PUT', path: '/api/admin/programmes/:id/published', policy: 'staff', cache: 'no-store' },
  order: { method: 'PUT', path: '/api/admin/programmes-order', policy: 'staff', cache: 'no-store' },
  remove: { method: 'DELETE', path: '/api/admin/programmes/:id', policy: 'staff', cache: 'no-store' },
});
