/** Column builders the tables share, so that each table spells out only what is its own. */
import { timestamp, uuid, type AnyPgColumn } from 'drizzle-orm/pg-core';

/** A moment, as every table keeps one: a timestamp with time zone, read as a Date. */
export const timestampTz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** A moment the database fills with the time of the insert unless one is given (created_at, saved_at …). */
export const stampedAt = (name: string) => timestampTz(name).notNull().defaultNow();

/** created_at and updated_at, both filled by the database. */
export const timestamps = {
  createdAt: stampedAt('created_at'),
  updatedAt: stampedAt('updated_at'),
};

/** The row this one belongs to (by its uuid), removed with it. */
export const parentId = (name: string, parent: () => AnyPgColumn) => uuid(name).notNull().references(parent, { onDelete: 'cascade' });
