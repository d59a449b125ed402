/** Who may do what: the roles behind the database column, the server's checks and the admin form. */

/** Every role (spec: user_roles): the one list behind the database column, the server's checks and the form. */
export const ROLE_OPTIONS = ['user', 'admin', 'editor'] as const;
export type Role = (typeof ROLE_OPTIONS)[number];

/** The roles that run the catalogue (admins and editors): they manage meditations and may play them all. */
const STAFF_ROLES = ['admin', 'editor'] as const satisfies readonly Role[];

export function isStaff(role: Role): boolean {
  return (STAFF_ROLES as readonly Role[]).includes(role);
}
