/** The dashboard's view of who is asking (/api/admin/status); the server still checks every action. */
import { useQuery } from '@tanstack/react-query';
import { adminApi } from '#shared/contracts/admin.routes.ts';
import { queryKeyOf } from '#shared/contracts/route.ts';
import { call } from '#web/lib/call.ts';

export const ADMIN_STATUS_KEY = queryKeyOf(adminApi.status);

export function useAdminStatus() {
  return useQuery({ queryKey: ADMIN_STATUS_KEY, queryFn: ({ signal }) => call(adminApi.status, {}, { signal }) });
}
