/**
 * Admin API contracts (admin document §2–§9): the dashboard status, the one-time setup, CSRF tokens,
 * roles, the audit and security logs, the sandbox test tools and catalogue management.
 */
import { z } from 'zod';
import { ADMIN_MESSAGES as M, EVENT_TYPE_OPTIONS, SEVERITY_OPTIONS } from '#shared/admin.ts';
import { ROLE_OPTIONS } from '#shared/roles.ts';
import { hasControlCharacters } from '#shared/validation.ts';
import { meditationIdParams } from '#shared/contracts/catalogue.ts';
import type { SchemaTable } from '#shared/contracts/route.ts';

const severitySchema = z.enum(SEVERITY_OPTIONS);
const detailsSchema = z.record(z.string(), z.unknown());

// ---- status and setup

const adminStatusResponse = z.object({
  role: z.enum(ROLE_OPTIONS),
  isAdmin: z.boolean(),
  canManageMeditations: z.boolean(),
  adminExists: z.boolean(),
  sandbox: z.boolean(),
  authMode: z.string(),
});
export type AdminStatus = z.infer<typeof adminStatusResponse>;

const setupBody = z.object({ token: z.string().trim().min(1, M.setupTokenInvalid).max(200) });
const setupResponse = z.object({ role: z.literal('admin'), message: z.string() });

const csrfResponse = z.object({ token: z.string(), expiresAt: z.iso.datetime() });

// ---- roles

const roleRecordSchema = z.object({
  id: z.string(),
  userId: z.string(),
  role: z.enum(ROLE_OPTIONS),
  assignedBy: z.string().nullable(),
  assignedAt: z.iso.datetime(),
  email: z.string(),
  name: z.string(),
});
const rolesResponse = z.object({ roles: z.array(roleRecordSchema) });

/** Every way of getting the pair wrong answers with the spec's one message. */
const roleBody = z.object({
  email: z.string().trim().max(254).default('').refine((v) => v !== '' && !hasControlCharacters(v), M.rolesRequired),
  role: z
    .string()
    .trim()
    .default('')
    .pipe(z.enum(ROLE_OPTIONS, M.rolesRequired)),
});
const roleChangeResponse = z.object({ status: z.enum(['assigned', 'modified']), message: z.string() });
const roleIdParams = z.object({ id: z.uuid() });
const roleRevokeResponse = z.object({ message: z.string() });

// ---- logs

const auditQuery = z.object({ severity: severitySchema.optional() });
const auditEventSchema = z.object({
  id: z.string(),
  adminUserId: z.string().nullable(),
  adminEmail: z.string().nullable(),
  action: z.string(),
  targetResource: z.string(),
  targetId: z.string().nullable(),
  changes: detailsSchema,
  metadata: detailsSchema,
  userAgent: z.string().nullable(),
  severity: severitySchema,
  createdAt: z.iso.datetime(),
});
const auditResponse = z.object({ events: z.array(auditEventSchema) });

const securityEventsQuery = z.object({ severity: severitySchema.optional(), eventType: z.enum(EVENT_TYPE_OPTIONS).optional() });
const securityEventSchema = z.object({
  id: z.string(),
  /** Text in the database: rows written before a type joined the list still read. */
  eventType: z.string(),
  severity: severitySchema,
  userId: z.string().nullable(),
  userEmail: z.string().nullable(),
  ipAddress: z.string().nullable(),
  details: detailsSchema,
  createdAt: z.iso.datetime(),
});
export type SecurityEvent = z.infer<typeof securityEventSchema>;
const securityEventsResponse = z.object({ events: z.array(securityEventSchema) });
const securityStatsResponse = z.object({
  totalAlerts24h: z.number(),
  criticalAlerts: z.number(),
  recentThreats1h: z.number(),
  blockedIps: z.number(),
  recent: z.array(securityEventSchema),
});

// ---- sandbox test tools

const testAccountsResponse = z.object({
  success: z.literal(true),
  error: z.null(),
  results: z.array(z.object({ email: z.string(), role: z.enum(ROLE_OPTIONS), subscribed: z.boolean(), status: z.enum(['created', 'exists']) })),
  password: z.string(),
});
const resetPasswordsResponse = z.object({
  success: z.literal(true),
  error: z.null(),
  results: z.array(z.object({ email: z.string(), status: z.enum(['reset', 'missing']) })),
});

// ---- meditations (admin document §5 'Meditations')

/** One catalogue entry as staff see it: the card's fields plus the stored file and transcript. */
const adminMeditationSchema = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  category: z.string(),
  categories: z.array(z.string()),
  duration: z.string(),
  durationSeconds: z.number().nullable(),
  tags: z.array(z.string()),
  fileName: z.string().nullable(),
  fileType: z.string().nullable(),
  fileSizeBytes: z.number().nullable(),
  hasTranscript: z.boolean(),
  transcript: z.string().nullable(),
  free: z.boolean(),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type AdminMeditation = z.infer<typeof adminMeditationSchema>;

const adminMeditationsResponse = z.object({ meditations: z.array(adminMeditationSchema) });
export const adminMeditationResponse = z.object({ meditation: adminMeditationSchema });
export type AdminMeditationResponse = z.infer<typeof adminMeditationResponse>;

const editMeditationBody = z
  .object({
    title: z.string().max(10_000).optional(),
    description: z.string().max(10_000).optional(),
    transcript: z.string().max(100_000).nullish(),
    /** Free to try (decision 0025). */
    free: z.boolean().optional(),
  })
  // An edit that names no field would still touch the row and the audit log: refuse it.
  .refine((body) => body.title !== undefined || body.description !== undefined || body.transcript !== undefined || body.free !== undefined, 'Please change the title, description or transcript.');
export type EditMeditationBody = z.infer<typeof editMeditationBody>;

const deleteMeditationResponse = z.object({ deleted: z.string() });

/** The admin routes' contracts, by route name (their method, path and policy: admin.routes.ts). */
export const adminSchemas = {
  status: { response: adminStatusResponse },
  setup: { body: setupBody, response: setupResponse },
  csrf: { response: csrfResponse },
  roles: { response: rolesResponse },
  assignRole: { body: roleBody, response: roleChangeResponse },
  revokeRole: { params: roleIdParams, response: roleRevokeResponse },
  audit: { query: auditQuery, response: auditResponse },
  securityEvents: { query: securityEventsQuery, response: securityEventsResponse },
  securityStats: { response: securityStatsResponse },
  createTestAccounts: { response: testAccountsResponse },
  resetTestPasswords: { response: resetPasswordsResponse },
  meditations: { response: adminMeditationsResponse },
  updateMeditation: { params: meditationIdParams, body: editMeditationBody, response: adminMeditationResponse },
  removeMeditation: { params: meditationIdParams, response: deleteMeditationResponse },
} satisfies SchemaTable;
