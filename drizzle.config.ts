import { defineConfig } from 'drizzle-kit';

/** `npm run db:generate` writes SQL migrations that run on PGlite and PostgreSQL alike. */
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/server/db/schema/*.ts',
  out: './src/server/db/migrations',
});
