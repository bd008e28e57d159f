// Prisma 7 with @prisma/adapter-pg: what runs without Prisma's engine downloads, then the round of
// round.mjs per type. Prisma 7's client needs no engine binary (its query compiler is WebAssembly and the
// queries go through node-postgres); its CLI's generate and validate are WebAssembly too. Its schema engine
// (migrate dev/deploy/diff, db pull/push) is a native binary the CLI downloads from binaries.prisma.sh,
// which this machine cannot reach: that check says skip with the reason. The tables come from
// prisma/migrations/0_init/migration.sql, the hand-written migration docs/clients.md asks for (`migrate dev`
// would write text columns), applied as `migrate deploy` would. Run by run.sh with tsx (the generated
// client is TypeScript) after `prisma generate`.
import { readFileSync, writeFileSync } from 'node:fs';
import { PrismaPg } from '@prisma/adapter-pg';
import { Prisma, PrismaClient } from './prisma/generated/client.ts';
import { check, columns, exitCode, plainClient, round, run, same, types, wantColumns } from './round.mjs';

const tool = 'prisma';
const work = process.argv[2];
// CHECKPOINT_DISABLE: no update check over the network
const cli = (env, ...args) => run('node_modules/.bin/prisma', args, { CHECKPOINT_DISABLE: '1', ...env });
// validate only needs the engine's path to be set (else the CLI tries to download the engine first);
// the schema itself was validated by `prisma generate` (run.sh), which refuses an invalid one
const noEngine = { PRISMA_SCHEMA_ENGINE_BINARY: '/bin/false' };
const plain = await plainClient();

writeFileSync(`${work}/unsupported.prisma`, readFileSync('prisma/schema.prisma', 'utf8')
	.replace('id String @id @default(dbgenerated("timeid_generate()"))', 'id Unsupported("timeid") @id @default(dbgenerated("timeid_generate()"))'));
const [unsupported, diff] = await Promise.all([
	cli(noEngine, 'validate', '--schema', `${work}/unsupported.prisma`),
	cli({}, 'migrate', 'diff', '--from-empty', '--to-schema', 'prisma/schema.prisma', '--script'),
]);
await check(tool, 'an Unsupported("timeid") @id is refused', async () => {
	const { status, said } = unsupported;
	if (status === 0 || !/P1012/.test(said)) throw new Error(`status ${status}: ${said}`);
	return 'P1012: hence String @id @default(dbgenerated(...)), which generate took';
});
{
	const { status, said } = diff;
	const blocked = /binaries\.prisma\.sh.*(ENOTFOUND|ECONNREFUSED|EAI_AGAIN|ETIMEDOUT)/.exec(said);
	if (blocked) console.log(`skip prisma migrate diff / db pull (the schema engine): the CLI must download it and cannot: ${blocked[0]}`);
	else
		await check(tool, 'prisma migrate diff writes text for the String ids', async () => {
			if (status !== 0) throw new Error(said);
			for (const t of types) if (!new RegExp(`"prisma_${t}"[^;]*"id" TEXT NOT NULL DEFAULT ${t}_generate\\(\\)`).test(said)) throw new Error(said);
			return 'as docs/clients.md says: write the migration by hand (prisma/migrations/0_init)';
		});
}

const queries = [];
const prisma = new PrismaClient({ adapter: new PrismaPg({}), log: [{ emit: 'event', level: 'query' }] });
prisma.$on('query', (e) => queries.push(e.query));
await check(tool, 'the migration applied, the client on it', async () => {
	for (const statement of readFileSync('prisma/migrations/0_init/migration.sql', 'utf8').replace(/^--.*$/gm, '').split(';'))
		if (statement.trim()) await prisma.$executeRawUnsafe(statement);
	for (const t of types) same(t, await columns(plain, `prisma_${t}`), wantColumns(t));
	return `${types.length} tables with the type and the DEFAULT`;
});
// Prisma's startsWith compares id::text with LIKE, which no index on the column serves: use ^@ (raw).
await check(tool, 'startsWith is LIKE on id::text (no index)', async () => {
	queries.length = 0;
	await prisma.prismaTimeid.findMany({ where: { id: { startsWith: '3k' } } });
	if (!queries.some((q) => /"id"::text LIKE/.test(q))) throw new Error(queries.join('; '));
	return `${queries.find((q) => /LIKE/.test(q)).replace(/.*WHERE /, 'WHERE ')}: use $queryRaw with ^@`;
});

const models = { timeid: prisma.prismaTimeid, tbsl: prisma.prismaTbsl, uid11: prisma.prismaUid11, scru160: prisma.prismaScru160 };
for (const type of types) {
	const model = models[type], table = Prisma.raw(`prisma_${type}`);
	const ids = (rows) => rows.map((r) => r.id);
	const idsWhere = async (where, take) => ids(await model.findMany({ select: { id: true }, where, orderBy: { id: 'asc' }, take }));
	const raw = async (condition) => ids(await prisma.$queryRaw`SELECT id FROM ${table} WHERE ${condition} ORDER BY id`);
	await round(tool, type, {
		insert: (rows) => model.createMany({ data: rows }),
		all: () => model.findMany({ orderBy: { n: 'asc' } }),
		byId: async (id) => (await model.findUnique({ where: { id } }))?.n,
		whereIn: (list) => idsWhere({ id: { in: list } }),
		whereAny: (list) => raw(Prisma.sql`id = ANY(${list})`),
		prefix: (p) => raw(Prisma.sql`id ^@ ${p}`),
		within: (from, to) => raw(Prisma.sql`id <@ tstzrange(${from}, ${to})`),
		page: (after, limit) => idsWhere(after === null ? {} : { id: { gt: after } }, limit),
		time: async (id) => (await prisma.$queryRaw`SELECT ${Prisma.raw(type)}_timestamp(id) AS at FROM ${table} WHERE id = ${id}`)[0].at,
		insertDefault: async (n) => (await model.create({ data: { n } })).id,
	}, plain);
}
await prisma.$disconnect();
await plain.end();
process.exitCode = exitCode();
