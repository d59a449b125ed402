/**
 * The admin dashboard's rules, limits and words (admin document §2, §9): timings, the security monitor's
 * thresholds, severities, security event types and the dashboard's messages.
 */

export const ADMIN = {
  loadingBypassMs: 10_000,
  csrfLifeMs: 15 * 60 * 1000,
  csrfRefreshBeforeMs: 5 * 60 * 1000,
  csrfCheckEveryMs: 60_000,
  /** Role changes per admin in the window (spec rate-limit defaults: 10 in 15 minutes). */
  roleChangesPerWindow: 10,
  roleWindowMs: 15 * 60 * 1000,
  auditShown: 50,
  securityLimit: 100,
  recentEvents: 10,
  statsRefreshMs: 30_000,
} as const;

/**
 * The security monitor (spec §9 'Client-side security monitor', 'Suspicious pattern', 'Rate limit check
 * defaults'), run on the server. Counters are fixed windows: the hourly metrics reset every hour, the
 * per-user pattern counters every 5 minutes. Each alert fires once per threshold crossing per window.
 */
export const SECURITY_MONITOR = {
  metricsWindowMs: 60 * 60 * 1000,
  /** An alert fires at more than 5 failed logins (per account and per IP) ... */
  failedLoginsAlertAbove: 5,
  /** ... and at more than 10 rate-limit violations (per IP). */
  rateLimitViolationsAlertAbove: 10,
  /** Threat score = 0.3 × failed logins + 0.4 × rate-limit violations + 0.5 × suspicious activity, per IP. */
  threatWeights: { failedLogins: 0.3, rateLimitViolations: 0.4, suspiciousActivity: 0.5 },
  threatScoreAlertAbove: 10,
  /** More than 5 occurrences of one event type per user in 5 minutes raises a critical event. */
  patternWindowMs: 5 * 60 * 1000,
  patternAlertAbove: 5,
  /** Wrong admin setup tokens from one IP in the hourly window before the IP is blocked (a failed-login-like guess). */
  setupTokenGuessesAbove: 5,
  /** Rate limit check defaults: 30 minute block. */
  blockMs: 30 * 60 * 1000,
  /**
   * Probing (admin_privilege_escalation, injection_attempt, data_exfiltration_attempt) is logged as one
   * row per source, type and window of this length, with a count, so a flood of probes is one row.
   */
  probeWindowMs: 5 * 60 * 1000,
  /** Distinct sources with a row of their own per type and window; past it they share one 'many sources' row. */
  probeSourcesPerWindow: 20,
  /** Bulk reads per account in the probe window above which each further one is a data_exfiltration_attempt. */
  exportsAbove: 10,
  listingPagesAbove: 100,
} as const;

/** Every severity of a security or admin audit event: the database columns and the log filters. */
export const SEVERITY_OPTIONS = ['critical', 'high', 'medium', 'low'] as const;
export type Severity = (typeof SEVERITY_OPTIONS)[number];
/**
 * Every security event type the server records: the one list behind the server's type and the Security Log
 * filter. The spec's five come first; the rest are server-side controls the spec kept in the browser.
 */
export const EVENT_TYPE_OPTIONS = [
  'user_login',
  'failed_login',
  'user_signup',
  'rate_limit_exceeded',
  'password_reset_requested',
  'user_logout',
  'mail_delivery_failed',
  // Apple would not take a deleted account's Sign in with Apple token for a week (decision 0064).
  'apple_revocation_failed',
  'admin_setup_failed',
  'csrf_rejected',
  'upload_rejected',
  'lockout_bypass_attempt',
  'webhook_forged',
  'security_alert',
  'ip_blocked',
  // The spec's probe events (its monitor's log_security_alert calls), detected on the server: see
  // src/server/features/security/probe-log.ts.
  'admin_privilege_escalation',
  'injection_attempt',
  'data_exfiltration_attempt',
] as const;
export type SecurityEventType = (typeof EVENT_TYPE_OPTIONS)[number];

/** The probe events: one row per burst with a count (details.count); the first of each type in an hour raises the spec's critical alert. */
export const PROBE_EVENT_TYPES = ['admin_privilege_escalation', 'injection_attempt', 'data_exfiltration_attempt'] as const satisfies readonly SecurityEventType[];
export type ProbeEventType = (typeof PROBE_EVENT_TYPES)[number];

export const ADMIN_MESSAGES = {
  title: 'Admin Dashboard',
  loading: 'Loading admin dashboard...',
  continueAnyway: 'Continue Anyway',
  loadingBypassed: 'Loading Bypassed',
  errorTitle: 'Admin Dashboard Error',
  reload: 'Reload Dashboard',
  goHome: 'Go to Homepage',
  accessDeniedTitle: 'Access Denied',
  accessDeniedBody: 'You need administrator privileges to access this dashboard.',
  needAdmin: 'You need admin privileges',
  setupHint: 'If this is a new installation, use the Admin Setup section below with the setup token to grant yourself admin access.',
  forbidden: 'Access denied. Admin privileges required.',
  verifiedAdmin: 'Verified Admin',
  standardUser: 'Standard User',
  setupTitle: 'Admin Setup',
  setupDone: 'An administrator already exists. Ask them to assign roles in the User Roles tab.',
  setupTokenInvalid: 'That setup token is not valid. Print a fresh one with `npm run cli -- setup-token`.',
  setupGranted: 'You are now an administrator.',
  rolesRequired: 'Email and role are required',
  ownAccount: 'Cannot assign roles to your own account after initial setup',
  featureLimited: 'Feature Limited – Role assignment to other users requires additional verification. Please contact system administrator.',
  cannotRevokeOwn: 'You cannot revoke your own admin role',
  roleAssigned: 'Role assigned successfully',
  roleModified: 'Role modified successfully',
  roleRevoked: 'Role revoked successfully',
  securityErrorTitle: 'Security Error',
  securityErrorBody: 'Please refresh the page.',
  rateLimitTitle: 'Rate Limit Exceeded',
  rateLimitBody: 'Too many role assignment attempts. Please wait before trying again.',
  securityCheckFailedTitle: 'Security Check Failed',
  databaseErrorTitle: 'Database Error',
  securityLogsFailed: 'Failed to fetch security audit logs',
  sandboxOnly: 'This test tool is only available in sandbox mode.',
  testDataAdded: 'Test data added',
  testAccountsCreated: 'Test accounts created successfully',
  passwordsReset: 'Passwords reset successfully',
  waitlistCleared: 'Waitlist data cleared',
  exportSuccessful: 'Export successful',
  noDataToExport: 'No data to export',
} as const;

/**
 * Browser events the dashboard listens to (admin document: the sidebar broadcasts its tab choice;
 * the waitlist refreshes on 'waitlist-updated' and 'force-refresh').
 */
export const ADMIN_EVENTS = {
  tabChange: 'admin-tab-change',
  waitlistUpdated: 'waitlist-updated',
  forceRefresh: 'force-refresh',
} as const;
