/**
 * The only reader of process.env. Parses once with zod and fails fast listing every bad variable
 * (epic-stack env.server.ts). Defaults give the embedded setup: PGlite, local media, sandbox billing,
 * mail to an outbox folder.
 */
import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { z } from 'zod';
import { NATIVE_APP_ID } from '#shared/app-links.ts';

const optionalString = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v ? v : undefined));

const booleanFlag = (fallback: boolean) =>
  z
    .string()
    .trim()
    .toLowerCase()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === '') return fallback;
      if (['1', 'true', 'yes', 'on'].includes(v)) return true;
      if (['0', 'false', 'no', 'off'].includes(v)) return false;
      ctx.addIssue({ code: 'custom', message: 'must be true or false' });
      return z.NEVER;
    });

/** An empty value (`X=` in a .env file) means unset, so the default applies: coerced, it would read as 0 (off). */
const unsetIfEmpty = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), schema);

/** How the web sells subscriptions; decided once here (docs/decisions/0008-billing-mode.md). */
const BILLING_MODES = ['sandbox', 'stripe', 'none'] as const;
export type BillingMode = (typeof BILLING_MODES)[number];

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().trim().min(1).default('127.0.0.1'),
  PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional().or(z.literal('').transform(() => undefined)),
  /**
   * How many reverse proxies / load balancers sit in front (0 = none). Per-IP limits and logs use
   * the client address from X-Forwarded-For only through that many trusted hops.
   */
  TRUST_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(0),
  DATA_DIR: z.string().trim().min(1).default('./data'),
  /** How long a signed playback URL works; the player refreshes expired ones transparently. */
  MEDIA_URL_TTL_SECONDS: z.coerce.number().int().min(5).max(86_400).default(900),
  /** How long a client may take to send a request's headers and body (slow clients hold connections). */
  REQUEST_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(600).default(30),
  /** The same for a meditation upload (up to 50 MB over a slow line). */
  UPLOAD_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(7200).default(900),
  DATABASE_URL: z
    .string()
    .trim()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  REDIS_URL: optionalString,
  /**
   * Load shedding and the global brake (docs/decisions/0011-load-shedding-and-global-limit.md):
   * requests per minute per client IP over the whole app except hashed /assets/* (0 = off), client
   * addresses the brake never counts (comma-separated, e.g. a monitoring host or a benchmark's
   * loopback), the event-loop delay above which requests are answered 503 (0 = off), and how long
   * a SIGTERM waits for in-flight requests and uploads before cutting them.
   */
  GLOBAL_RATE_LIMIT_PER_MINUTE: unsetIfEmpty(z.coerce.number().int().min(0).default(600)),
  /** better-auth's backstop on sign-in requests per client address a minute, successes too (auth.ts); the failed-attempt limit is separate. */
  SIGN_IN_REQUESTS_PER_MINUTE: unsetIfEmpty(z.coerce.number().int().min(1).max(100_000).default(30)),
  GLOBAL_RATE_LIMIT_ALLOW_IPS: z
    .string()
    .optional()
    .transform((v, ctx) => {
      const ips = (v ?? '').split(',').map((ip) => ip.trim()).filter(Boolean);
      for (const ip of ips) if (!isIP(ip)) ctx.addIssue({ code: 'custom', message: `${ip} is not an IP address` });
      return ips;
    }),
  MAX_EVENT_LOOP_DELAY_MS: unsetIfEmpty(z.coerce.number().int().min(0).default(1000)),
  SHUTDOWN_GRACE_SECONDS: unsetIfEmpty(z.coerce.number().int().min(0).max(3600).default(25)),
  /** Bearer token for /metrics from other machines (the machine itself may always read it). */
  METRICS_TOKEN: optionalString,
  /** S3-compatible media storage; unset keeps audio in DATA_DIR/media. */
  S3_BUCKET: optionalString,
  S3_REGION: z.string().trim().min(1).default('us-east-1'),
  S3_ENDPOINT: z.url().optional().or(z.literal('').transform(() => undefined)),
  S3_ACCESS_KEY_ID: optionalString,
  S3_SECRET_ACCESS_KEY: optionalString,
  S3_FORCE_PATH_STYLE: booleanFlag(false),
  SMTP_URL: optionalString,
  MAIL_FROM: z.string().trim().default('Harbour Mind <hello@harbourmind.app>'),
  AUTH_SECRET: optionalString,
  /**
   * sandbox (in-app checkout, admin test tools), stripe (web checkout through Stripe) or none (no web
   * billing: App Store only, or no subscriptions at all). Unset: sandbox, except in production.
   */
  BILLING_MODE: z.preprocess(
    (v) => (typeof v === 'string' ? v.trim() || undefined : v),
    z.enum(BILLING_MODES, { message: `must be one of ${BILLING_MODES.join(', ')}` }).optional(),
  ),
  STRIPE_SECRET_KEY: optionalString,
  STRIPE_WEBHOOK_SECRET: optionalString,
  STRIPE_PRICE_MONTHLY: optionalString,
  STRIPE_PRICE_YEARLY: optionalString,
  /** Only for tests and egress proxies: where the Stripe SDK sends its requests. */
  STRIPE_API_BASE: z.url().optional().or(z.literal('').transform(() => undefined)),
  GOOGLE_CLIENT_ID: optionalString,
  GOOGLE_CLIENT_SECRET: optionalString,
  /**
   * The apps' own Google OAuth client ids (iOS, Android), comma-separated: identity tokens made for
   * them are accepted beside the web client id's (docs/decisions/0035).
   */
  GOOGLE_NATIVE_CLIENT_IDS: optionalString,
  /**
   * The iOS app's Google OAuth client id (issue 35, item 4): the iOS app signs in with Google on the
   * device for it (its tokens name it as audience), so /api/auth-providers names it and it is accepted.
   */
  GOOGLE_IOS_CLIENT_ID: optionalString,
  APPLE_CLIENT_ID: optionalString,
  APPLE_CLIENT_SECRET: optionalString,
  APPLE_APP_BUNDLE_IDENTIFIER: optionalString,
  /**
   * Sign in with Apple's private key (the .p8 file from the developer account) and its key id: with
   * APPLE_TEAM_ID, the server signs the client secrets for Apple's token and revoke endpoints, so the
   * apps' refresh tokens can be kept and revoked at account deletion (decision 0064).
   */
  APPLE_KEY_ID: z.string().trim().regex(/^[A-Z0-9]{10}$/, 'APPLE_KEY_ID is the 10-character key id of the Sign in with Apple key.').optional().or(z.literal('').transform(() => undefined)),
  APPLE_PRIVATE_KEY_FILE: optionalString,
  APPLE_IAP_BUNDLE_ID: optionalString,
  APPLE_IAP_APP_APPLE_ID: z.coerce.number().int().positive().optional(),
  APPLE_IAP_ENVIRONMENT: z.enum(['Sandbox', 'Production']).default('Production'),
  /** Comma-separated paths to Apple's root certificates (AppleRootCA-G3.cer …), DER or PEM. */
  APPLE_ROOT_CA_FILES: optionalString,
  /**
   * RevenueCat's webhook (the Android app's Google Play purchases, issue 19): the exact Authorization
   * header value set in RevenueCat's dashboard. Unset: the route answers 404.
   */
  REVENUECAT_WEBHOOK_AUTH: optionalString,
  /** Which RevenueCat environment's events change entitlements; the other's are recorded and acknowledged. */
  REVENUECAT_ENVIRONMENT: z.enum(['SANDBOX', 'PRODUCTION']).default('PRODUCTION'),
  /**
   * Web Push for daily reminders (issue 20, item 4). The VAPID key pair is derived from the auth
   * secret (so kept with it, and shared by the processes that share it: decision 0040); set both keys
   * to use a pair of your own (`npx web-push generate-vapid-keys`). The subject is how a push service
   * reaches the operator (mailto: or https:).
   */
  WEB_PUSH_VAPID_PUBLIC_KEY: optionalString,
  WEB_PUSH_VAPID_PRIVATE_KEY: optionalString,
  WEB_PUSH_SUBJECT: z.string().trim().regex(/^(mailto:|https:\/\/)/, 'WEB_PUSH_SUBJECT is a mailto: address or an https:// URL.').optional().or(z.literal('').transform(() => undefined)),
  /**
   * Push services beyond the browsers' own (Google's, Mozilla's, Apple's, Microsoft's), as
   * comma-separated origins: a reminder is only ever sent to one of them, so a forged subscription
   * cannot make the server post to an address of its choosing. For tests and private push services.
   */
  WEB_PUSH_EXTRA_ORIGINS: z
    .string()
    .optional()
    .transform((v, ctx) => {
      const origins = (v ?? '').split(',').map((o) => o.trim()).filter(Boolean);
      for (const origin of origins) if (!URL.canParse(origin) || new URL(origin).origin !== origin) ctx.addIssue({ code: 'custom', message: `${origin} is not an origin (scheme://host[:port])` });
      return origins;
    }),
  /** How often each process looks for reminders due (seconds). */
  REMINDER_EVERY_SECONDS: unsetIfEmpty(z.coerce.number().int().min(1).max(3600).default(60)),
  /** The native apps' id (capacitor.config.ts appId), for the app-link files in /.well-known. */
  NATIVE_APP_ID: z.string().trim().regex(/^[a-zA-Z][\w]*(?:\.[a-zA-Z][\w]*)+$/, 'NATIVE_APP_ID must be a reverse-domain app id.').default(NATIVE_APP_ID),
  /** Apple's 10-character team id: with it, /.well-known/apple-app-site-association opens universal links in the iOS app. */
  APPLE_TEAM_ID: z.string().trim().regex(/^[A-Z0-9]{10}$/, 'APPLE_TEAM_ID is the 10-character team id from the Apple developer account.').optional().or(z.literal('').transform(() => undefined)),
  /** Comma-separated SHA-256 fingerprints of the Android signing certificates: with them, /.well-known/assetlinks.json verifies the app links. */
  ANDROID_CERT_SHA256: z
    .string()
    .trim()
    .regex(/^(?:(?:[0-9A-F]{2}:){31}[0-9A-F]{2})(?:\s*,\s*(?:[0-9A-F]{2}:){31}[0-9A-F]{2})*$/, 'ANDROID_CERT_SHA256 is a comma-separated list of SHA-256 fingerprints (AA:BB:… 32 pairs).')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  SEED_DEMO: booleanFlag(true),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
});

