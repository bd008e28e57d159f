// Round trips of every idtypes type through node-postgres (npm `pg`), as an application uses it: text
// parameters and results (strings, the default), the query shapes of an ID column, binary results decoded
// by a type parser registered by OID, and binary parameters (a Buffer is sent in binary format).
// Reads the IDs from the table `samples` (samples.sql); connects with PGHOST etc. Prints `ok` / `FAIL`.
import { readFileSync } from 'node:fs';
import pg from 'pg';

// Each type's text is its send format's bytes as one big-endian number, in a fixed width and alphabet.
const codecs = JSON.parse(readFileSync(new URL('codecs.json', import.meta.url)));

function decode({ bytes, width, alphabet }, buf) {
	if (buf.length !== bytes) throw new Error(`${buf.length} bytes, expected ${bytes}`);
	const base = BigInt(alphabet.length);
	let v = BigInt('0x' + buf.toString('hex'));
	let text = '';
	for (let i = 0; i < width; i++, v /= base) text = alphabet[Number(v % base)] + text;
	if (v !== 0n) throw new Error(`${buf.toString('hex')} does not fit ${width} symbols`);
	return text;
}

function encode({ bytes, alphabet }, text) {
	const base = BigInt(alphabet.length);
	let v = 0n;
	for (const c of text) v = v * base + BigInt(alphabet.indexOf(c));
	return Buffer.from(v.toString(16).padStart(2 * bytes, '0'), 'hex');
}

let failed = false;
async function check(name, fn) {
	try {
		console.log(`ok   node-postgres ${name}: ${await fn()}`);
	} catch (e) {
		failed = true;
		console.log(`FAIL node-postgres ${name}: ${e.message}`);
	}
}
function same(what, got, want) {
	const g = JSON.stringify(got), w = JSON.stringify(want);
	if (g !== w) throw new Error(`${what}: got ${g.slice(0, 300)}, expected ${w.slice(0, 300)}`);
}
// `binary: true` applies to the extended protocol only: a query without parameters goes through the
// simple protocol and comes back in text unless queryMode is 'extended'.
async function binaryRows(text, types) {
	const r = await client.query({ text, binary: true, queryMode: 'extended', types });
	if (!r.fields.every((f) => f.format === 'binary')) throw new Error(`${text}: results not in binary`);
	return r.rows;
}
const byCodeUnit = (a, b) => (a < b ? -1 : a > b ? 1 : 0);

const client = new pg.Client(); // PGHOST, PGPORT, PGUSER, PGDATABASE from the environment
await client.connect();

// Set-up: the types' OIDs differ per database, so fetch them once and register a binary parser for each.
// (Applications would call pg.types.setTypeParser(oid, 'binary', parse) once; a per-query `types` keeps
// this test's parsers to its own queries.)
const oids = {};
for (const { typname, oid } of (await client.query(
	'SELECT t AS typname, t::regtype::oid AS oid FROM unnest($1::text[]) t', [Object.keys(codecs)])).rows)
	oids[typname] = oid;
// This test's parser also keeps the bytes it was given, to check them (see the binary results check).
const parsers = new Map(Object.entries(oids).map(([t, oid]) => [oid, (buf) => ({
	bytes: Buffer.from(buf), text: buf.length === codecs[t].bytes ? decode(codecs[t], buf) : null })]));
const recording = {
	getTypeParser: (oid, format) => (format === 'binary' && parsers.get(oid)) || pg.types.getTypeParser(oid, format),
};
console.log(`ok   node-postgres set-up: OIDs ${JSON.stringify(oids)}, binary parsers registered`);

