#include "core/text_status.hpp"

#include <cstdio>

namespace idtypes {

void describe(const TextStatus &s, const TextRules &rules, char (&out)[detail_size]) noexcept
{
	switch (s.error) {
	case TextError::none: std::snprintf(out, sizeof out, "The text is valid."); return;
	case TextError::length:
		std::snprintf(out, sizeof out, "Expected %s, found %u.", rules.length, static_cast<unsigned>(s.position));
		return;
	case TextError::symbol:
		if (s.byte >= 0x21 && s.byte <= 0x7e)
			std::snprintf(out, sizeof out, "Character %u (\"%c\") is not in %s.", static_cast<unsigned>(s.position),
			              s.byte, rules.alphabet);
		else
			std::snprintf(out, sizeof out, "Byte %u (0x%02X) is not in %s.", static_cast<unsigned>(s.position), s.byte,
			              rules.alphabet);
		return;
	case TextError::first_symbol:
		std::snprintf(out, sizeof out, "The first character must be %s.", rules.first_symbol);
		return;
	case TextError::too_large: std::snprintf(out, sizeof out, "%s", rules.too_large); return;
	case TextError::prefix_length:
		std::snprintf(out, sizeof out, "A prefix has at most %u symbols, found %u.", rules.max_prefix,
		              static_cast<unsigned>(s.position));
		return;
	}
	std::snprintf(out, sizeof out, "Unknown error.");
}

} // namespace idtypes
