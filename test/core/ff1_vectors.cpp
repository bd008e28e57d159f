// Reads FF1 vectors made by another implementation (test/public/ff1_vectors.mjs: `n key tweak in out` in hex,
// radix 2 over the low n bits) from standard input and checks the core both ways. Prints `ok` or `FAIL`
// lines; exits 1 on any disagreement.
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "core/ff1.hpp"
#include "openssl_aes.hpp"

using idtypes::test::Aes;
using idtypes::test::unhex;
namespace ff1 = idtypes::ff1;

int main()
{
	std::string line;
	unsigned checked = 0, failed = 0;
	std::vector<unsigned> widths;
	while (std::getline(std::cin, line)) {
		std::istringstream fields(line);
		unsigned n;
		std::string key, tweak, in, expected;
		if (!(fields >> n >> key >> tweak >> in >> expected))
			continue;
		std::vector<std::uint8_t> t = tweak == "-" ? std::vector<std::uint8_t>{} : unhex(tweak), x = unhex(in),
		                          want = unhex(expected), y(x.size()), back(x.size());
		Aes aes(unhex(key));
		bool ok = ff1::encrypt_bits(aes.cipher(), x.data(), n, t.data(), t.size(), y.data()) == ff1::Status::ok &&
		          y == want &&
		          ff1::decrypt_bits(aes.cipher(), want.data(), n, t.data(), t.size(), back.data()) == ff1::Status::ok &&
		          back == x;
		if (!ok && failed++ < 5)
			std::cout << "FAIL FF1 disagrees with @noble/ciphers: " << line << "\n";
		checked++;
		if (widths.empty() || widths.back() != n)
			widths.push_back(n);
	}
	if (checked == 0) {
		std::cout << "FAIL no FF1 vectors read\n";
		return 1;
	}
	if (failed == 0) {
		std::cout << "ok   FF1 agrees with @noble/ciphers on " << checked << " random vectors (n =";
		for (unsigned n : widths)
			std::cout << " " << n;
		std::cout << "), both ways\n";
	}
	return failed == 0 ? 0 : 1;
}