for (const [type, codec] of Object.entries(codecs)) {
	const { rows: samples } = await client.query(
		'SELECT id, hex, value::text FROM samples WHERE type = $1 ORDER BY id COLLATE "C"', [type]);
	const ids = samples.map((s) => s.id);
	const table = `node_${type}`, sorted = [...ids].sort(byCodeUnit);
	await client.query(`CREATE TABLE ${table} (id ${type} PRIMARY KEY, n int)`);

	await check(`${type} insert and select with text parameters`, async () => {
		if (ids.length < 150) throw new Error(`only ${ids.length} samples`);
		for (const [n, id] of ids.entries()) await client.query(`INSERT INTO ${table} VALUES ($1, $2)`, [id, n]);
		const { rows } = await client.query(`SELECT id, n FROM ${table} ORDER BY n`);
		if (!rows.every((r) => typeof r.id === 'string')) throw new Error('ids not read as strings');
		same('rows', rows.map((r) => r.id), ids);
		return `${rows.length} IDs back as the same strings`;
	});

	await check(`${type} WHERE id = $1`, async () => {
		for (const [n, id] of ids.entries())
			same(id, (await client.query(`SELECT n FROM ${table} WHERE id = $1`, [id])).rows, [{ n }]);
		return `${ids.length} lookups, each its one row`;
	});

	await check(`${type} id = ANY($1) with an array`, async () => {
		const want = ids.filter((_, i) => i % 7 === 0);
		const absent = codec.alphabet[0].repeat(codec.width - 1) + codec.alphabet[1]; // in no sample
		const { rows } = await client.query(`SELECT id FROM ${table} WHERE id = ANY($1) ORDER BY id`, [[...want, absent]]);
		same('rows', rows.map((r) => r.id), [...want].sort(byCodeUnit));
		return `${rows.length} of ${want.length + 1} IDs asked (one absent) found`;
	});

	await check(`${type} insert with the column DEFAULT`, async () => {
		await client.query(`CREATE TABLE ${table}_default (id ${type} PRIMARY KEY DEFAULT ${type}_generate(), n int)`);
		let id;
		for (const n of [1, 2, 3]) {
			({ id } = (await client.query(`INSERT INTO ${table}_default (n) VALUES ($1) RETURNING id`, [n])).rows[0]);
			same(`the DEFAULT's ${id}`, (await client.query(`SELECT n FROM ${table}_default WHERE id = $1`, [id])).rows, [{ n }]);
			same('its width', id.length, codec.width);
		}
		return `3 IDs from ${type}_generate() read as strings and found again by id = $1, e.g. ${id}`;
	});

	await check(`${type} id ^@ $1`, async () => {
		const mid = ids[75], counts = [];
		for (const p of [0, 1, 2, 3, 4, 6, codec.width].map((k) => mid.slice(0, k))) {
			const { rows } = await client.query(`SELECT id FROM ${table} WHERE id ^@ $1 ORDER BY id`, [p]);
			same(`prefix '${p}'`, rows.map((r) => r.id), sorted.filter((id) => id.startsWith(p)));
			counts.push(rows.length);
		}
		return `prefixes of ${mid} match ${counts.join(', ')} rows, as startsWith says`;
	});

	await check(`${type} id <@ tstzrange($1, $2)`, async () => {
		const window = [new Date('2024-01-02T00:00:00Z'), new Date('2024-01-03T00:00:00Z')];
		const got = await client.query(`SELECT id FROM ${table} WHERE id <@ tstzrange($1, $2) ORDER BY id`, window);
		const want = await client.query(
			`SELECT id FROM ${table} WHERE id::timestamptz >= $1 AND id::timestamptz < $2 ORDER BY id`, window);
		same('window', got.rows, want.rows);
		if (!(got.rows.length > 0 && got.rows.length < ids.length)) throw new Error(`${got.rows.length} rows`);
		return `${got.rows.length} of ${ids.length} IDs in a one-day window of Date parameters`;
	});

	await check(`${type} keyset pagination`, async () => {
		const seen = [];
		let page = (await client.query(`SELECT id FROM ${table} ORDER BY id LIMIT 10`)).rows, pages = 1;
		for (; page.length > 0; pages++) {
			seen.push(...page.map((r) => r.id));
			page = (await client.query(`SELECT id FROM ${table} WHERE id > $1 ORDER BY id LIMIT 10`, [seen.at(-1)])).rows;
		}
		same('pages', seen, sorted);
		return `${pages} pages of 10 walk all ${seen.length} IDs once, in text order`;
	});

	// node-postgres (8.23.1 and earlier) reads every result field as UTF-8 text and turns it back into a
	// Buffer for binary fields, so any byte sequence that is not valid UTF-8 comes back with U+FFFD in its
	// place (brianc/node-postgres#3495, open). So: every binary result must be either the ID's bytes,
	// decoding to its text, or exactly that mangling of them; the decoder is checked on every ID's bytes as
	// the server's id::bytea gives them (bytea text format, which node-postgres reads intact).
	await check(`${type} binary results`, async () => {
		const text = (await client.query(`SELECT id FROM ${table} ORDER BY id`)).rows.map((r) => r.id);
		const bin = (await binaryRows(`SELECT id FROM ${table} ORDER BY id`, recording)).map((r) => r.id);
		same('rows', bin.length, samples.length);
		let intact = 0;
		for (const [i, s] of samples.entries()) {
			const bytes = Buffer.from(s.hex, 'hex');
			same(`${s.id}: the decoder on id::bytea`, decode(codec, bytes), text[i]);
			same(`${s.id}: the bytes as a number vs the server's reading`, BigInt('0x' + s.hex).toString(), s.value);
			if (bin[i].bytes.equals(bytes)) {
				same(`${s.id}: the registered parser's result`, bin[i].text, text[i]);
				intact++;
			} else {
				same(`${s.id}: neither its bytes nor their UTF-8 mangling`, bin[i].bytes.toString('hex'),
					Buffer.from(bytes.toString('utf8')).toString('hex'));
			}
		}
		if (intact < 2) throw new Error(`only ${intact} IDs came back intact`);
		return `the parser registered by OID decodes the ${intact} intact IDs to their text; ` +
			`${samples.length - intact} corrupted by node-postgres#3495 (use text results); decoder right on all`;
	});

	await check(`${type} binary parameters`, async () => {
		await client.query(`CREATE TABLE ${table}_bin (id ${type}, n int)`);
		for (const [n, id] of ids.entries()) {
			await client.query(`INSERT INTO ${table}_bin VALUES ($1, $2)`, [encode(codec, id), n]);
			same(id, (await client.query(`SELECT n FROM ${table} WHERE id = $1`, [encode(codec, id)])).rows, [{ n }]);
		}
		same('rows', (await client.query(`SELECT id FROM ${table}_bin ORDER BY n`)).rows.map((r) => r.id), ids);
		const short = await client.query(`SELECT n FROM ${table} WHERE id = $1`, [Buffer.alloc(codec.bytes - 1)])
			.then(() => 'accepted', (e) => e.code);
		same(`${codec.bytes - 1} bytes`, short, '22P03');
		return `${ids.length} Buffers inserted and looked up; ${codec.bytes - 1} bytes refused (22P03)`;
	});
}

await client.end();
process.exitCode = failed ? 1 : 0;
