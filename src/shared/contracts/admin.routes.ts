/**
 * The admin routes (contracts: admin.ts): the dashboard's status, the one-time setup, CSRF tokens,
 * roles, the audit and security logs, the sandbox test tools, and catalogue management (staff). The
 * multipart upload (POST /api/admin/meditations) and the original file's download stay outside the
 * table (admin-meditations.routes.ts).
 */
import type { adminSchemas } from '#shared/contracts/admin.ts';
import { defineRoutes } from '#shared/contracts/route.ts';

export const adminApi = defineRoutes<typeof adminSchemas>()('admin', { defaults: { policy: 'admin', cache: 'no-store' } }, {
  /** What the dashboard needs to decide its screens; any signed-in person may ask. */
  status: { method: 'GET', path: '/api/admin/status', policy: 'signed-in' },
  /** Redeems the one-time setup token (any signed-in person; the token is the proof). */
  setup: { method: 'POST', path: '/api/admin/setup', policy: 'signed-in' },
  csrf: { method: 'GET', path: '/api/admin/csrf' },
  roles: { method: 'GET', path: '/api/admin/roles' },
  /** Needs the x-csrf-token header (checked before the body, with the per-admin rate limit). */
  assignRole: { method: 'POST', path: '/api/admin/roles' },
  /** Needs the x-csrf-token header, as assignRole. */
  revokeRole: { method: 'DELETE', path: '/api/admin/roles/:id' },
  audit: { method: 'GET', path: '/api/admin/audit' },
  securityEvents: { method: 'GET', path: '/api/admin/security/events' },
  securityStats: { method: 'GET', path: '/api/admin/security/stats' },
  /** Sandbox only (403 elsewhere). */
  createTestAccounts: { method: 'POST', path: '/api/admin/test-accounts' },
  /** Sandbox only (403 elsewhere). */
  resetTestPasswords: { method: 'POST', path: '/api/admin/test-accounts/reset-passwords' },
  meditations: { method: 'GET', path: '/api/admin/meditations', policy: 'staff' },
  updateMeditation: { method: 'PATCH', path: '/api/admin/meditations/:id', policy: 'staff' },
  removeMeditation: { method: 'DELETE', path: '/api/admin/meditations/:id', policy: 'staff' },
});
