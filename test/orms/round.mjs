// The round every Node tool of test/orms goes through, per type, on a table `<tool>_<type>` (id T PRIMARY KEY
// DEFAULT T_generate(), n int) the tool's own migration made: inserts with explicit IDs, reads back, `=`,
// `IN`, `= ANY(array)`, `^@`, `<@ tstzrange` from Dates, keyset pages, the ID's time read as a Date, and an
// insert with the column DEFAULT whose ID comes back by RETURNING. A tool supplies each operation in its own
// idiom (see drizzle.mjs etc.); the expected results come from the samples (test/drivers/samples.sql) and
// from the server through plain node-postgres. Prints `ok` / `FAIL` lines.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import pg from 'pg';

export const types = ['timeid', 'tbsl', 'uid11', 'scru160'];
const codecs = JSON.parse(readFileSync(new URL('../drivers/codecs.json', import.meta.url)));
const byCodeUnit = (a, b) => (a < b ? -1 : a > b ? 1 : 0);

let failed = false;
export async function check(tool, name, fn) {
	try {
		console.log(`ok   ${tool} ${name}: ${await fn()}`);
	} catch (e) {
		failed = true;
		console.log(`FAIL ${tool} ${name}: ${String(e.message).split('\n').slice(0, 6).join(' | ')}`);
	}
}
export function same(what, got, want) {
	const g = JSON.stringify(got), w = JSON.stringify(want);
	if (g !== w) throw new Error(`${what}: got ${g.slice(0, 300)}, expected ${w.slice(0, 300)}`);
}
export const exitCode = () => (failed ? 1 : 0);

// A command's exit status and what it said (stdout, then stderr), without waiting for it: the schema tools'
// command-line programs spend seconds loading, so the independent ones run side by side.
export function run(command, args, env = {}) {
	return new Promise((resolve) => execFile(command, args, { encoding: 'utf8', env: { ...process.env, ...env }, timeout: 120000 },
		(error, stdout, stderr) => resolve({ status: error ? error.code ?? 1 : 0, said: `${stdout}${stderr}` })));
}

// A node-postgres client of its own, for the expected values and the schema checks.
export async function plainClient() {
	const client = new pg.Client();
	await client.connect();
	return client;
}

// The columns of a table as the server sees them: name, type, NOT NULL, DEFAULT.
export async function columns(client, table) {
	const { rows } = await client.query(
		`SELECT attname AS name, format_type(atttypid, atttypmod) AS type, attnotnull AS notnull,
		        pg_get_expr(adbin, adrelid) AS default
		 FROM pg_attribute LEFT JOIN pg_attrdef ON adrelid = attrelid AND adnum = attnum
		 WHERE attrelid = $1::regclass AND attnum > 0 AND NOT attisdropped ORDER BY attnum`, [table]);
	return rows;
}
// The table every tool's migration must make: the ID column with its type and DEFAULT, and `n`.
export function wantColumns(type) {
	return [{ name: 'id', type, notnull: true, default: `${type}_generate()` },
		{ name: 'n', type: 'integer', notnull: true, default: null }];
}

