// The latency of every call of one statement, from several sessions at once: bench/mark.sh's client.
// pgbench's per-transaction log cannot serve: it reuses one clock reading across a thread's clients, so a
// third of its latencies read 0 µs. Usage: call_latency CONNINFO SQL SESSIONS SECONDS OUT. Each session
// connects, prepares SQL and calls it once (its first call, which loads libraries, is not counted); then all
// call it in a loop for SECONDS, each call timed alone. OUT gets one line per call: its latency in ns.
// Prints the number of calls and the seconds they took.
#include <libpq-fe.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

struct Session {
	PGconn *conn = nullptr;
	std::vector<long long> latencies_ns;
	bool failed = false;
};

bool call_once(Session &session)
{
	PGresult *result = PQexecPrepared(session.conn, "subject", 0, nullptr, nullptr, nullptr, 0);
	const bool ok = PQresultStatus(result) == PGRES_TUPLES_OK;
	if (!ok)
		std::fprintf(stderr, "call_latency: %s", PQerrorMessage(session.conn));
	PQclear(result);
	return ok;
}

bool open_session(Session &session, const char *conninfo, const char *sql)
{
	session.conn = PQconnectdb(conninfo);
	if (PQstatus(session.conn) != CONNECTION_OK) {
		std::fprintf(stderr, "call_latency: %s", PQerrorMessage(session.conn));
		return false;
	}
	PGresult *prepared = PQprepare(session.conn, "subject", sql, 0, nullptr);
	const bool ok = PQresultStatus(prepared) == PGRES_COMMAND_OK;
	if (!ok)
		std::fprintf(stderr, "call_latency: %s", PQerrorMessage(session.conn));
	PQclear(prepared);
	return ok && call_once(session);
}

void run(Session &session, const std::atomic<bool> &go, Clock::time_point end)
{
	while (!go.load())
		std::this_thread::yield();
	session.latencies_ns.reserve(1 << 20);
	for (Clock::time_point start = Clock::now(); start < end;) {
		if (!call_once(session)) {
			session.failed = true;
			return;
		}
		const Clock::time_point done = Clock::now();
		session.latencies_ns.push_back(std::chrono::duration_cast<std::chrono::nanoseconds>(done - start).count());
		start = done;
	}
}

} // namespace

int main(int argc, char **argv)
{
	if (argc != 6) {
		std::fprintf(stderr, "usage: call_latency CONNINFO SQL SESSIONS SECONDS OUT\n");
		return 2;
	}
	const int count = std::atoi(argv[3]);
	const double seconds = std::atof(argv[4]);
	std::vector<Session> sessions(count > 0 ? count : 0);
	for (Session &session : sessions)
		if (!open_session(session, argv[1], argv[2]))
			return 1;

	std::atomic<bool> go{false};
	const Clock::time_point start = Clock::now();
	const auto end = start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
	std::vector<std::thread> threads;
	for (Session &session : sessions)
		threads.emplace_back(run, std::ref(session), std::cref(go), end);
	go.store(true);
	for (std::thread &thread : threads)
		thread.join();
	const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();

	FILE *out = std::fopen(argv[5], "w");
	if (out == nullptr) {
		std::perror(argv[5]);
		return 1;
	}
	long long calls = 0;
	bool failed = false;
	for (Session &session : sessions) {
		for (long long ns : session.latencies_ns)
			std::fprintf(out, "%lld\n", ns);
		calls += static_cast<long long>(session.latencies_ns.size());
		failed = failed || session.failed;
		PQfinish(session.conn);
	}
	if (std::fclose(out) != 0) {
		std::perror(argv[5]);
		return 1;
	}
	std::printf("%lld %.3f\n", calls, elapsed);
	return failed ? 1 : 0;
}
