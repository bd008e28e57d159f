// FF1 vectors from @noble/ciphers (an implementation independent of src/core/ff1), radix 2 at the bit widths
// of the public forms: one line per vector, `n key tweak in out` in hex, `in` and `out` being the low n bits
// of a big-endian byte string of ceil(n/8) bytes. test/core/ff1_vectors.cpp reads them and checks the core.
import { FF1 } from '@noble/ciphers/ff1.js';
import { randomBytes } from 'node:crypto';

const perWidth = Number(process.argv[2] ?? 200);
const hex = (bytes) => Buffer.from(bytes).toString('hex');

function bitsOf(bytes, n) { // the low n bits, most significant first
	const bits = [];
	for (let i = bytes.length * 8 - n; i < bytes.length * 8; i++) bits.push((bytes[i >> 3] >> (7 - (i & 7))) & 1);
	return bits;
}
function bytesOf(bits) {
	const out = new Uint8Array(Math.ceil(bits.length / 8));
	const pad = out.length * 8 - bits.length;
	bits.forEach((b, i) => { if (b) out[(pad + i) >> 3] |= 0x80 >> ((pad + i) & 7); });
	return out;
}

for (const n of [63, 64, 80, 122, 160]) {
	for (let k = 0; k < perWidth; k++) {
		const key = randomBytes(k % 3 === 0 ? 16 : 32); // AES-256 as the keyring holds, some AES-128 too
		const tweak = randomBytes(k % 41); // across the 16-byte boundaries of the PRF's padding
		const input = bytesOf(bitsOf(randomBytes(Math.ceil(n / 8)), n));
		const output = bytesOf(FF1(2, key, tweak).encrypt(bitsOf(input, n)));
		console.log(`${n} ${hex(key)} ${hex(tweak) || '-'} ${hex(input)} ${hex(output)}`);
	}
}
