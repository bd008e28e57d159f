// The test's Drizzle schema: one table per type, made by drizzle-kit generate and drizzle-orm's migrator.
// For one table, written out: pgTable('posts', { id: timeid('id').primaryKey().default(sql`timeid_generate()`), ... }).
import { sql } from 'drizzle-orm';
import { integer, pgTable } from 'drizzle-orm/pg-core';
import { scru160, tbsl, timeid, uid11 } from './idtypes';

const idTable = (type: string, idType: typeof timeid) => pgTable(`drizzle_${type}`, {
	id: idType('id').primaryKey().default(sql.raw(`${type}_generate()`)),
	n: integer('n').notNull(),
});

export const drizzleTimeid = idTable('timeid', timeid);
export const drizzleTbsl = idTable('tbsl', tbsl);
export const drizzleUid11 = idTable('uid11', uid11);
export const drizzleScru160 = idTable('scru160', scru160);
