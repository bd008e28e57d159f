// Shared by the format tests: a parse result as one value, and table-driven rejection checks.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <string_view>

#include "core/text_status.hpp"

template <typename V>
struct Parsed {
	idtypes::TextStatus status;
	V value;
};

// A format's parse(text, out) as one result.
template <typename V>
Parsed<V> parsed(idtypes::TextStatus (*parse)(std::string_view, V &) noexcept, std::string_view text)
{
	Parsed<V> p{};
	p.status = parse(text, p.value);
	return p;
}

struct Rejection {
	std::string text;
	idtypes::TextError error;
	std::uint32_t position; // 1-based character position the error names; 0 where none
};

// Every case is rejected with its error at its position.
template <typename V, std::size_t N>
void expect_rejections(idtypes::TextStatus (*parse)(std::string_view, V &) noexcept, const Rejection (&cases)[N])
{
	for (const Rejection &c : cases) {
		V out{};
		idtypes::TextStatus s = parse(c.text, out);
		EXPECT_EQ(s.error, c.error) << c.text;
		EXPECT_EQ(s.position, c.position) << c.text;
	}
}
