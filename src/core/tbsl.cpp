#include "core/tbsl.hpp"

#include "core/bigradix.hpp"
#include "core/bytes.hpp"

#include <cstdio>

namespace idtypes::tbsl {

const TextRules rules = {
    "20 characters",
    "upper-case hexadecimal 0-9 A-F",
    "a hexadecimal digit",
    "The first 15 hex digits exceed 999999999999999999, so they cannot be read as seconds, microseconds and machine "
    "id.",
    text_len,
};

Bytes make(std::uint64_t payload, std::uint32_t suffix) noexcept
{
	Bytes b;
	store_be64((payload << 4) | ((suffix >> 16) & 0xF), b.data());
	b[8] = static_cast<std::uint8_t>(suffix >> 8);
	b[9] = static_cast<std::uint8_t>(suffix);
	return b;
}

Bytes from_fields(std::uint64_t seconds, std::uint32_t micros, std::uint32_t machine, std::uint32_t suffix) noexcept
{
	return make(seconds * 100000000 + std::uint64_t{micros} * 100 + machine, suffix);
}

std::uint64_t payload(const std::uint8_t *id) noexcept { return load_be64(id) >> 4; }

std::uint32_t suffix(const std::uint8_t *id) noexcept
{
	return (static_cast<std::uint32_t>(id[7] & 0xF) << 16) | (static_cast<std::uint32_t>(id[8]) << 8) | id[9];
}

Fields fields(const std::uint8_t *id) noexcept
{
	std::uint64_t p = payload(id);
	return Fields{p / 100000000, static_cast<std::uint32_t>((p / 100) % 1000000), static_cast<std::uint32_t>(p % 100),
	              suffix(id)};
}

Bytes min_at(std::int64_t units) noexcept { return make(static_cast<std::uint64_t>(units) * 100, 0); }
Bytes max_at(std::int64_t units) noexcept
{
	return make(static_cast<std::uint64_t>(units) * 100 + max_machine, max_suffix);
}

TextStatus parse(std::string_view text, Bytes &out) noexcept
{
	TextStatus status = Codec::decode(text, alphabet, out.data());
	if (status.ok() && payload(out.data()) > max_payload)
		return fail(TextError::too_large);
	return status;
}

void format(const std::uint8_t *id, char (&out)[text_len]) noexcept { Codec::encode(id, alphabet, out); }

PrefixRange prefix_range(std::string_view prefix) noexcept
{
	PrefixRange r{};
	bool empty = false;
	r.status = Codec::prefix(prefix, alphabet, r.lo.data(), r.hi.data(), empty);
	if (!r.status.ok())
		return r;
	if (payload(r.lo.data()) > max_payload)
		r.empty = true;
	else if (payload(r.hi.data()) > max_payload)
		r.hi = make(max_payload, max_suffix);
	return r;
}

namespace {
constexpr Alphabet base16 = make_alphabet("0123456789abcdef", Case::fold);
constexpr Alphabet base32 = make_alphabet("0123456789abcdefghijklmnopqrstuv", Case::fold);
constexpr Alphabet base36 = make_alphabet("0123456789abcdefghijklmnopqrstuvwxyz", Case::fold);
constexpr Alphabet base58 = make_alphabet("123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz");
constexpr Alphabet base62 = make_alphabet("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz");
} // namespace

const Alphabet *base_alphabet(int base) noexcept
{
	switch (base) {
	case 16: return &base16;
	case 32: return &base32;
	case 36: return &base36;
	case 58: return &base58;
	case 62: return &base62;
	default: return nullptr;
	}
}

std::size_t to_base(const std::uint8_t *id, const Alphabet &a, char *out) noexcept
{
	return bigradix::format(id, size, a, out);
}

BaseParsed from_base(std::string_view text, const Alphabet &a) noexcept
{
	BaseParsed r{};
	bigradix::Parsed p = bigradix::parse(text, a, r.value.data(), size);
	switch (p.status) {
	case bigradix::Parse::ok:
		r.status = payload(r.value.data()) > max_payload ? FromBase::payload : FromBase::ok;
		break;
	case bigradix::Parse::empty: r.status = FromBase::empty; break;
	case bigradix::Parse::symbol: r.status = FromBase::symbol; break;
	case bigradix::Parse::overflow: r.status = FromBase::too_large; break;
	}
	r.position = p.position;
	return r;
}

void describe(const BaseParsed &p, char (&out)[detail_size]) noexcept
{
	switch (p.status) {
	case FromBase::ok: std::snprintf(out, sizeof out, "The text is valid."); return;
	case FromBase::empty: std::snprintf(out, sizeof out, "The text is empty."); return;
	case FromBase::symbol:
		std::snprintf(out, sizeof out, "Character %zu is not a digit of the base.", p.position);
		return;
	case FromBase::too_large: std::snprintf(out, sizeof out, "The value is 2^80 or more."); return;
	case FromBase::payload: std::snprintf(out, sizeof out, "%s", rules.too_large); return;
	}
	std::snprintf(out, sizeof out, "Unknown error.");
}

Step step(State &state, const Request &req, std::int64_t now) noexcept
{
	if (now < 0 || now > time_scale.max_units)
		return Step{StepResult::out_of_range, {}, 0, now};
	if (now < state.last_us) // TBSL must carry the real time: never issue an earlier one
		return Step{StepResult::behind, {}, state.last_us - now, now};
	State::Sequence &seq = state.sequences[req.machine];
	std::uint32_t suffix;
	if (now == seq.us) {
		suffix = seq.value + 1 + (req.sequenced ? 0 : (req.random >> 20) & 0xF);
		if (suffix > max_suffix)
			return Step{StepResult::exhausted, {}, 0, now};
	} else {
		suffix = req.sequenced ? 0 : req.random & max_suffix;
	}
	seq.us = now;
	seq.value = suffix;
	if (now > state.last_us)
		state.last_us = now;
	return Step{StepResult::issued, make(static_cast<std::uint64_t>(now) * 100 + req.machine, suffix), 0, now};
}

Generated generate(const Stepper &stepper, const Request &req, const Clock &clock) noexcept
{
	bool first = true;
	std::int64_t start = 0;
	for (;;) {
		Step s = stepper.step(stepper.ctx, req, clock);
		if (first) {
			start = s.now_us;
			first = false;
		}
		switch (s.result) {
		case StepResult::issued: return Generated{s.value, Status::ok, 0};
		case StepResult::out_of_range: return Generated{{}, Status::clock_range, 0};
		case StepResult::no_clock: return Generated{{}, Status::clock_unavailable, 0};
		case StepResult::behind:
			if (req.on_backward == ClockBackward::error)
				return Generated{{}, Status::clock_behind, s.behind_us};
			break;
		case StepResult::exhausted: break;
		}
		if (s.now_us - start > req.max_wait_us)
			return Generated{{}, Status::wait_timeout, s.behind_us};
		if (!clock.pause(clock.ctx))
			return Generated{{}, Status::interrupted, 0};
	}
}

namespace {
Step step_on_state(void *ctx, const Request &req, const Clock &clock) noexcept
{
	return step(*static_cast<State *>(ctx), req, clock.now_us(clock.ctx));
}
} // namespace

Generated generate(State &state, const Request &req, const Clock &clock) noexcept
{
	return generate(Stepper{step_on_state, &state}, req, clock);
}

} // namespace idtypes::tbsl