// ops (all async, IDs as strings, rows as {id, n}):
//   insert(rows)            insert these rows with explicit IDs
//   all()                   every row, ordered by n
//   byId(id)                the n of the row with this id (=)
//   whereIn(ids), whereAny(ids)   the IDs found, ordered by id (IN (...) and = ANY(one array parameter))
//   prefix(p)               IDs with id ^@ p, ordered
//   within(from, to)        IDs with id <@ tstzrange(from, to) (two Dates), ordered
//   page(after, limit)      the next keyset page of IDs after `after` (null: the first page)
//   time(id)                T_timestamp(id) or id::timestamptz, as a Date
//   insertDefault(n)        insert a row with the column DEFAULT; the ID read back by RETURNING
export async function round(tool, type, ops, plain) {
	const codec = codecs[type];
	const { rows: samples } = await plain.query('SELECT id FROM samples WHERE type = $1 ORDER BY id COLLATE "C"', [type]);
	const ids = samples.map((s) => s.id), sorted = [...ids].sort(byCodeUnit);
	const pick = ids.filter((_, i) => i % 7 === 0);
	const absent = codec.alphabet[0].repeat(codec.width - 1) + codec.alphabet[1]; // in no sample

	await check(tool, `${type} insert with explicit IDs, read back`, async () => {
		if (ids.length < 150) throw new Error(`only ${ids.length} samples`);
		await ops.insert(ids.map((id, n) => ({ id, n })));
		const rows = await ops.all();
		if (!rows.every((r) => typeof r.id === 'string')) throw new Error(`ids read as ${typeof rows[0]?.id}`);
		same('rows', rows.map((r) => r.id), ids);
		return `${rows.length} IDs back as the same strings`;
	});
	await check(tool, `${type} id = $1`, async () => {
		for (const [n, id] of ids.entries()) same(id, await ops.byId(id), n);
		return `${ids.length} lookups, each its row`;
	});
	await check(tool, `${type} id IN (...) and id = ANY(array)`, async () => {
		const want = [...pick].sort(byCodeUnit);
		same('IN', await ops.whereIn([...pick, absent]), want);
		same('= ANY', await ops.whereAny([...pick, absent]), want);
		return `${want.length} of ${pick.length + 1} IDs asked (one absent) found both ways`;
	});
	await check(tool, `${type} id ^@ prefix`, async () => {
		const mid = ids[75], counts = [];
		for (const p of [1, 2, 4, codec.width].map((k) => mid.slice(0, k))) {
			const got = await ops.prefix(p);
			same(`prefix '${p}'`, got, sorted.filter((id) => id.startsWith(p)));
			counts.push(got.length);
		}
		return `prefixes of ${mid} match ${counts.join(', ')} rows`;
	});
	await check(tool, `${type} id <@ tstzrange(Date, Date)`, async () => {
		const from = new Date('2024-01-02T00:00:00Z'), to = new Date('2024-01-03T00:00:00Z');
		const got = await ops.within(from, to);
		const { rows } = await plain.query(`SELECT id::text FROM samples WHERE type = $1
			AND id::${type}::timestamptz >= $2 AND id::${type}::timestamptz < $3`, [type, from, to]);
		same('window', got, rows.map((r) => r.id).sort(byCodeUnit));
		if (!(got.length > 0 && got.length < ids.length)) throw new Error(`${got.length} rows`);
		return `${got.length} of ${ids.length} IDs in a one-day window`;
	});
	await check(tool, `${type} keyset pages`, async () => {
		const seen = [];
		let page = await ops.page(null, 10), pages = 1;
		for (; page.length > 0; pages++) {
			seen.push(...page);
			page = await ops.page(seen.at(-1), 10);
		}
		same('pages', seen, sorted);
		return `${pages} pages of 10 walk all ${seen.length} IDs once, in order`;
	});
	await check(tool, `${type} the ID's time as a Date`, async () => {
		const { rows } = await plain.query(`SELECT id::text, id::${type}::timestamptz AS t FROM samples
			WHERE type = $1 AND id::${type}::timestamptz > '2000-01-01' ORDER BY id LIMIT 5`, [type]);
		for (const r of rows) {
			const got = await ops.time(r.id);
			if (!(got instanceof Date)) throw new Error(`${r.id}: ${typeof got}, not a Date`);
			same(r.id, got.toISOString(), r.t.toISOString());
		}
		return `${rows.length} IDs' times read as Dates equal to the server's (to the millisecond)`;
	});
	await check(tool, `${type} insert with the column DEFAULT, ID back by RETURNING`, async () => {
		const got = [];
		for (const n of [1001, 1002, 1003]) {
			const id = await ops.insertDefault(n);
			if (typeof id !== 'string' || id.length !== codec.width) throw new Error(`returned ${JSON.stringify(id)}`);
			same(id, await ops.byId(id), n);
			got.push(id);
		}
		return `3 IDs from ${type}_generate() found again by id, e.g. ${got[2]}`;
	});
}
