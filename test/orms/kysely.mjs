// Kysely: the schema round trip, then the round of round.mjs per type. The tables come from Kysely's
// Migrator with its schema builder (the type as sql`timeid`, the DEFAULT as sql`timeid_generate()`);
// Kysely has no schema diff, so the round trip reads them back through its introspection (type, NOT NULL,
// DEFAULT) and migrates again (nothing left to run).
import { Kysely, Migrator, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { check, columns, exitCode, plainClient, round, same, types, wantColumns } from './round.mjs';

const tool = 'kysely';
const db = new Kysely({ dialect: new PostgresDialect({ pool: new pg.Pool() }) });
const plain = await plainClient();
const migrations = {
	'0001_ids': {
		async up(db) {
			for (const type of types)
				await db.schema.createTable(`kysely_${type}`)
					.addColumn('id', sql`${sql.raw(type)}`, (c) => c.primaryKey().defaultTo(sql`${sql.raw(type)}_generate()`))
					.addColumn('n', 'integer', (c) => c.notNull())
					.execute();
		},
	},
};
const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });

await check(tool, 'Migrator, then introspection', async () => {
	const { error, results } = await migrator.migrateToLatest();
	if (error) throw error;
	same('migrations run', results.map((r) => r.status), ['Success']);
	const tables = Object.fromEntries((await db.introspection.getTables()).map((t) => [t.name, t]));
	for (const type of types) {
		same(type, await columns(plain, `kysely_${type}`), wantColumns(type));
		const id = tables[`kysely_${type}`].columns.find((c) => c.name === 'id');
		same(`${type} introspected`, [id.dataType, id.isNullable, id.hasDefaultValue], [type, false, true]);
	}
	// idtypes_internal (the carrier) is listed by no introspection; adoption's state tables are (their schema is
	// usable by every table owner, each row under row-level security), as docs/clients.md says: listed, never migrated
	const all = await db.introspection.getTables();
	const own = all.filter((t) => t.schema === 'idtypes_internal' || t.name === 'high_water');
	same("the extension's carrier introspected", own.map((t) => `${t.schema}.${t.name}`), []);
	same("adoption's state tables introspected", all.filter((t) => t.schema === 'idtypes_adopt').map((t) => t.name).sort(),
		['cursor', 'log', 'member', 'migration']);
	same('migrated again', (await migrator.migrateToLatest()).results, []);
	return `${types.length} tables with the type and the DEFAULT, introspected as such, nothing of idtypes_internal, adoption's 4 state tables listed; nothing left to migrate`;
});

for (const type of types) {
	const t = `kysely_${type}`;
	const ids = (rows) => rows.map((r) => r.id);
	const idsWhere = async (...where) => ids(await db.selectFrom(t).select('id').where(...where).orderBy('id').execute());
	await round(tool, type, {
		insert: (rows) => db.insertInto(t).values(rows).execute(),
		all: () => db.selectFrom(t).selectAll().orderBy('n').execute(),
		byId: async (id) => (await db.selectFrom(t).select('n').where('id', '=', id).executeTakeFirst())?.n,
		whereIn: (list) => idsWhere('id', 'in', list),
		whereAny: (list) => idsWhere('id', '=', sql`any(${list})`), // one array parameter
		prefix: (p) => idsWhere('id', '^@', p),
		within: (from, to) => idsWhere('id', '<@', sql`tstzrange(${from}, ${to})`),
		page: async (after, limit) => ids(await db.selectFrom(t).select('id')
			.$if(after !== null, (q) => q.where('id', '>', after)).orderBy('id').limit(limit).execute()),
		time: async (id) => (await db.selectFrom(t).select(sql`id::timestamptz`.as('at')).where('id', '=', id).executeTakeFirst()).at,
		insertDefault: async (n) => (await db.insertInto(t).values({ n }).returning('id').executeTakeFirstOrThrow()).id,
	}, plain);
}
await db.destroy();
await plain.end();
process.exitCode = exitCode();