export type Config = {
  nodeEnv: 'development' | 'production' | 'test';
  port: number;
  host: string;
  publicUrl: string;
  dataDir: string;
  mediaUrlTtlSeconds: number;
  /** Deadlines for receiving a request (headers + body): ordinary routes, and the upload route. */
  requestTimeoutSeconds: number;
  uploadTimeoutSeconds: number;
  trustProxyHops: number;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  /** Per-IP requests a minute over the whole app (0 = off) and the addresses it never counts. */
  globalRateLimit: { perMinute: number; allowIps: string[] };
  signInRequestsPerMinute: number;
  /** Mean event-loop delay above which requests are shed with 503 (0 = off). */
  maxEventLoopDelayMs: number;
  /** How long SIGTERM waits for in-flight requests before cutting them and exiting. */
  shutdownGraceSeconds: number;
  metricsToken: string | undefined;
  s3: { bucket: string; region: string; endpoint?: string; accessKeyId?: string; secretAccessKey?: string; forcePathStyle: boolean } | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  authSecret: string | undefined;
  /** sandbox: in-app checkout and the admin test tools; stripe: Stripe Checkout; none: no web billing. */
  billingMode: BillingMode;
  stripe:
    | { secretKey: string; webhookSecret: string; priceMonthly: string | undefined; priceYearly: string | undefined; apiBase: string | undefined }
    | undefined;
  oauth: {
    /** `clientIds[0]` is the web client (the redirect flow's); all of them are accepted as an identity token's audience. */
    google: { clientIds: string[]; clientSecret: string; iosClientId: string | undefined } | undefined;
    apple: { clientId: string; clientSecret: string; appBundleIdentifier: string | undefined } | undefined;
    /** The key that signs Apple client secrets (token exchange and revocation, decision 0064). */
    appleSigningKey: { keyId: string; teamId: string; privateKeyFile: string } | undefined;
  };
  appStore: { bundleId: string; appAppleId: number | undefined; environment: 'Sandbox' | 'Production'; rootCaFiles: string[] } | undefined;
  /** RevenueCat's webhook: its Authorization header value and the environment whose events count. */
  revenueCat: { webhookAuth: string; environment: 'SANDBOX' | 'PRODUCTION' } | undefined;
  /** Daily reminders by Web Push: an explicit VAPID pair (else generated in DATA_DIR), the subject, extra push services, how often to look. */
  webPush: { publicKey: string | undefined; privateKey: string | undefined; subject: string | undefined; extraOrigins: string[]; everySeconds: number };
  /** Which native app the web's links may open (issue 19): iOS needs the team id, Android the signing certificates. */
  appLinks: { appId: string; appleTeamId: string | undefined; androidFingerprints: string[] };
  seedDemo: boolean;
  logLevel: string;
  /** Where the built web app lives; absent in API-only tests. */
  webDistDir: string;
};

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

