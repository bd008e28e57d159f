#!/usr/bin/env bash
# Every type through the ORMs and query builders applications use, with their schema tools, each in its
# own program here (docs/clients.md says what each needs; the copyable pieces are in the directories):
#   Drizzle: drizzle-orm + drizzle-kit (drizzle.mjs, drizzle/)   TypeORM (typeorm.mjs, typeorm/)
#   Prisma 7 + @prisma/adapter-pg (prisma.mjs, prisma/)          Kysely (kysely.mjs)    Knex (knex.mjs)
#   ActiveRecord 6.1 (activerecord_round.rb, activerecord/)      GORM v1 (gorm/)
# Per tool: the tool's own migration makes one table per type, read back or dumped and checked to be
# unchanged by the tool's next migration; then per type the round of the drivers (test/drivers): explicit
# IDs and the column DEFAULT (RETURNING), reads, `=`, `IN`, `= ANY(array)`, `^@`, `<@ tstzrange` from the
# language's time values, keyset pages, the ID's time read as the language's time type. All in text (no
# tool here reads these types in binary), so run on PostgreSQL 15 only (scripts/test.sh).
# Run against a running cluster with the extension installed (PGHOST etc. set). Each tool works in a
# database of its own copied from one holding test/drivers/samples.sql; all are dropped at the end.
# Installs what is missing: Debian packages through install_missing; the npm packages of package-lock.json
# with npm's cache in $IDTYPES_CACHE/npm (a second install downloads nothing; node_modules is kept while
# package-lock.json is unchanged); GORM is built in GOPATH mode over Debian's sources with Go's build cache
# there. Prints `ok` / `FAIL` / `skip` lines tool by tool, each tool's time, and a FAIL line for a tool
# that stopped without saying why.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../../scripts/lib.sh"
cd "$here" || exit 1
psql_q() { PGOPTIONS="-c client_min_messages=warning" psql -X -q -v ON_ERROR_STOP=1 -At "$@"; }
status=0

packages=(golang-go golang-github-jinzhu-gorm-dev golang-github-lib-pq-dev ruby-activerecord ruby-pg)
apt_out=$(install_missing "${packages[@]}" 2>&1) || { echo "FAIL installing ${packages[*]}"; printf '%s\n' "$apt_out" | tail -20; exit 1; }
cache=${IDTYPES_CACHE:-/var/cache/idtypes}
mkdir -p "$cache" 2>/dev/null && [ -w "$cache" ] || cache=$(mktemp -d)
# --ignore-scripts: no package here needs its install script (Prisma's would try to download its engines)
lock=$(sha256sum package-lock.json | cut -c1-16)
if [ "$(cat node_modules/.idtypes-lock 2>/dev/null)" != "$lock" ]; then
	npm_start=$SECONDS
	flock "$cache/npm.lock" npm ci --cache "$cache/npm" --prefer-offline --ignore-scripts --no-audit --no-fund --silent \
		>/dev/null 2>&1 || { echo "FAIL npm ci (test/orms)"; exit 1; }
	echo "$lock" >node_modules/.idtypes-lock
	echo "(npm ci: $((SECONDS - npm_start)) s)"
fi

tmp=$(mktemp -d "$here/.run.XXXXXX") # inside the tree: drizzle-kit and the pulled schemas resolve node_modules from here
template=idtypes_orms_$$
dbs=("$template")
cleanup() {
	local db
	for db in "${dbs[@]}"; do psql_q -d postgres -c "DROP DATABASE IF EXISTS $db WITH (FORCE)"; done
	rm -rf "$tmp"
}
trap cleanup EXIT
psql_q -d postgres -c "CREATE DATABASE $template" || { echo "FAIL creating database $template"; exit 1; }
psql_q -d "$template" -c 'CREATE EXTENSION IF NOT EXISTS idtypes' -f ../drivers/samples.sql >/dev/null ||
	{ echo "FAIL creating the extension and the samples in $template"; exit 1; }

# the builds: Prisma's client is generated from prisma/schema.prisma (WebAssembly; pointing the CLI at an
# engine path keeps it from trying to download the schema engine it does not use for this)
prisma_generate() {
	CHECKPOINT_DISABLE=1 PRISMA_SCHEMA_ENGINE_BINARY=/bin/false node_modules/.bin/prisma generate \
		--schema prisma/schema.prisma >/dev/null
}
gorm_build() {
	GO111MODULE=off GOPATH=/usr/share/gocode GOCACHE=$cache/go-build GOFLAGS='' GOPROXY=off \
		go build -o "$tmp/gorm_round" ./gorm
}

# tool NAME BUILD COMMAND...: starts the tool's program in the background, in a database of its own; BUILD
# is a function run first (or :). Its output goes to $tmp/NAME.out, its exit status to $tmp/NAME.rc.
tools=()
tool() {
	local name=$1 build=$2 db=${template}_$1
	shift 2
	tools+=("$name")
	dbs+=("$db" "${db}_schema") # activerecord_round.rb makes the second one
	psql_q -d postgres -c "CREATE DATABASE $db TEMPLATE $template" || { echo "FAIL $name: creating $db" >"$tmp/$name.out"; echo 1 >"$tmp/$name.rc"; return; }
	(
		start=$SECONDS
		"$build" && PGDATABASE=$db timeout 600 "$@"
		echo $? $((SECONDS - start)) >"$tmp/$name.rc"
	) >"$tmp/$name.out" 2>&1 &
}

tool drizzle : node_modules/.bin/tsx drizzle.mjs "$tmp"
tool typeorm : node typeorm.mjs
tool prisma prisma_generate node_modules/.bin/tsx prisma.mjs "$tmp"
tool kysely : node kysely.mjs
tool knex : node knex.mjs
tool activerecord : ruby activerecord_round.rb "$tmp"
tool gorm gorm_build "$tmp/gorm_round"
wait

# A tool prints its own lines; one that stops without saying why gets a FAIL line here.
for name in "${tools[@]}"; do
	grep -E '^(ok|FAIL|skip) ' "$tmp/$name.out"
	read -r rc seconds <"$tmp/$name.rc" || rc="no status"
	echo "($name: ${seconds:-?} s, with its build)"
	if [ "$rc" != 0 ]; then
		status=1
		grep -q '^FAIL' "$tmp/$name.out" || { echo "FAIL $name: exited with status $rc"; tail -20 "$tmp/$name.out"; }
	fi
done
exit $status
