// The keyring file's text (core/keyring_text.hpp): any bytes parse without a fault; what is accepted holds
// only well-formed entries whose lines are in order and agree with each other; what is refused is described
// naming a line of the input and never carrying 16 hex digits (a key's part) of it.
#include <cstring>
#include <string_view>
#include <vector>

#include "core/keyring_text.hpp"
#include "fuzz.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
	using namespace idtypes;
	static std::vector<keyring_text::Entry> entries(keyring_text::max_entries);
	const std::string_view text(reinterpret_cast<const char *>(data), size);
	const keyring_text::Result r = keyring_text::parse(text, entries.data(), keyring_text::max_entries);
	int lines = 1;
	for (char c : text)
		lines += c == '\n';
	char message[512];
	const std::size_t len = keyring_text::describe(r, message, sizeof message);
	FUZZ_CHECK(len < sizeof message);
	FUZZ_CHECK(!keyring_text::key_like(std::string_view(message, len)));
	if (r.problem != keyring_text::Problem::none) {
		FUZZ_CHECK(r.line >= 1 && r.line <= lines);
		FUZZ_CHECK(r.field >= 0 && r.field <= 6);
	}
	for (int i = 0; i < r.count; i++) {
		const keyring_text::Entry &e = entries[i];
		FUZZ_CHECK(e.version >= 1 && e.name[0] != '\0' && std::strlen(e.name) <= public_id::max_key_name);
		FUZZ_CHECK(i == 0 || e.line > entries[i - 1].line);
		keyring_text::Result pair;
		for (int j = 0; j < i; j++)
			FUZZ_CHECK(keyring_text::compatible(entries[j], e, pair));
	}
	return 0;
}
