#!/usr/bin/env bash
# Checks META.json (PGXN meta spec 1.0.0) against the spec's rules and against the tree: its versions
# against idtypes.control and debian/changelog, its files against the repository. Needs no cluster.
# Prints one line per check, `ok` or `FAIL`.
#
# Versions: PGXN wants semantic versions (x.y.z), PostgreSQL's extension versions are idtypes.control's
# `default_version` (x.y, what ALTER EXTENSION and the script names use). The distribution is x.y.z and
# its x.y must be default_version; the Debian package's version is the distribution's.
set -uo pipefail
source "$(dirname "$0")/../../scripts/lib.sh"
install_missing jq >&2
cd "$ROOT" || exit 1
meta=META.json

check() { # name, then a command that must succeed (its last output line is shown)
	local name=$1 out
	shift
	if out=$("$@" 2>&1); then
		echo "ok   $name${out:+: ${out##*$'\n'}}"
	else
		echo "FAIL $name"
		printf '%s\n' "$out" | sed 's/^/     /' | tail -20
	fi
}
# A jq filter over META.json that must print `true`; otherwise what it printed is shown.
holds() {
	local out
	out=$(jq -r "$1" "$meta") && [ "$out" = true ] || { echo "$out"; return 1; }
}

check "META.json is valid JSON" holds 'type == "object"'

# The spec's required keys, and no key outside the spec except custom x_ keys.
check "META.json has the required keys (name version abstract maintainer license provides meta-spec)" holds '
	["name", "version", "abstract", "maintainer", "license", "provides", "meta-spec"] - keys |
	if . == [] then true else "missing: \(.)" end'
check "META.json has only keys of the spec" holds '
	keys - ["name", "version", "abstract", "maintainer", "license", "provides", "meta-spec", "description",
		"generated_by", "tags", "no_index", "prereqs", "release_status", "resources"] |
	map(select(test("^[xX]_.") | not)) | if . == [] then true else "unknown: \(.)" end'

semver='^(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)(-[0-9A-Za-z.-]+)?(\\+[0-9A-Za-z.-]+)?$'
check "meta-spec is 1.0.x" holds '."meta-spec".version | test("^1\\.0\\.[0-9]+$")'
check "name is a term (2+ characters, no space, slash or control character)" holds \
	'.name | test("^[^/\\\\\\s[:cntrl:]]{2,}$")'
check "version is a semantic version" holds ".version | test(\"$semver\")"
check "abstract, description, generated_by are non-empty strings" holds \
	'[.abstract, .description, .generated_by] | all(type == "string" and length > 0)'
check "maintainer is a non-empty string or list of strings" holds \
	'.maintainer | if type == "array" then length > 0 and all(type == "string" and length > 0)
		else type == "string" and length > 0 end'
check "release_status is stable, testing or unstable" holds '.release_status | IN("stable", "testing", "unstable")'
check "tags are 2-255 characters without slash, backslash or control characters" holds \
	'.tags | type == "array" and length > 0 and all(type == "string" and test("^[^/\\\\[:cntrl:]]{2,255}$"))'

# The license: a name the spec knows, matching LICENSE and debian/copyright.
licenses='["agpl_3","apache_1_1","apache_2_0","artistic_1","artistic_2","bsd","freebsd","gfdl_1_2","gfdl_1_3",
	"gpl_1","gpl_2","gpl_3","lgpl_2_1","lgpl_3_0","mit","mozilla_1_0","mozilla_1_1","openssl","perl_5",
	"postgresql","qpl_1_0","ssleay","sun","zlib","open_source","restricted","unrestricted","unknown"]'
check "license is one the spec knows" holds ".license | IN(${licenses}[])"
license_matches() {
	[ "$(jq -r .license "$meta")" = postgresql ] && head -1 LICENSE | grep -qx 'PostgreSQL License' &&
		grep -qx 'License: PostgreSQL' debian/copyright && echo "postgresql, as LICENSE and debian/copyright"
}
check "license is the repository's (LICENSE, debian/copyright)" license_matches

check "provides: idtypes, each extension with a file and a semantic version" holds "
	(.provides | has(\"idtypes\")) and
	(.provides | to_entries | all(.value | (.file | type == \"string\") and (.version | test(\"$semver\"))))"
provided_files_exist() {
	local f
	for f in $(jq -r '.provides[] | .file, (.docfile // empty)' "$meta"); do
		[ -f "$f" ] || { echo "$f is not in the tree"; return 1; }
	done
	jq -r '[.provides[] | .file, (.docfile // empty)] | join(", ")' "$meta"
}
check "provides: file and docfile exist in the tree" provided_files_exist
check "prereqs: runtime requires PostgreSQL >= 15" holds '
	(.prereqs | keys - ["configure", "build", "test", "runtime", "develop"] == []) and
	(.prereqs.runtime.requires.PostgreSQL | tostring | ltrimstr(">= ") | split(".")[0] | tonumber >= 15)'

# Versions: distribution, extension, control file and Debian package agree.
control_version=$(sed -n "s/^default_version = '\(.*\)'$/\1/p" idtypes.control)
versions_agree() {
	local dist ext deb
	dist=$(jq -r .version "$meta") ext=$(jq -r .provides.idtypes.version "$meta")
	deb=$(dpkg-parsechangelog -l debian/changelog -S Version 2>/dev/null || sed -n '1s/.*(\(.*\)).*/\1/p' debian/changelog)
	[ -n "$control_version" ] || { echo "no default_version in idtypes.control"; return 1; }
	[ "$ext" = "$dist" ] || { echo "provides.idtypes.version $ext <> version $dist"; return 1; }
	[ "${dist%.*}" = "$control_version" ] || { echo "version $dist is not $control_version.N"; return 1; }
	[ "${deb%%-*}" = "$dist" ] || { echo "debian/changelog's $deb is not $dist"; return 1; }
	echo "$dist (idtypes.control $control_version, debian/changelog $deb)"
}
check "versions agree: META.json, provides, idtypes.control's default_version, debian/changelog" versions_agree

# The PostgreSQL versions named for users (META.json's description, the Debian package's) are those the
# code builds for (src/pg/common/compat.hpp's guard), and the README's install table has a row for the newest.
supported_range() {
	local code in_meta deb newest
	code=$(grep -o 'supports PostgreSQL [0-9]* to [0-9]*' src/pg/common/compat.hpp | grep -o '[0-9]* to [0-9]*')
	in_meta=$(jq -r .description "$meta" | grep -o 'PostgreSQL [0-9]* to [0-9]*' | grep -o '[0-9]* to [0-9]*')
	deb=$(grep -o 'PostgreSQL [0-9]* to [0-9]*' debian/control.in | grep -o '[0-9]* to [0-9]*')
	newest=${code##* }
	[ -n "$code" ] || { echo "no supported range in src/pg/common/compat.hpp"; return 1; }
	[ "$in_meta" = "$code" ] || { echo "META.json says '$in_meta', the code '$code'"; return 1; }
	[ "$deb" = "$code" ] || { echo "debian/control.in says '$deb', the code '$code'"; return 1; }
	grep -q "^| $newest | \`postgresql-server-dev-$newest\`" README.md ||
		{ echo "README.md's install table has no row for $newest"; return 1; }
	echo "PostgreSQL $code (compat.hpp, META.json, debian/control.in, README.md)"
}
check "the supported PostgreSQL versions agree: the code, META.json, the Debian package, the README" supported_range
