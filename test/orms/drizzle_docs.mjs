// docs/clients.md's Drizzle snippet as the page shows it: the ```ts block after a line
// `<!-- run by test/orms/drizzle_docs.mjs ... -->` is written to a module in argv[2] (a directory in this tree,
// so that its imports resolve from node_modules here), after the values the page says it is given (ids,
// prefix, from, to, lastId), and run by tsx against a table `posts` made here as its migration would.
// Prints one `ok` or `FAIL` line; exits 1 on a failure.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { plainClient, run } from './round.mjs';

const page = new URL('../../docs/clients.md', import.meta.url);
const lines = readFileSync(page, 'utf8').split('\n');
const at = lines.findIndex((l, i) => l.startsWith('<!-- run by test/orms/drizzle_docs.mjs') && lines[i + 1] === '```ts');
if (at < 0) {
	console.log('FAIL docs/clients.md: no ```ts block marked for test/orms/drizzle_docs.mjs');
	process.exit(1);
}
const end = lines.findIndex((l, i) => i > at + 1 && l === '```');
const snippet = lines.slice(at + 2, end).join('\n');
const imports = snippet.split('\n').filter((l) => l.startsWith('import ')).join('\n');
const body = snippet.split('\n').filter((l) => !l.startsWith('import ')).join('\n');
const given = `const ids = ['3kxmtyqiinc23', '3iso34eqpw222'], prefix = '3kxm', lastId = '2222222222222';
const to = new Date(), from = new Date(to.getTime() - 3600e3);`;
const file = join(process.argv[2], 'drizzle_docs_snippet.ts');
writeFileSync(file, `${imports}\n${given}\n${body}\nconsole.log('ran', typeof id);\nprocess.exit(0);\n`);

const plain = await plainClient();
await plain.query('CREATE TABLE posts (id timeid PRIMARY KEY DEFAULT timeid_generate(), n integer NOT NULL)');
const { status, said } = await run('node_modules/.bin/tsx', [file]);
const rows = (await plain.query('SELECT count(*)::int AS n FROM posts')).rows[0].n;
await plain.end();
if (status === 0 && /ran string/.test(said) && rows === 1) {
	console.log(`ok   docs/clients.md:${at + 2}: the Drizzle snippet runs as shown (its imports, an insert by the DEFAULT, IN, = ANY, ^@, <@, keyset)`);
} else {
	console.log(`FAIL docs/clients.md:${at + 2}: the Drizzle snippet: exit ${status}, ${rows} row(s): ${said}`);
	process.exit(1);
}
