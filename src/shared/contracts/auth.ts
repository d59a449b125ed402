import type { Role } from '#shared/admin.ts';

/** What GET /api/me answers: the signed-in user and role, or nulls. */
export type MeResponse = {
  user: { id: string; email: string; name: string; emailVerified: boolean; createdAt: string } | null;
  role: Role | null;
  subscribed: boolean;
  session?: { expiresAt: string };
  /** Sign-in methods linked to the account ('credential', 'google', 'apple'). */
  providers?: string[];
};

export type AuthProviders = { google: boolean; apple: boolean };
