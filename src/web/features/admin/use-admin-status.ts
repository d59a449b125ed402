/** The dashboard's view of who is asking (/api/admin/status); the server still checks every action. */
import { useQuery } from '@tanstack/react-query';
import type { AdminStatus } from '#shared/contracts/admin.ts';
import { api } from '#web/lib/api.ts';

export const ADMIN_STATUS_KEY = ['admin-status'] as const;

export function useAdminStatus() {
  return useQuery({ queryKey: ADMIN_STATUS_KEY, queryFn: ({ signal }) => api<AdminStatus>('/api/admin/status', { signal }) });
}
