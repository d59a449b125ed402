/** Account data contracts (issue 18): deleting an account. The export is a documented JSON file (docs/data-export.md). */
import { z } from 'zod';
import { ACCOUNT_MESSAGES, DELETE_CONFIRMATION_WORD } from '#shared/account-messages.ts';
import type { SchemaTable } from '#shared/contracts/route.ts';

const deleteAccountBody = z.object({
  /** Required when the account has a password; Apple and Google accounts prove themselves with a fresh sign-in instead. */
  password: z.string().max(128).optional(),
  confirmation: z.string(ACCOUNT_MESSAGES.deleteConfirmWrong).max(32).refine((value) => value.trim() === DELETE_CONFIRMATION_WORD, ACCOUNT_MESSAGES.deleteConfirmWrong),
});

const deleteAccountResponse = z.object({
  deleted: z.literal(true),
  /** Set when an App Store subscription is still running: only the person can cancel it, in Settings. */
  appStoreSubscription: z.boolean(),
});

/** What Account › Your data needs before deleting: how to prove it is them, and what happens to their subscription. */
const deletionInfoResponse = z.object({
  hasPassword: z.boolean(),
  subscription: z.enum(['none', 'stripe', 'sandbox', 'app_store', 'play_store']),
});
export type DeletionInfoResponse = z.infer<typeof deletionInfoResponse>;

const when = z.string().nullable();
/** GET /api/account/export: everything the server holds about the signed-in person (docs/data-export.md). */
const accountExportResponse = z.object({
  format: z.number(),
  exportedAt: z.string(),
  profile: z.object({ id: z.string(), name: z.string(), email: z.string(), emailVerified: z.boolean(), createdAt: when, updatedAt: when }),
  signInMethods: z.array(z.object({ provider: z.string(), since: when })),
  sessions: z.array(z.object({ signedInAt: when, expiresAt: when, ipAddress: z.string().nullable(), device: z.string().nullable() })),
  role: z.string(),
  subscription: z
    .object({
      provider: z.string(),
      plan: z.string(),
      status: z.string(),
      providerCustomerId: z.string().nullable(),
      providerSubscriptionId: z.string().nullable(),
      currentPeriodEnd: when,
      trialStart: when,
      trialEnd: when,
      cancelAtPeriodEnd: z.boolean(),
      createdAt: when,
      updatedAt: when,
    })
    .nullable(),
  appStorePurchases: z.array(z.object({ originalTransactionId: z.string(), linkedAt: when })),
  favourites: z.array(z.object({ meditationId: z.string(), title: z.string().nullable(), savedAt: when })),
  completedSessions: z.array(z.object({ meditationId: z.string().nullable(), title: z.string().nullable(), minutes: z.number().nullable(), completedAt: when, complete: z.boolean() })),
  playbackPositions: z.array(z.object({ meditationId: z.string(), title: z.string().nullable(), positionSeconds: z.number(), updatedAt: when })),
  practicePreferences: z.object({ showStreaks: z.boolean(), focus: z.string().nullable() }),
  /** The daily reminder and the browsers that receive it (their push addresses; the keys to encrypt for them are not shown). */
  reminders: z.object({
    settings: z.object({ enabled: z.boolean(), time: z.string(), days: z.array(z.number()), timeZone: z.string() }).nullable(),
    devices: z.array(z.object({ pushService: z.string(), addedAt: when, lastSentAt: when.nullable() })),
  }),
  waitlist: z.object({ name: z.string(), email: z.string(), reason: z.string().nullable(), joinedAt: when }).nullable(),
  securityEvents: z.array(z.object({ type: z.string(), severity: z.string(), ipAddress: z.string().nullable(), details: z.record(z.string(), z.unknown()), at: when })),
  adminActions: z.array(z.object({ action: z.string(), resource: z.string(), targetId: z.string().nullable(), severity: z.string(), at: when })),
  journal: z.object({ encryptedRecords: z.number(), hasKeyring: z.boolean() }),
  /** Entries shared by link (decision 0050): when, until when, how often opened; their keys were only ever in the links. */
  sharedJournalLinks: z.array(z.object({ id: z.string(), createdAt: when, expiresAt: when, views: z.number() })),
  /** Programmes started (decision 0051): which, since when, in which time zone, and the day opened early; progress is derived from the sessions. */
  programmes: z.array(z.object({ slug: z.string(), title: z.string(), startedAt: when, timeZone: z.string(), openedEarly: z.number() })),
});

/** The account routes' contracts, by route name (their method, path and policy: account.routes.ts). */
export const accountSchemas = {
  export: { response: accountExportResponse },
  deletion: { response: deletionInfoResponse },
  delete: { body: deleteAccountBody, response: deleteAccountResponse },
} satisfies SchemaTable;
