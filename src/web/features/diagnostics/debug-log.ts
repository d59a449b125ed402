/**
 * The diagnostics report: what support needs to understand a problem, and nothing that could
 * let anyone act as the user. Built from an allow-list of fields, never by dumping objects, so a
 * token added to a response later cannot leak into a copied log.
 */
import { APP_VERSION_LABEL } from '#shared/constants.ts';
import type { MeResponse } from '#shared/contracts/auth.ts';
import type { SubscriptionResponse } from '#shared/contracts/billing.ts';

export type DiagnosticsInput = {
  me: MeResponse | undefined;
  subscription: SubscriptionResponse | undefined;
  /** When the subscription was last checked with the server (epoch ms; 0 = never). */
  lastValidatedAt: number;
  productCount: number;
  online: boolean;
  serviceWorker: 'active' | 'installing' | 'none' | 'unsupported';
  pendingSessions: number;
  offlineCopies: number;
  userAgent: string;
  now: Date;
};

export type DiagnosticsReport = {
  auth: { authenticated: boolean; email: string | null; provider: string | null; tokenExpiry: string | null; userId: string | null; role: string | null };
  purchases: { activeSubscription: boolean; platform: string | null; environment: string | null; productCount: number; lastValidation: string | null; status: string | null };
  device: { appVersion: string; online: boolean; serviceWorker: DiagnosticsInput['serviceWorker']; pendingSessions: number; offlineCopies: number; userAgent: string; generatedAt: string };
};

const PROVIDER_NAMES: Record<string, string> = { credential: 'email', google: 'google', apple: 'apple' };

export function buildReport(input: DiagnosticsInput): DiagnosticsReport {
  const user = input.me?.user ?? null;
  const sub = input.subscription;
  return {
    auth: {
      authenticated: Boolean(user),
      email: user?.email ?? null,
      provider: user ? (input.me?.providers ?? []).map((p) => PROVIDER_NAMES[p] ?? p).join(', ') || null : null,
      tokenExpiry: user ? (input.me?.session?.expiresAt ?? null) : null,
      userId: user?.id ?? null,
      role: input.me?.role ?? null,
    },
    purchases: {
      activeSubscription: Boolean(sub?.subscribed),
      platform: sub?.subscription?.provider ?? null,
      environment: sub?.mode ?? null,
      productCount: input.productCount,
      lastValidation: input.lastValidatedAt ? new Date(input.lastValidatedAt).toISOString() : null,
      status: sub?.subscription?.status ?? null,
    },
    device: {
      appVersion: APP_VERSION_LABEL,
      online: input.online,
      serviceWorker: input.serviceWorker,
      pendingSessions: input.pendingSessions,
      offlineCopies: input.offlineCopies,
      userAgent: input.userAgent,
      generatedAt: input.now.toISOString(),
    },
  };
}

export function formatReport(report: DiagnosticsReport): string {
  return `Harbour Mind diagnostics\n${JSON.stringify(report, null, 2)}\n`;
}