type Env = z.infer<typeof envSchema>;

/**
 * The mode in force. Unset outside production: Stripe when its key is given (so a developer's
 * Stripe test keys keep working), sandbox otherwise. Unset in production is refused by crossCheck().
 */
function billingModeOf(e: Env): BillingMode {
  if (e.BILLING_MODE) return e.BILLING_MODE;
  return e.STRIPE_SECRET_KEY ? 'stripe' : 'sandbox';
}

/** Rules between variables: each broken one is a problem naming the variables involved. */
function crossCheck(e: Env): string[] {
  const problems: string[] = [];
  if (e.NODE_ENV === 'production' && !e.BILLING_MODE) {
    problems.push(
      'BILLING_MODE: required when NODE_ENV=production; choose stripe (Stripe Checkout), none (no web billing, e.g. App Store only) or sandbox (free in-app checkout and admin test tools: demos only)',
    );
  }
  const mode = billingModeOf(e);
  if (mode === 'stripe' && !e.STRIPE_SECRET_KEY) problems.push('STRIPE_SECRET_KEY: required when BILLING_MODE=stripe');
  // In any mode: a key without a webhook secret takes payments whose updates can never be verified.
  if (e.STRIPE_SECRET_KEY && !e.STRIPE_WEBHOOK_SECRET) {
    problems.push('STRIPE_WEBHOOK_SECRET: required with STRIPE_SECRET_KEY (without it no Stripe webhook can be verified)');
  } else if (mode === 'stripe' && !e.STRIPE_WEBHOOK_SECRET) {
    problems.push('STRIPE_WEBHOOK_SECRET: required when BILLING_MODE=stripe');
  }
  if (mode !== 'stripe' && e.STRIPE_SECRET_KEY) {
    problems.push(`STRIPE_SECRET_KEY: set, but BILLING_MODE=${mode}; set BILLING_MODE=stripe to sell through Stripe, or remove the key`);
  }
  if (Boolean(e.WEB_PUSH_VAPID_PUBLIC_KEY) !== Boolean(e.WEB_PUSH_VAPID_PRIVATE_KEY)) {
    problems.push('WEB_PUSH_VAPID_PUBLIC_KEY and WEB_PUSH_VAPID_PRIVATE_KEY: set both or neither (neither: the pair is derived from the auth secret)');
  }
  if ((e.APPLE_KEY_ID || e.APPLE_PRIVATE_KEY_FILE) && !(e.APPLE_KEY_ID && e.APPLE_PRIVATE_KEY_FILE && e.APPLE_TEAM_ID)) {
    problems.push('APPLE_KEY_ID, APPLE_PRIVATE_KEY_FILE and APPLE_TEAM_ID: set all three to sign Apple client secrets (token revocation at account deletion), or none');
  }
  if (e.DATABASE_URL && !e.AUTH_SECRET) {
    problems.push('AUTH_SECRET: required with DATABASE_URL (every process sharing the database must sign sessions with the same secret; otherwise each machine mints its own)');
  }
  return problems;
}

