#!/usr/bin/env bash
# Every type through the client libraries applications use, each in its own program here:
#   node-postgres (npm `pg`, node_pg.mjs)           psycopg 3 (psycopg_test.py)
#   pgjdbc, plain JDBC (JdbcRound.java)             pgx v4 (pgx_round.go)
#   asyncpg (asyncpg_round.py)                      SQLAlchemy 1.4 ORM (sqlalchemy_round.py)
#   Django 3.2 ORM with a migration (django_round.py, app idtypes_django/)
#   docs/clients.md's SQLAlchemy and Alembic snippets as the page shows them (docs_snippets.py)
# Per client and type: inserts with parameters (and with the column DEFAULT), reads back, `= ANY`, `^@`,
# `<@ tstzrange($1, $2)` from the client's timestamps, keyset pagination over all pages, and binary formats
# where the client speaks them (see each program's head). The IDs come from samples.sql.
#   run.sh          every client's round (scripts/test.sh runs it on PostgreSQL 15)
#   run.sh binary   the binary rounds of pgx and asyncpg only (also run on 18)
# Run against a running cluster with the extension installed (PGHOST etc. set). Each client works in a
# database of its own, copied from one holding the samples, so the clients run side by side; all are
# dropped at the end (side_by_side.sh, shared with test/orms). Installs what is missing (Debian packages
# through install_missing; npm ci here).
# Builds of the Go and Java clients are cached in $IDTYPES_CACHE. Prints `ok` / `FAIL` lines, client by
# client, each client's time, and a FAIL line for a client that stopped without saying why.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../../scripts/lib.sh"
# shellcheck source=side_by_side.sh
source "$here/side_by_side.sh"
cd "$here" || exit 1
mode=${1:-all}
case $mode in all | binary) ;; *) echo "usage: $0 [all|binary]" >&2; exit 2 ;; esac

# Debian's interpreter, which has the python3-* packages (a python3 earlier on PATH, e.g. pyenv's, would not)
python=/usr/bin/python3
packages=(golang-go golang-github-jackc-pgx-v4-dev python3-asyncpg)
[ "$mode" = all ] && packages+=(python3-psycopg default-jdk-headless libpostgresql-jdbc-java libjunixsocket-java
	python3-psycopg2 python3-sqlalchemy python3-django python3-alembic)
apt_out=$(install_missing "${packages[@]}" 2>&1) || { echo "FAIL installing ${packages[*]}"; printf '%s\n' "$apt_out" | tail -20; exit 1; }
if [ "$mode" = all ]; then
	npm ci --no-audit --no-fund --silent >/dev/null 2>&1 || npm ci --no-audit --no-fund || { echo "FAIL npm ci"; exit 1; }
fi

side_by_side_start drivers

# Builds of the compiled clients, cached in $IDTYPES_CACHE (else in $tmp) across runs. Go in GOPATH mode
# over Debian's sources (/usr/share/gocode), offline, with Go's build cache (a cold build of pgx takes
# ~40 s, a cached one ~1 s); the JDBC class by the hash of its source.
cache=${IDTYPES_CACHE:-/var/cache/idtypes}
mkdir -p "$cache" 2>/dev/null && [ -w "$cache" ] || cache=$tmp
go_build() {
	GO111MODULE=off GOPATH=/usr/share/gocode GOCACHE=$cache/go-build GOFLAGS='' GOPROXY=off \
		go build -o "$tmp/pgx_round" pgx_round.go
}
jdbc_classpath=/usr/share/java/postgresql.jar:/usr/share/java/junixsocket-common.jar
jdbc_classes=$cache/jdbc-$(sha256sum JdbcRound.java | cut -c1-16)
java_build() {
	[ -f "$jdbc_classes/JdbcRound.class" ] && return
	javac -d "$jdbc_classes.$$" -cp "$jdbc_classpath" JdbcRound.java && mv -T "$jdbc_classes.$$" "$jdbc_classes"
}

if [ "$mode" = all ]; then
	client node-postgres : node node_pg.mjs
	client psycopg : "$python" psycopg_test.py
	client jdbc java_build java -cp "$jdbc_classes:$jdbc_classpath" JdbcRound
	client sqlalchemy : "$python" sqlalchemy_round.py
	client django : "$python" django_round.py
	client docs-snippets : "$python" docs_snippets.py
fi
client pgx go_build "$tmp/pgx_round" "$mode"
client asyncpg : "$python" asyncpg_round.py "$mode"
side_by_side_report
