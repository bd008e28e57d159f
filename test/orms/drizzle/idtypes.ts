// Drizzle column builders for the idtypes types: copy this file. A customType whose dataType names the
// type, so that drizzle-kit generate writes `"id" timeid` and compares it with the same name next time;
// IDs are strings both ways. Use: id: timeid('id').primaryKey().default(sql`timeid_generate()`).
import { customType } from 'drizzle-orm/pg-core';

const idType = (name: string) => customType<{ data: string; driverData: string }>({ dataType: () => name });

export const timeid = idType('timeid');
export const tbsl = idType('tbsl');
export const uid11 = idType('uid11');
export const scru160 = idType('scru160');
