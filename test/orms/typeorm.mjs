// TypeORM: the schema round trip, then the round of round.mjs per type. Entities are EntitySchemas with the
// column type of typeorm/idtypes.mjs. The migration is TypeORM's own generation (what `typeorm
// migration:generate` writes: the schema builder's SQL for the entities against the database), run as a
// migration by runMigrations(); generated again it must be empty (no column changed or dropped).
import { DataSource, EntitySchema, In, MoreThan, Raw } from 'typeorm';
import { generatedId, withIdTypes } from './typeorm/idtypes.mjs';
import { check, columns, exitCode, plainClient, round, same, types, wantColumns } from './round.mjs';

const tool = 'typeorm';
const entities = Object.fromEntries(types.map((type) => [type, new EntitySchema({
	name: `typeorm_${type}`,
	columns: { id: generatedId(type), n: { type: 'int' } },
})]));
const dataSource = withIdTypes(new DataSource({
	type: 'postgres',
	host: process.env.PGHOST, port: +process.env.PGPORT, username: process.env.PGUSER, database: process.env.PGDATABASE,
	entities: Object.values(entities),
}));
const plain = await plainClient();
const pending = async () => (await dataSource.driver.createSchemaBuilder().log()).upQueries.map((q) => q.query);

await check(tool, 'refuses the type unregistered', async () => {
	const bare = new DataSource({ type: 'postgres', entities: [entities.timeid] });
	const err = await bare.buildMetadatas().then(() => 'accepted', (e) => e.name);
	same('without withIdTypes', err, 'DataTypeNotSupportedError');
	return 'DataTypeNotSupportedError, as without typeorm/idtypes.mjs';
});
await dataSource.initialize();
await check(tool, 'migration generated, then run', async () => {
	const up = await pending();
	for (const t of types)
		if (!up.some((q) => q.includes(`"id" ${t} NOT NULL DEFAULT ${t}_generate()`))) throw new Error(`${t}: ${up.join('; ')}`);
	class Init1700000000000 {
		async up(runner) {
			for (const q of up) await runner.query(q);
		}
	}
	dataSource.setOptions({ migrations: [Init1700000000000] });
	await dataSource.buildMetadatas();
	same('migrations run', (await dataSource.runMigrations()).length, 1);
	for (const t of types) same(t, await columns(plain, `typeorm_${t}`), wantColumns(t));
	return `${up.length} statements in one migration, ${types.length} tables with the type and the DEFAULT`;
});
await check(tool, 'migration generated again: nothing to change', async () => {
	const up = await pending();
	same('statements', up, []);
	return 'no statement (no column changed or dropped)';
});

for (const type of types) {
	const repo = dataSource.getRepository(entities[type]);
	const ids = (rows) => rows.map((r) => r.id);
	const idsWhere = async (id, take) => ids(await repo.find({ select: { id: true }, where: id === undefined ? {} : { id }, order: { id: 'ASC' }, take }));
	await round(tool, type, {
		insert: (rows) => repo.insert(rows),
		all: () => repo.find({ order: { n: 'ASC' } }),
		byId: async (id) => (await repo.findOneBy({ id }))?.n,
		whereIn: (list) => idsWhere(In(list)),
		whereAny: (list) => idsWhere(Raw((id) => `${id} = ANY(:list)`, { list })),
		prefix: (p) => idsWhere(Raw((id) => `${id} ^@ :p`, { p })),
		within: (from, to) => idsWhere(Raw((id) => `${id} <@ tstzrange(:from, :to)`, { from, to })),
		page: (after, limit) => idsWhere(after === null ? undefined : MoreThan(after), limit),
		time: async (id) => (await repo.createQueryBuilder('t').select(`${type}_timestamp(t.id)`, 'at')
			.where('t.id = :id', { id }).getRawOne()).at,
		insertDefault: async (n) => (await repo.save({ n })).id,
	}, plain);
}
await dataSource.destroy();
await plain.end();
process.exitCode = exitCode();
