/**
 * The access path of every paged or per-user read (issue 15, goal 7): each query the services send
 * must be answerable from an index in the order it asks for, so its cost stays flat as the table
 * grows. The statements are captured from the app's own service functions (not copied SQL) and
 * planned with sequential scans priced out: a plan that still sorts or scans the table means no
 * index fits. It caught drizzle's `.desc()` indexes (DESC NULLS LAST), which `order by … desc`
 * (nulls first) cannot use: a million-row Security Log page took 90 ms.
 * `npm run bench:scale` measures the same queries at full size.
 */
import { PGlite } from '@electric-sql/pglite';
import type { Logger } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/pglite';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import * as schema from '#server/db/schema.ts';
import type { Database } from '#server/db/client.ts';
import { listAdminAudit } from '#server/features/admin/admin-audit.service.ts';
import { listSecurityEvents } from '#server/features/admin/admin.service.ts';
import { listMeditations } from '#server/features/catalogue/catalogue.service.ts';
import { getPractice, listPlayed } from '#server/features/practice/practice.service.ts';
import { listWaitlist } from '#server/features/waitlist/waitlist.service.ts';

type Statement = { sql: string; params: unknown[] };

class CapturingLogger implements Logger {
  statements: Statement[] = [];
  logQuery(query: string, params: unknown[]): void {
    this.statements.push({ sql: query, params });
  }
}

describe('query plans of the paged and per-user reads', () => {
  let client: PGlite;
  let db: Database;
  const logger = new CapturingLogger();

  beforeAll(async () => {
    client = new PGlite({ loadDataDir: new Blob([new Uint8Array(readFileSync(inject('pgliteTemplatePath')))]) });
    db = drizzle(client, { schema, logger });
    await client.exec(`
      insert into "user" (id, name, email, email_verified, created_at, updated_at) values ('u1', 'Una', 'una@example.com', true, now(), now());
      insert into meditation_sessions (user_id, duration_minutes, client_id, completed_at)
        select 'u1', 10, gen_random_uuid(), now() - i * interval '1 hour' from generate_series(1, 50) i;
      insert into waitlist_entries (name, email) select 'Person ' || i, 'p' || i || '@example.com' from generate_series(1, 50) i;
      insert into security_audit_log (event_type, severity) select 'user_login', 'low' from generate_series(1, 50);
      insert into admin_audit_log (action, target_resource, severity) select 'meditation.update', 'meditation_previews', 'high' from generate_series(1, 50);
      analyze;`);
  });
  afterAll(() => client.close());

  /** The plans of the reads `read` sends, with sequential scans and sorts priced out. */
  async function plansOf(read: () => Promise<unknown>): Promise<string[]> {
    logger.statements = [];
    await read();
    const reads = logger.statements.filter((s) => /^\s*select\b/i.test(s.sql) && !s.sql.includes('pg_class'));
    expect(reads.length).toBeGreaterThan(0);
    return client.transaction(async (tx) => {
      await tx.exec('set local enable_seqscan = off; set local enable_sort = off');
      const plans: string[] = [];
      for (const s of reads) {
        const result = await tx.query<{ 'QUERY PLAN': string }>(`explain ${s.sql}`, s.params);
        plans.push(result.rows.map((r) => r['QUERY PLAN']).join('\n'));
      }
      return plans;
    });
  }

  const ordered = [
    ['the Security Log, newest first', () => listSecurityEvents({ db })],
    ['the Security Log by severity', () => listSecurityEvents({ db, severity: 'high' })],
    ['the Security Log by event type', () => listSecurityEvents({ db, eventType: 'failed_login' })],
    ['the admin audit log by severity', () => listAdminAudit({ db, limit: 50, severity: 'high' })],
    ['the waitlist, first page', () => listWaitlist({ db, limit: 10 })],
    ['the waitlist, a later page', async () => listWaitlist({ db, limit: 10, after: (await listWaitlist({ db, limit: 10 })).nextCursor ?? undefined })],
    ['the catalogue, recently added', () => listMeditations({ db, slug: 'recently-added' })],
  ] as const;

  it.each(ordered)('%s is read from an index in page order (no sort, no table scan)', async (_name, read) => {
    for (const plan of await plansOf(read)) {
      expect(plan).not.toMatch(/Seq Scan on (security_audit_log|admin_audit_log|waitlist_entries|meditation_previews)\b/);
      expect(plan).not.toMatch(/^\s*(->\s*)?Sort\b/m);
    }
  });

  it('a practice summary reads only the index (covering: user, time, minutes)', async () => {
    const plans = await plansOf(() => getPractice({ db, userId: 'u1', timezone: 'Europe/London' }));
    const sessions = plans.find((p) => p.includes('meditation_sessions'));
    expect(sessions).toMatch(/Index Only Scan using meditation_sessions_user_completed_idx/);
  });

  it("the 'Played' marks read only the index (user, meditation)", async () => {
    const plans = await plansOf(() => listPlayed({ db, userId: 'u1' }));
    expect(plans.find((p) => p.includes('meditation_sessions'))).toMatch(/Index Only Scan using meditation_sessions_user_meditation_idx/);
  });
});
