// How a test tells that a server skipped another key's range. `fullrand_tickets K0 K1 AFTER UPTO < values`
// reads uid11 values (their 64-bit numbers in decimal, one a line) and prints how many of them have, under
// the key K0 K1, a ticket in (AFTER, UPTO] (all in hex, as a key record writes them), then how many values it
// read. `fullrand_tickets wrap NONCE K0 K1` prints the key as a key record shows it in the cluster whose
// mock authentication nonce (pg_controldata) is NONCE, as src/pg/mark/key_records.cpp wraps it.
#include "core/uid11.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>

namespace {

unsigned long long hex(const char *s) { return std::strtoull(s, nullptr, 16); }

int wrap(const char *nonce, const char *k0, const char *k1)
{
	unsigned char bytes[sizeof(idtypes::uid11::Wrap)];
	if (std::strlen(nonce) < 2 * sizeof bytes)
		return 2;
	for (std::size_t i = 0; i < sizeof bytes; i++) {
		const char pair[3] = {nonce[2 * i], nonce[2 * i + 1], '\0'};
		bytes[i] = static_cast<unsigned char>(std::strtoul(pair, nullptr, 16));
	}
	idtypes::uid11::Wrap w;
	std::memcpy(&w, bytes, sizeof w);
	const idtypes::uid11::FullrandKey shown = idtypes::uid11::wrap_key({hex(k0), hex(k1)}, w);
	std::printf("%016llx %016llx\n", static_cast<unsigned long long>(shown.k0),
	            static_cast<unsigned long long>(shown.k1));
	return 0;
}

} // namespace

int main(int argc, char **argv)
{
	if (argc == 5 && std::strcmp(argv[1], "wrap") == 0)
		return wrap(argv[2], argv[3], argv[4]);
	if (argc != 5) {
		std::fprintf(stderr, "usage: fullrand_tickets K0 K1 AFTER UPTO < values | fullrand_tickets wrap NONCE K0 K1\n");
		return 2;
	}
	const idtypes::uid11::KeyRange range{{hex(argv[1]), hex(argv[2])}, hex(argv[3]), hex(argv[4])};
	unsigned long long in_range = 0, values = 0;
	std::string line;
	while (std::getline(std::cin, line)) {
		values++;
		in_range += !idtypes::uid11::fullrand_clear(std::strtoull(line.c_str(), nullptr, 10), &range, 1);
	}
	std::printf("%llu %llu\n", in_range, values);
	return 0;
}
