// Cross-check of timeid against atproto's own TID code (@atproto/common-web's TID class and
// @atproto/syntax's isValidTid), pinned by package-lock.json.
//   node tid.mjs make    prints TIDs made by atproto as CSV: tid,micros,clock_id
//   node tid.mjs check   reads CSV lines tid[,micros,clock_id,dashed] made by PostgreSQL and checks each one
//                        with isValidTid and, where given, atproto's reading of its fields
import { TID } from '@atproto/common-web';
import { isValidTid } from '@atproto/syntax';
import { createInterface } from 'node:readline';

const mode = process.argv[2];

if (mode === 'make') {
	const rows = [];
	// TID.next(): atproto's own generator (milliseconds * 1000 + a counter, a random clock id under 32)
	let prev;
	for (let i = 0; i < 2000; i++) {
		prev = TID.next(prev);
		rows.push(prev);
	}
	// TID.fromTime over the whole range atproto can write in 11 symbols, every clock id
	let seed = 12345;
	const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
	const lowest = 2 ** 50, highest = 2 ** 53 - 1;
	for (let clock = 0; clock < 1024; clock++) {
		const micros = lowest + Math.floor(rand() * (highest - lowest));
		rows.push(TID.fromTime(micros, clock));
	}
	rows.push(TID.fromTime(highest, 0), TID.fromTime(highest, 1023), TID.fromTime(lowest, 0));
	for (const t of rows) console.log(`${t.toString()},${t.timestamp()},${t.clockid()}`);
} else if (mode === 'check') {
	let checked = 0, bad = 0;
	const lines = createInterface({ input: process.stdin });
	for await (const line of lines) {
		if (!line) continue;
		const [str, micros, clock, dashed] = line.split(',');
		const problems = [];
		if (!isValidTid(str)) problems.push('isValidTid rejects it');
		if (micros !== undefined) {
			const t = TID.fromStr(str);
			if (String(t.timestamp()) !== micros) problems.push(`atproto reads ${t.timestamp()} µs, PostgreSQL ${micros}`);
			if (String(t.clockid()) !== clock) problems.push(`atproto reads clock ${t.clockid()}, PostgreSQL ${clock}`);
			if (t.formatted() !== dashed) problems.push(`atproto formats ${t.formatted()}, PostgreSQL ${dashed}`);
		}
		checked++;
		if (problems.length) {
			bad++;
			if (bad <= 20) console.log(`${str}: ${problems.join('; ')}`);
		}
	}
	console.log(`checked ${checked} TIDs, ${bad} disagree`);
	process.exit(bad === 0 && checked > 0 ? 0 : 1);
} else {
	console.error('usage: node tid.mjs make|check');
	process.exit(2);
}
