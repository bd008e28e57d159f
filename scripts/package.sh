#!/usr/bin/env bash
# Builds the Debian packages postgresql-<version>-idtypes_<version>_<arch>.deb (debian/), for each
# PostgreSQL version that debian/pgversions allows and whose server headers are installed (15 here), and
# idtypes_<version>_<arch>.deb (the command-line tool), and copies them to DIR (default: dist/). Installs
# what the build needs first. The build runs in a copy of the tree in a temporary directory, so that no
# build product lands in the repository.
# Usage: scripts/package.sh [DIR]
set -euo pipefail
source "$(dirname "$0")/lib.sh"
out=${1:-$ROOT/dist}
mkdir -p "$out" && out=$(cd "$out" && pwd)

install_missing dpkg-dev debhelper cmake g++ make "postgresql-server-dev-$PG_MAJOR" postgresql-server-dev-all

work=$(mktemp -d /tmp/idtypes-package.XXXXXX)
trap 'rm -rf "$work"' EXIT
src=$work/idtypes
mkdir "$src"
# The files git knows of or would add (built and ignored files left out); all of them outside a checkout.
if git -C "$ROOT" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	(cd "$ROOT" && git ls-files -z --cached --others --exclude-standard |
		tar --null -T - --ignore-failed-read -cf - 2>/dev/null) | tar -xf - -C "$src"
else
	cp -a "$ROOT"/. "$src"/
fi

# The versions to build for: pg_buildext's "installed" (those with postgresql-server-dev-N) within
# debian/pgversions, rather than the distribution's list, of which some may not be installed.
export PG_SUPPORTED_VERSIONS=installed
# No tests in the build (nocheck: ./scripts/test.sh runs them); no debug symbols package.
export DEB_BUILD_OPTIONS="nocheck noautodbgsym"
cd "$src"
pg_buildext updatecontrol
log "building the Debian package for PostgreSQL $(pg_buildext supported-versions | xargs)"
dpkg-buildpackage -us -uc -b -Pnocheck -j"$(nproc)" >"$work/build.log" 2>&1 || {
	tail -40 "$work/build.log" >&2
	exit 1
}

for deb in "$work"/*.deb; do
	cp "$deb" "$out"/
	log "$out/$(basename "$deb")"
done
