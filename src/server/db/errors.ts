/** What the database's errors mean, whichever driver (PGlite or node-postgres) raised them. */

/** Postgres (and PGlite) report unique violations as SQLSTATE 23505, possibly wrapped by drizzle. */
export function isUniqueViolation(error: unknown): boolean {
  for (let e = error as { code?: string; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (e.code === '23505') return true;
  }
  return false;
}