/** Parses the environment; throws ConfigError naming every invalid variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`));
  }
  const e = parsed.data;
  const problems = crossCheck(e);
  if (problems.length > 0) throw new ConfigError(problems);
  const hostForUrl = e.HOST === '0.0.0.0' || e.HOST === '::' ? '127.0.0.1' : e.HOST;
  const config: Config = {
    nodeEnv: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    publicUrl: (e.PUBLIC_URL ?? `http://${hostForUrl}:${e.PORT}`).replace(/\/+$/, ''),
    dataDir: resolve(e.DATA_DIR),
    mediaUrlTtlSeconds: e.MEDIA_URL_TTL_SECONDS,
    requestTimeoutSeconds: e.REQUEST_TIMEOUT_SECONDS,
    uploadTimeoutSeconds: e.UPLOAD_TIMEOUT_SECONDS,
    trustProxyHops: e.TRUST_PROXY_HOPS,
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    globalRateLimit: { perMinute: e.GLOBAL_RATE_LIMIT_PER_MINUTE, allowIps: e.GLOBAL_RATE_LIMIT_ALLOW_IPS },
    signInRequestsPerMinute: e.SIGN_IN_REQUESTS_PER_MINUTE,
    maxEventLoopDelayMs: e.MAX_EVENT_LOOP_DELAY_MS,
    shutdownGraceSeconds: e.SHUTDOWN_GRACE_SECONDS,
    metricsToken: e.METRICS_TOKEN,
    s3: e.S3_BUCKET
      ? { bucket: e.S3_BUCKET, region: e.S3_REGION, endpoint: e.S3_ENDPOINT, accessKeyId: e.S3_ACCESS_KEY_ID, secretAccessKey: e.S3_SECRET_ACCESS_KEY, forcePathStyle: e.S3_FORCE_PATH_STYLE }
      : undefined,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    authSecret: e.AUTH_SECRET,
    billingMode: billingModeOf(e),
    stripe:
      billingModeOf(e) === 'stripe' && e.STRIPE_SECRET_KEY && e.STRIPE_WEBHOOK_SECRET
        ? {
            secretKey: e.STRIPE_SECRET_KEY,
            webhookSecret: e.STRIPE_WEBHOOK_SECRET,
            priceMonthly: e.STRIPE_PRICE_MONTHLY,
            priceYearly: e.STRIPE_PRICE_YEARLY,
            apiBase: e.STRIPE_API_BASE,
          }
        : undefined,
    oauth: {
      google:
        e.GOOGLE_CLIENT_ID && e.GOOGLE_CLIENT_SECRET
          ? {
              clientIds: [...new Set([e.GOOGLE_CLIENT_ID, ...(e.GOOGLE_NATIVE_CLIENT_IDS ?? '').split(',').map((id) => id.trim()), e.GOOGLE_IOS_CLIENT_ID ?? ''].filter(Boolean))],
              clientSecret: e.GOOGLE_CLIENT_SECRET,
              iosClientId: e.GOOGLE_IOS_CLIENT_ID,
            }
          : undefined,
      apple:
        e.APPLE_CLIENT_ID && e.APPLE_CLIENT_SECRET
          ? { clientId: e.APPLE_CLIENT_ID, clientSecret: e.APPLE_CLIENT_SECRET, appBundleIdentifier: e.APPLE_APP_BUNDLE_IDENTIFIER }
          : undefined,
      appleSigningKey: e.APPLE_KEY_ID && e.APPLE_PRIVATE_KEY_FILE && e.APPLE_TEAM_ID ? { keyId: e.APPLE_KEY_ID, teamId: e.APPLE_TEAM_ID, privateKeyFile: e.APPLE_PRIVATE_KEY_FILE } : undefined,
    },
    appStore:
      e.APPLE_IAP_BUNDLE_ID && e.APPLE_ROOT_CA_FILES
        ? {
            bundleId: e.APPLE_IAP_BUNDLE_ID,
            appAppleId: e.APPLE_IAP_APP_APPLE_ID,
            environment: e.APPLE_IAP_ENVIRONMENT,
            rootCaFiles: e.APPLE_ROOT_CA_FILES.split(',').map((f) => f.trim()).filter(Boolean),
          }
        : undefined,
    revenueCat: e.REVENUECAT_WEBHOOK_AUTH ? { webhookAuth: e.REVENUECAT_WEBHOOK_AUTH, environment: e.REVENUECAT_ENVIRONMENT } : undefined,
    webPush: { publicKey: e.WEB_PUSH_VAPID_PUBLIC_KEY, privateKey: e.WEB_PUSH_VAPID_PRIVATE_KEY, subject: e.WEB_PUSH_SUBJECT, extraOrigins: e.WEB_PUSH_EXTRA_ORIGINS, everySeconds: e.REMINDER_EVERY_SECONDS },
    appLinks: {
      appId: e.NATIVE_APP_ID,
      appleTeamId: e.APPLE_TEAM_ID,
      androidFingerprints: (e.ANDROID_CERT_SHA256 ?? '').split(',').map((f) => f.trim()).filter(Boolean),
    },
    seedDemo: e.SEED_DEMO,
    logLevel: e.LOG_LEVEL,
    webDistDir: resolve('dist/web'),
    ...overrides,
  };
  return config;
}

/**
 * Allowed but dangerous settings, logged loudly at every start. Sandbox billing in production is
 * allowed only when chosen explicitly (a public demo): anyone can subscribe for free there, and the
 * admin test tools create accounts with a published password (docs/decisions/0008-billing-mode.md).
 */
export function configWarnings(config: Pick<Config, 'nodeEnv' | 'billingMode'> & { oauth?: Config['oauth'] }): string[] {
  const warnings: string[] = [];
  if (config.oauth?.apple && !config.oauth.appleSigningKey) {
    warnings.push(
      'Sign in with Apple is on without APPLE_KEY_ID and APPLE_PRIVATE_KEY_FILE: the apps\' Apple tokens cannot be kept or revoked when an account is deleted, which App Review requires (decision 0064).',
    );
  }
  if (config.nodeEnv === 'production' && config.billingMode === 'sandbox') {
    warnings.push(
      'BILLING_MODE=sandbox with NODE_ENV=production: anyone can subscribe without paying and the admin test tools are on. Use this only for a demo; set BILLING_MODE=stripe or none for real users.',
    );
  }
  return warnings;
}
