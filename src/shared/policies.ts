/**
 * Who may do what, in one place (issue 34, item 2).
 * - `can(who, action, resource?)`: the rules themselves, read by the server before it acts and by the
 *   web before it offers (a locked card, the admin link). The web's answer is only a courtesy: the
 *   server asks the same function again with what it knows itself.
 * - Policies: each route in the table (src/shared/contracts/route.ts) names one; the server enforces it
 *   before the handler runs (src/server/serve-route.ts), and a test walks the table asking each route
 *   as every kind of caller (src/server/route-table.test.ts).
 */
import { isStaff, type Role } from '#shared/roles.ts';

/** The caller as the rules see them: null for a visitor. `subscribed` is the entitlement (staff have it too). */
export type Who = { userId: string; role: Role; subscribed: boolean } | null;

const RULES = {
  /** A meditation: a free one for anyone, the rest for subscribers. */
  listen: (who: Pick<NonNullable<Who>, 'subscribed'> | null, meditation: { free: boolean }) => meditation.free || Boolean(who?.subscribed),
  /**
   * A new journal entry, or a link that shows one: part of the subscription. Changing or deleting
   * what is already written is not (a lapsed subscription never holds a journal hostage).
   */
  'keep-journal': (who: Pick<NonNullable<Who>, 'subscribed'> | null) => Boolean(who?.subscribed),
  /** The catalogue and programmes in the dashboard: admins and editors. */
  'run-catalogue': (who: Pick<NonNullable<Who>, 'role'> | null) => who !== null && isStaff(who.role),
  /** Roles, the audit trail, site settings: admins. */
  administer: (who: Pick<NonNullable<Who>, 'role'> | null) => who?.role === 'admin',
  /** Taking a role away: an admin's, and never their own (nobody locks themselves out by a slip). */
  'revoke-role': (who: Pick<NonNullable<Who>, 'role' | 'userId'> | null, grant: { userId: string }) => who?.role === 'admin' && grant.userId !== who.userId,
};

export type Action = keyof typeof RULES;
type Rule<A extends Action> = (typeof RULES)[A];

/** Whether `who` may do `action` (to `resource`, for the rules about one thing). */
export function can<A extends Action>(who: Parameters<Rule<A>>[0], action: A, ...resource: Parameters<Rule<A>> extends [unknown, infer R] ? [R] : []): boolean {
  return (RULES[action] as (who: unknown, resource?: unknown) => boolean)(who, resource[0]);
}

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
      return can(viewer, 'run-catalogue');
    case 'admin':
      return can(viewer, 'administer');
  }
}

/** Whether the policy needs a signed-in caller at all (a visitor is told 401, a signed-in one without the role 403). */
export const needsSession = (policy: Policy): boolean => policy !== 'public' && policy !== 'public-with-viewer';
