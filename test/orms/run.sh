#!/usr/bin/env bash
# Every type through the ORMs and query builders applications use, with their schema tools, each in its
# own program here (docs/clients.md says what each needs; the copyable pieces are in the directories):
#   Drizzle: drizzle-orm + drizzle-kit (drizzle.mjs, drizzle/)   TypeORM (typeorm.mjs, typeorm/)
#   Prisma 7 + @prisma/adapter-pg (prisma.mjs, prisma/)          Kysely (kysely.mjs)    Knex (knex.mjs)
#   ActiveRecord 6.1 (activerecord_round.rb, activerecord/)      GORM v1 (gorm/)
#   docs/clients.md's Drizzle snippet as the page shows it (drizzle_docs.mjs)
# Per tool: the tool's own migration makes one table per type, read back or dumped and checked to be
# unchanged by the tool's next migration; then per type the round of the drivers (test/drivers): explicit
# IDs and the column DEFAULT (RETURNING), reads, `=`, `IN`, `= ANY(array)`, `^@`, `<@ tstzrange` from the
# language's time values, keyset pages, the ID's time read as the language's time type. All in text (no
# tool here reads these types in binary), so run on PostgreSQL 15 only (scripts/test.sh).
# Run against a running cluster with the extension installed (PGHOST etc. set). Each tool works in a
# database of its own copied from one holding test/drivers/samples.sql; all are dropped at the end
# (test/drivers/side_by_side.sh).
# Installs what is missing: Debian packages through install_missing; the npm packages of package-lock.json
# with npm's cache in $IDTYPES_CACHE/npm (a second install downloads nothing; node_modules is kept while
# package-lock.json is unchanged); GORM is built in GOPATH mode over Debian's sources with Go's build cache
# there. Prints `ok` / `FAIL` / `skip` lines tool by tool, each tool's time, and a FAIL line for a tool
# that stopped without saying why.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../../scripts/lib.sh"
# shellcheck source=../drivers/side_by_side.sh
source "$here/../drivers/side_by_side.sh"
cd "$here" || exit 1

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

# in the tree: drizzle-kit and the schemas it pulls resolve node_modules from there
side_by_side_start orms "$here"

# every tool's "nothing to change" below is after CREATE EXTENSION: the template holds the extension's own
# schemas (idtypes_internal: the carrier; idtypes_adopt: adoption's state; found by membership), which no
# tool's diff may show
own=$(psql_q -d "$template" -c "SELECT string_agg(n.nspname, ' ' ORDER BY n.nspname) FROM pg_depend d JOIN pg_namespace n ON n.oid = d.objid
	JOIN pg_extension e ON e.oid = d.refobjid WHERE d.classid = 'pg_namespace'::regclass AND d.deptype = 'e' AND e.extname = 'idtypes'")
if [ "$own" = "idtypes_adopt idtypes_internal" ]; then
	echo "ok   orms: every tool's database holds the extension's own schemas $own (its diffs below are after CREATE EXTENSION)"
else
	echo "FAIL orms: the extension's own schema, by membership: '$own'"
fi

# the builds: Prisma's client is generated from prisma/schema.prisma (WebAssembly; pointing the CLI at an
# engine path keeps it from trying to download the schema engine it does not use for this)
prisma_generate() {
	local out
	out=$(CHECKPOINT_DISABLE=1 PRISMA_SCHEMA_ENGINE_BINARY=/bin/false node_modules/.bin/prisma generate \
		--schema prisma/schema.prisma 2>&1) || { printf '%s\n' "$out"; return 1; }
}
gorm_build() {
	GO111MODULE=off GOPATH=/usr/share/gocode GOCACHE=$cache/go-build GOFLAGS='' GOPROXY=off \
		go build -o "$tmp/gorm_round" ./gorm
}

client drizzle : node_modules/.bin/tsx drizzle.mjs "$tmp"
client drizzle-docs : node_modules/.bin/tsx drizzle_docs.mjs "$tmp"
client typeorm : node --no-deprecation typeorm.mjs # pg warns of TypeORM's queries overlapping in migrations
client prisma prisma_generate node_modules/.bin/tsx prisma.mjs "$tmp"
client kysely : node kysely.mjs
client knex : node knex.mjs
client activerecord : ruby activerecord_round.rb "$tmp"
client gorm gorm_build "$tmp/gorm_round"
side_by_side_report
