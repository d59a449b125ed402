/**
 * Who may call a route: each route in the table (src/shared/contracts/route.ts) names one policy, the
 * server enforces it before the handler runs (src/server/serve-route.ts), and a test walks the table
 * asking each route as every kind of caller (src/server/route-table.test.ts).
 */
import { isStaff, type Role } from '#shared/roles.ts';

export const POLICIES = {
  /** Anyone; the server does not read who asks (public catalogue, health, webhooks that prove themselves by signature or token). */
  public: 'anyone, without reading a session',
  /** Anyone; a signed-in caller is known to the handler (a free sample plays for all, the rest for subscribers). */
  'public-with-viewer': 'anyone, with the session read when there is one',
  'signed-in': 'a signed-in account',
  staff: 'an admin or editor (they run the catalogue)',
  admin: 'an admin',
} as const;

export type Policy = keyof typeof POLICIES;

/** The caller as a policy sees it: null for a visitor. */
export type PolicyViewer = { role: Role } | null;

/** Whether the policy lets this caller in. */
export function allows(policy: Policy, viewer: PolicyViewer): boolean {
  switch (policy) {
    case 'public':
    case 'public-with-viewer':
      return true;
    case 'signed-in':
      return viewer !== null;
    case 'staff':
      return viewer !== null && isStaff(viewer.role);
    case 'admin':
      return viewer?.role === 'admin';
  }
}

/** Whether the policy needs a signed-in caller at all (a visitor is told 401, a signed-in one without the role 403). */
export const needsSession = (policy: Policy): boolean => policy !== 'public' && policy !== 'public-with-viewer';
