#include "cli/generate.hpp"

#include <cerrno>
#include <cstring>
#include <ctime>
#include <string_view>
#include <sys/random.h>

#include "core/bytes.hpp"
#include "core/scru160.hpp"
#include "core/tbsl.hpp"
#include "core/timeid.hpp"
#include "core/uid11.hpp"
#include "core/uuid7.hpp"

namespace idtypes::cli {

namespace {

std::int64_t now_us() noexcept
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return static_cast<std::int64_t>(ts.tv_sec) * 1000000 + ts.tv_nsec / 1000;
}

// getrandom(2) through a buffer: a cryptographically strong source at one system call per 4 kB.
class RandomPool {
public:
	bool fill(void *out, std::size_t n, std::string &why)
	{
		auto *dst = static_cast<std::uint8_t *>(out);
		while (n > 0) {
			if (left_ == 0 && !refill(why))
				return false;
			std::size_t take = n < left_ ? n : left_;
			std::memcpy(dst, pool_ + sizeof pool_ - left_, take);
			left_ -= take;
			dst += take;
			n -= take;
		}
		return true;
	}

	template <typename T>
	bool get(T &value, std::string &why)
	{
		return fill(&value, sizeof value, why);
	}

private:
	bool refill(std::string &why)
	{
		std::size_t got = 0;
		while (got < sizeof pool_) {
			ssize_t n = getrandom(pool_ + got, sizeof pool_ - got, 0);
			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0) {
				why = std::string("could not read random bytes: ") + std::strerror(errno);
				return false;
			}
			got += static_cast<std::size_t>(n);
		}
		left_ = sizeof pool_;
		return true;
	}

	std::uint8_t pool_[4096];
	std::size_t left_ = 0;
};

class TimeidGenerator : public Generator {
public:
	explicit TimeidGenerator(int clock_id) : clock_id_(clock_id) {}

	bool next(Id &out, std::string &why) override
	{
		if (clock_id_ < 0) { // the spec's advice: a random clock id, once per generator
			std::uint16_t r = 0;
			if (!random_.get(r, why))
				return false;
			clock_id_ = r & timeid::max_clock_id;
		}
		timeid::Generated g = timeid::generate(last_micros_, now_us(), static_cast<unsigned>(clock_id_));
		if (!g.ok) {
			why = "the clock is past the last time a timeid can hold (2^53-1 microseconds)";
			return false;
		}
		store_be64(g.value, out.bytes.data());
		return true;
	}

private:
	int clock_id_;
	std::uint64_t last_micros_ = 0;
	RandomPool random_;
};

class TbslGenerator : public Generator {
public:
	explicit TbslGenerator(const GenOptions &o)
	{
		request_.machine = o.machine;
		request_.sequenced = o.sequenced;
		request_.on_backward = tbsl::ClockBackward::wait; // TBSL must carry the real time: wait for it
		request_.max_wait_us = 1000000;                   // as idtypes.clock_backward_max_wait's default
	}

	bool next(Id &out, std::string &why) override
	{
		if (!random_.get(request_.random, why))
			return false;
		tbsl::Generated g = tbsl::generate(state_, request_, clock_);
		switch (g.status) {
		case tbsl::Status::ok: std::memcpy(out.bytes.data(), g.value.data(), g.value.size()); return true;
		case tbsl::Status::clock_range:
			why = "the clock is outside the times a TBSL can hold (1970 to 2286-11-20)";
			break;
		case tbsl::Status::clock_behind:
		case tbsl::Status::wait_timeout:
			why = "gave up waiting for the clock after 1000 ms: it is " + std::to_string(g.behind_us) +
			      " microseconds behind the last TBSL generated";
			break;
		case tbsl::Status::interrupted: why = "interrupted while waiting for the clock"; break;
		case tbsl::Status::clock_unavailable: why = "the clock could not be read"; break; // not from clock_now
		}
		return false;
	}

private:
	static std::int64_t clock_now(void *) noexcept { return now_us(); }
	static bool pause(void *) noexcept
	{
		struct timespec ts = {0, 1000};
		nanosleep(&ts, nullptr);
		return true;
	}

	tbsl::State state_;
	tbsl::Request request_{};
	tbsl::Clock clock_{clock_now, pause, nullptr};
	RandomPool random_;
};

class Uid11Generator : public Generator {
public:
	bool next(Id &out, std::string &why) override
	{
		std::uint32_t r = 0;
		if (!random_.get(r, why))
			return false;
		uid11::Generated g = uid11::next_xid(last_, now_us() / 1000, r);
		if (!g.ok) {
			why = "the clock is outside the times an xid can hold (2011-11-11 to 2151-03-25)";
			return false;
		}
		last_ = g.value;
		store_be64(g.value, out.bytes.data());
		return true;
	}

private:
	std::uint64_t last_ = 0;
	RandomPool random_;
};

class Scru160Generator : public Generator {
public:
	bool next(Id &out, std::string &why) override
	{
		scru160::Randomness r;
		if (!random_.get(r, why))
			return false;
		scru160::Generated g = scru160::generate(state_, now_us() / 1000, r);
		if (!g.ok) {
			why = "the clock is past the last millisecond a SCRU160 can hold";
			return false;
		}
		std::memcpy(out.bytes.data(), g.value.data(), g.value.size());
		return true;
	}

private:
	scru160::State state_;
	RandomPool random_;
};

class UuidGenerator : public Generator {
public:
	bool next(Id &out, std::string &why) override
	{
		std::uint64_t r = 0;
		if (!random_.get(r, why))
			return false;
		uuid7::Generated g = uuid7::next(last_, now_us(), r);
		if (!g.ok) {
			why = "the clock is past the last time a UUIDv7 can hold (10889-08-02 05:31:50.655 UTC)";
			return false;
		}
		last_ = g.value;
		const uuid7::Bytes b = uuid7::layout(g.value);
		std::memcpy(out.bytes.data(), b.data(), b.size());
		return true;
	}

private:
	uuid7::V7 last_;
	RandomPool random_;
};

} // namespace

std::unique_ptr<Generator> make_uuid_generator() { return std::make_unique<UuidGenerator>(); }

std::unique_ptr<Generator> make_generator(const Format &format, const GenOptions &o)
{
	std::string_view name = format.name;
	if (name == "timeid")
		return std::make_unique<TimeidGenerator>(o.clock_id);
	if (name == "tbsl")
		return std::make_unique<TbslGenerator>(o);
	if (name == "uid11")
		return std::make_unique<Uid11Generator>();
	if (name == "scru160")
		return std::make_unique<Scru160Generator>();
	return nullptr;
}

} // namespace idtypes::cli
