/**
 * Accounts (better-auth's documented user/session/account/verification fields, written by hand:
 * its drizzle generator does not support drizzle-orm 0.45), roles, Apple tokens, Apple-on-Android sign-ins and the rate-limit counters (the security log: security.ts).
 */
import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import type { Role } from '#shared/roles.ts';
import { stampedAt, timestampTz, timestamps } from './columns.ts';

export const user = pgTable('user', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  email: text('email').notNull().unique(),
  emailVerified: boolean('email_verified').notNull().default(false),
  image: text('image'),
  /**
   * Given to the iOS app, which passes it to StoreKit as the purchase's appAccountToken; Apple signs
   * it into every transaction, so validate-receipt can tell whose purchase it is. Filled by the
   * database for new rows (and for existing ones by migration 0005).
   */
  appAccountToken: uuid('app_account_token').notNull().unique().defaultRandom(),
  ...timestamps,
});

/** The account a row belongs to, removed with it: deleting an account is one DELETE of its user row. */
export const ownerId = () =>
  text('user_id')
    .notNull()
    .references(() => user.id, { onDelete: 'cascade' });

export const session = pgTable(
  'session',
  {
    id: text('id').primaryKey(),
    expiresAt: timestampTz('expires_at').notNull(),
    token: text('token').notNull().unique(),
    ipAddress: text('ip_address'),
    userAgent: text('user_agent'),
    userId: ownerId(),
    ...timestamps,
  },
  (t) => [index('session_user_id_idx').on(t.userId)],
);

export const account = pgTable(
  'account',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id').notNull(),
    providerId: text('provider_id').notNull(),
    userId: ownerId(),
    accessToken: text('access_token'),
    refreshToken: text('refresh_token'),
    idToken: text('id_token'),
    accessTokenExpiresAt: timestampTz('access_token_expires_at'),
    refreshTokenExpiresAt: timestampTz('refresh_token_expires_at'),
    scope: text('scope'),
    password: text('password'),
    ...timestamps,
  },
  (t) => [index('account_user_id_idx').on(t.userId)],
);

/**
 * Apple's refresh token from the apps' Sign in with Apple (issue 35, item 7; decision 0064): the server
 * exchanges the app's authorization code at Apple's token endpoint for the app's bundle id, and keeps the
 * token sealed with the auth secret (better-auth's token encryption), only to revoke it when the account
 * is deleted. The web's redirect flow keeps its own in `account.refresh_token` (the Services ID's).
 */
export const appleRefreshTokens = pgTable('apple_refresh_tokens', {
  accountId: text('account_id')
    .primaryKey()
    .references(() => account.id, { onDelete: 'cascade' }),
  /** The OAuth client the token was issued to: the revocation must name the same one. */
  clientId: text('client_id').notNull(),
  /** Sealed (XChaCha20-Poly1305 with a key from the auth secret), never the token itself. */
  refreshToken: text('refresh_token').notNull(),
  updatedAt: stampedAt('updated_at'),
});

/**
 * Revocations owed to Apple for deleted accounts, written in the deletion's transaction and sent right
 * after it, then retried by a job until Apple takes them (decision 0064). Nothing here says whose account
 * it was: the client, the sealed token and the attempts.
 */
export const appleTokenRevocations = pgTable(
  'apple_token_revocations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    clientId: text('client_id').notNull(),
    /** Sealed like apple_refresh_tokens.refresh_token. */
    token: text('token').notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: stampedAt('next_attempt_at'),
    lastError: text('last_error'),
    createdAt: stampedAt('created_at'),
  },
  (t) => [index('apple_token_revocations_due_idx').on(t.nextAttemptAt)],
);

/**
 * Sign in with Apple on Android (decision 0071), one row a sign-in, for minutes: the app's proof key
 * (the S256 challenge of a verifier only the app holds) from when the system browser opened Apple's
 * page, and once Apple has answered, the account and the hash of the one-time code the return link
 * carries. Redeeming deletes the row: a code works once, and only with the verifier.
 */
export const nativeSignInFlows = pgTable(
  'native_sign_in_flows',
  {
    /** Random, in the return address Apple's answer comes back through. */
    id: text('id').primaryKey(),
    challenge: text('challenge').notNull(),
    userId: text('user_id').references(() => user.id, { onDelete: 'cascade' }),
    /** SHA-256 of the one-time code, never the code. */
    codeHash: text('code_hash').unique(),
    expiresAt: timestampTz('expires_at').notNull(),
    createdAt: stampedAt('created_at'),
  },
  (t) => [index('native_sign_in_flows_expires_idx').on(t.expiresAt)],
);

export const verification = pgTable(
  'verification',
  {
    id: text('id').primaryKey(),
    identifier: text('identifier').notNull(),
    value: text('value').notNull(),
    expiresAt: timestampTz('expires_at').notNull(),
    ...timestamps,
  },
  (t) => [index('verification_identifier_idx').on(t.identifier)],
);

/** One role per user (spec: user_roles with user_id, role, assigned_by, assigned_at). */
export const userRoles = pgTable(
  'user_roles',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: ownerId().unique(),
    role: text('role').$type<Role>().notNull(),
    assignedBy: text('assigned_by').references(() => user.id, { onDelete: 'set null' }),
    assignedAt: stampedAt('assigned_at'),
  },
  (t) => [check('user_roles_role_check', sql`${t.role} in ('user', 'admin', 'editor')`)],
);

/** Fixed-window counters for server-side rate limits when no Redis is configured. */
export const rateLimits = pgTable('rate_limits', {
  key: text('key').primaryKey(),
  count: integer('count').notNull(),
  resetAt: timestampTz('reset_at').notNull(),
  blockedUntil: timestampTz('blocked_until'),
  ipAddress: text('ip_address'),
});

/**
 * better-auth's own request limiter's counters. Unused since that limiter was turned off (decision
 * 0070): kept for one release so a process of the previous one, still serving during a rolling
 * deploy, does not fail its sign-ins on a missing table; a later migration drops it.
 */
export const authRateLimit = pgTable('auth_rate_limit', {
  id: text('id').primaryKey(),
  key: text('key').notNull().unique(),
  count: integer('count').notNull(),
  lastRequest: bigint('last_request', { mode: 'number' }).notNull(),
});
