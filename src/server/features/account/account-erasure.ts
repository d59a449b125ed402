/**
 * What deleting an account erases, in the caller's transaction: used by the person's own deletion
 * (account-data.service.ts) and by `restore`, which deletes again the accounts deleted after its
 * backup was made (issue 33; the ledger: features/operations/deletion-ledger.ts). One function, so a
 * restored backup can never keep something a deletion removes.
 */
import { eq, or, sql } from 'drizzle-orm';
import type { Database } from '#server/db/client.ts';
import { adminAuditLog } from '#server/db/schema/admin.ts';
import { waitlistEntries } from '#server/db/schema/waitlist.ts';
import { user } from '#server/db/schema/auth.ts';
import { securityAuditLog } from '#server/db/schema/security.ts';
import { deletedAccounts } from '#server/db/schema/operations.ts';

type Tx = Parameters<Parameters<Database['transaction']>[0]>[0];

/** The security events that are this person's: by account, or by their address before the account existed (failed sign-ins). */
export const ownSecurityEvents = (userId: string, email: string) => or(eq(securityAuditLog.userId, userId), eq(sql`lower(${securityAuditLog.userEmail})`, email.toLowerCase()));

/**
 * Erases one account: logs that name the person lose their name, e-mail and address, their waitlist
 * entry goes, and the user row goes with everything hanging off it (ON DELETE CASCADE: sessions,
 * sign-in methods, role, subscription row, App Store links, favourites, practice, preferences,
 * journal and its shared links, reminders). The id joins the deletion ledger. False when there was no such account.
 */
export async function eraseAccount(tx: Tx, { userId, email, at }: { userId: string; email: string; at: Date }): Promise<boolean> {
  // The audit log keeps what an admin did, not who they were (the foreign key sets the id null on delete).
  await tx.update(adminAuditLog).set({ adminEmail: null }).where(eq(adminAuditLog.adminUserId, userId));
  // Role changes made to this person keep that a change happened, not to whom.
  await tx
    .update(adminAuditLog)
    .set({ targetId: null, changes: { redacted: 'account deleted' }, metadata: { redacted: 'account deleted' } })
    .where(eq(adminAuditLog.targetId, userId));
  await tx.update(securityAuditLog).set({ userId: null, userEmail: null, ipAddress: null, details: { redacted: 'account deleted' } }).where(ownSecurityEvents(userId, email));
  await tx.delete(waitlistEntries).where(eq(sql`lower(${waitlistEntries.email})`, email.toLowerCase()));
  const gone = await tx.delete(user).where(eq(user.id, userId)).returning({ id: user.id });
  if (gone.length === 0) return false;
  await tx.insert(deletedAccounts).values({ userId, deletedAt: at }).onConflictDoNothing();
  return true;
}
