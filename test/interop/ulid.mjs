// Cross-check of uuid_from_ulid / uuid_to_ulid against the ULID spec's JavaScript implementation (the npm
// package ulid, pinned by package-lock.json).
//   node ulid.mjs make    prints CSV lines text,uuid,ms: ULIDs made by ulid's generators and converters, then
//                         texts mutated from them; uuid is ulidToUUID's answer (empty where it refuses the
//                         text), ms decodeTime's
//   node ulid.mjs check   reads CSV lines uuid,ulid made by PostgreSQL's uuid_to_ulid and checks each with
//                         ulid's isValid, uuidToULID and ulidToUUID
import { ulid, monotonicFactory, ulidToUUID, uuidToULID, isValid, decodeTime, MIN_ULID, MAX_ULID } from 'ulid';
import { randomUUID } from 'node:crypto';
import { createInterface } from 'node:readline';

const mode = process.argv[2];

if (mode === 'make') {
	const texts = [MIN_ULID, MAX_ULID, '01ARZ3NDEKTSV4RRFFQ69G5FAV'];
	for (let i = 0; i < 1000; i++) texts.push(ulid());
	const monotonic = monotonicFactory();
	for (let i = 0; i < 1000; i++) texts.push(monotonic(1469922850259)); // one millisecond: the random part counts
	for (let i = 0; i < 1000; i++) texts.push(uuidToULID(randomUUID()));
	for (let i = 0; i < 200; i++) texts.push(ulid().toLowerCase());
	// mutations: one character replaced by a printable one (CSV's comma, quote and backslash aside), a
	// character dropped or added, the first character raised
	let seed = 4242;
	const rand = n => ((seed = (seed * 1103515245 + 12345) % 2147483648) % n);
	const printable = [...Array(95).keys()].map(i => String.fromCharCode(32 + i)).filter(c => !',"\\'.includes(c));
	const base = texts.slice(0, 600);
	for (const t of base) {
		const i = rand(26);
		texts.push(t.slice(0, i) + printable[rand(printable.length)] + t.slice(i + 1));
		texts.push(t.slice(0, i) + t.slice(i + 1));
		texts.push(t + '0');
		texts.push('89ABCDEFGHJKMNPQRSTVWXYZ'[rand(24)] + t.slice(1));
	}
	for (const t of texts) {
		let uuid = '', ms = '';
		try {
			uuid = ulidToUUID(t).toLowerCase();
			ms = String(decodeTime(t));
		} catch {
			uuid = '';
		}
		console.log(`${t},${uuid},${ms}`);
	}
} else if (mode === 'check') {
	let n = 0, bad = 0;
	for await (const line of createInterface({ input: process.stdin })) {
		if (!line) continue;
		const [uuid, text] = line.split(',');
		n++;
		const problems = [];
		if (!isValid(text)) problems.push('not isValid');
		if (uuidToULID(uuid) !== text) problems.push(`uuidToULID gives ${uuidToULID(uuid)}`);
		if (ulidToUUID(text).toLowerCase() !== uuid) problems.push(`ulidToUUID gives ${ulidToUUID(text)}`);
		if (problems.length) {
			bad++;
			if (bad <= 20) console.log(`${uuid} -> ${text}: ${problems.join('; ')}`);
		}
	}
	if (bad || n < 3000) {
		console.log(`${bad} of ${n} disagree`);
		process.exit(1);
	}
	console.log(`${n} uuid_to_ulid texts read alike by ulid`);
} else {
	console.error('usage: node ulid.mjs make|check');
	process.exit(2);
}
