/** Every table, for drizzle's typed client. Feature schemas live in ./schema/. */
export * from '#server/db/schema/catalogue.ts';
export * from '#server/db/schema/auth.ts';
export * from '#server/db/schema/billing.ts';
export * from '#server/db/schema/practice.ts';
export * from '#server/db/schema/admin.ts';
export * from '#server/db/schema/journal.ts';
export * from '#server/db/schema/reminders.ts';
export * from '#server/db/schema/operations.ts';
export * from '#server/db/schema/programmes.ts';
export * from '#server/db/schema/waitlist.ts';
export * from '#server/db/schema/favourites.ts';
export * from '#server/db/schema/security.ts';
