// Knex: the schema round trip, then the round of round.mjs per type. The tables come from Knex's migrations
// (specificType for the type, knex.raw for the DEFAULT); Knex has no schema diff, so the round trip reads
// them back from the catalog and with columnInfo() (whose type is information_schema's "USER-DEFINED"), and
// migrates again (nothing left to run). Knex refuses the operator ^@ in
// where() ("not permitted"): the check shows it, and the round uses whereRaw as docs/clients.md says.
import knexFactory from 'knex';
import { check, columns, exitCode, plainClient, round, same, types, wantColumns } from './round.mjs';

const tool = 'knex';
const { PGHOST: host, PGPORT: port, PGUSER: user, PGDATABASE: database } = process.env;
const knex = knexFactory({ client: 'pg', connection: { host, port: +port, user, database } });
const plain = await plainClient();
const migrations = {
	'0001_ids': {
		async up(knex) {
			for (const type of types)
				await knex.schema.createTable(`knex_${type}`, (table) => {
					table.specificType('id', type).primary().defaultTo(knex.raw(`${type}_generate()`));
					table.integer('n').notNullable();
				});
		},
		async down(knex) {
			for (const type of types) await knex.schema.dropTable(`knex_${type}`);
		},
	},
};
const migrationSource = {
	getMigrations: async () => Object.keys(migrations),
	getMigrationName: (name) => name,
	getMigration: async (name) => migrations[name],
};

await check(tool, 'migrate.latest, then columnInfo', async () => {
	same('migrations run', (await knex.migrate.latest({ migrationSource }))[1], ['0001_ids']);
	for (const type of types) {
		same(type, await columns(plain, `knex_${type}`), wantColumns(type));
		const { id } = await knex(`knex_${type}`).columnInfo();
		// columnInfo gives information_schema's data_type, which names no user-defined type
		same(`${type} columnInfo`, [id.type, id.nullable, id.defaultValue], ['USER-DEFINED', false, `${type}_generate()`]);
	}
	same('migrated again', (await knex.migrate.latest({ migrationSource }))[1], []);
	return `${types.length} tables with the type and the DEFAULT, columnInfo: USER-DEFINED, NOT NULL, the DEFAULT; nothing left to migrate`;
});
await check(tool, "where('id', '^@', p) refused", async () => {
	let said = 'accepted';
	try {
		knex('knex_timeid').where('id', '^@', 'a').toSQL();
	} catch (e) {
		said = e.message;
	}
	same('error', said, 'The operator "^@" is not permitted');
	return `"${said}": use whereRaw('id ^@ ?', [p])`;
});

for (const type of types) {
	const t = `knex_${type}`;
	const ids = (rows) => rows.map((r) => r.id);
	await round(tool, type, {
		insert: (rows) => knex(t).insert(rows),
		all: () => knex(t).orderBy('n'),
		byId: async (id) => (await knex(t).first('n').where('id', id))?.n,
		whereIn: async (list) => ids(await knex(t).select('id').whereIn('id', list).orderBy('id')),
		whereAny: async (list) => ids(await knex(t).select('id').whereRaw('id = ANY(?)', [list]).orderBy('id')),
		prefix: async (p) => ids(await knex(t).select('id').whereRaw('id ^@ ?', [p]).orderBy('id')),
		within: async (from, to) => ids(await knex(t).select('id').whereRaw('id <@ tstzrange(?, ?)', [from, to]).orderBy('id')),
		page: async (after, limit) => ids(await knex(t).select('id')
			.modify((q) => after !== null && q.where('id', '>', after)).orderBy('id').limit(limit)),
		time: async (id) => (await knex(t).first(knex.raw(`${type}_timestamp(id) AS at`)).where('id', id)).at,
		insertDefault: async (n) => (await knex(t).insert({ n }).returning('id'))[0].id,
	}, plain);
}
await knex.destroy();
await plain.end();
process.exitCode = exitCode();
