// The test's Drizzle schema: one table per type, made by drizzle-kit generate and drizzle-orm's migrator.
import { sql } from 'drizzle-orm';
import { integer, pgTable } from 'drizzle-orm/pg-core';
import { scru160, tbsl, timeid, uid11 } from './idtypes';

export const drizzleTimeid = pgTable('drizzle_timeid', {
	id: timeid('id').primaryKey().default(sql`timeid_generate()`),
	n: integer('n').notNull(),
});
export const drizzleTbsl = pgTable('drizzle_tbsl', {
	id: tbsl('id').primaryKey().default(sql`tbsl_generate()`),
	n: integer('n').notNull(),
});
export const drizzleUid11 = pgTable('drizzle_uid11', {
	id: uid11('id').primaryKey().default(sql`uid11_generate()`),
	n: integer('n').notNull(),
});
export const drizzleScru160 = pgTable('drizzle_scru160', {
	id: scru160('id').primaryKey().default(sql`scru160_generate()`),
	n: integer('n').notNull(),
});
