/**
 * The admin routes (contracts: admin.ts): the dashboard's status, the one-time setup, CSRF tokens,
 * roles, the audit and security logs, the sandbox test tools, and catalogue management (staff). The
 * multipart upload (POST /api/admin/meditations) and the original file's download stay outside the
 * table (admin-meditations.routes.ts).
 */
import type { adminSchemas } from '#shared/contracts/admin.ts';
import { defineRoutes } from '#shared/contracts/route.ts';

export const adminApi = defineRoutes<typeof adminSchemas>()('admin', {
  /** What the dashboard needs to decide its screens; any signed-in person may ask. */
  status: { method: 'GET', path: '/api/admin/status', policy: 'signed-in', cache: 'no-store' },
  /** Redeems the one-time setup token (any signed-in person; the token is the proof). */
  setup: { method: 'POST', path: '/api/admin/setup', policy: 'signed-in', cache: 'no-store' },
  csrf: { method: 'GET', path: '/api/admin/csrf', policy: 'admin', cache: 'no-store' },
  roles: { method: 'GET', path: '/api/admin/roles', policy: 'admin', cache: 'no-store' },
  /** Needs the x-csrf-token header (checked before the body, with the per-admin rate limit). */
  assignRole: { method: 'POST', path: '/api/admin/roles', policy: 'admin', cache: 'no-store' },
  /** Needs the x-csrf-token header, as assignRole. */
  revokeRole: { method: 'DELETE', path: '/api/admin/roles/:id', policy: 'admin', cache: 'no-store' },
  audit: { method: 'GET', path: '/api/admin/audit', policy: 'admin', cache: 'no-store' },
  securityEvents: { method: 'GET', path: '/api/admin/security/events', policy: 'admin', cache: 'no-store' },
  securityStats: { method: 'GET', path: '/api/admin/security/stats', policy: 'admin', cache: 'no-store' },
  /** Sandbox only (403 elsewhere). */
  createTestAccounts: { method: 'POST', path: '/api/admin/test-accounts', policy: 'admin', cache: 'no-store' },
  /** Sandbox only (403 elsewhere). */
  resetTestPasswords: { method: 'POST', path: '/api/admin/test-accounts/reset-passwords', policy: 'admin', cache: 'no-store' },
  meditations: { method: 'GET', path: '/api/admin/meditations', policy: 'staff', cache: 'no-store' },
  updateMeditation: { method: 'PATCH', path: '/api/admin/meditations/:id', policy: 'staff', cache: 'no-store' },
  removeMeditation: { method: 'DELETE', path: '/api/admin/meditations/:id', policy: 'staff', cache: 'no-store' },
});
