#!/usr/bin/env bash
# Checks of the idtypes command-line tool, run by CTest as one test per part (see CMakeLists.txt):
#   test/cli/run.sh PATH/TO/idtypes inspect|time|stdin|gen|convert|range|errors|version|docs|build
# Prints one line per check, `ok` or `FAIL`, and exits 1 when any check failed. Expected values come from the
# specs (decoded here in shell, independently of the tool: field layouts, coreutils' basenc for base32hex,
# date(1) for times) or are the SQL functions' results recorded in expected/*.out (named at each use).
# `cond && ok ... || fail ...` is meant: ok only prints, so it never fails.
# shellcheck disable=SC2015
set -uo pipefail
bin=$(realpath "$1")
part=$2
root=$(cd "$(dirname "$0")/../.." && pwd)
export LC_ALL=C # byte order for sort(1), like the IDs' text order
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
status=0

ok() { echo "ok   $1"; }
fail() {
	echo "FAIL $1"
	shift
	printf '%s\n' "$@" | sed 's/^/     /' | head -30
	status=1
}

# run ARGS...: sets out, err and rc
run() {
	out=$("$bin" "$@" 2>"$tmp/err")
	rc=$?
	err=$(<"$tmp/err")
}

# expect NAME RC STDOUT ARGS...: the exit status and the whole stdout
expect() {
	local name=$1 want_rc=$2 want_out=$3
	shift 3
	run "$@"
	if [ "$rc" = "$want_rc" ] && [ "$out" = "$want_out" ]; then
		ok "$name"
	else
		fail "$name" "idtypes $*" "exit $rc (want $want_rc)" "stdout:" "$out" "want:" "$want_out" "stderr:" "$err"
	fi
}

# expect_error NAME RC STDERR_LINE ARGS...: the exit status, nothing on stdout, and that line on stderr
expect_error() {
	local name=$1 want_rc=$2 want_line=$3
	shift 3
	run "$@"
	if [ "$rc" = "$want_rc" ] && [ -z "$out" ] && grep -qxF -- "$want_line" <<<"$err"; then
		ok "$name"
	else
		fail "$name" "idtypes $*" "exit $rc (want $want_rc)" "stdout: $out" "stderr:" "$err" "want the line: $want_line"
	fi
}

# The value of one field in inspect's output for one ID.
field() { "$bin" inspect "$1" | sed -n "s/^$2: //p"; }

# RFC 3339 UTC text of Unix microseconds at 6 or 3 fractional digits (reference: date(1)).
utc() {
	local us=$1 digits=$2 frac
	if [ "$digits" = 6 ]; then frac=$(printf '%06d' $((us % 1000000))); else frac=$(printf '%03d' $((us % 1000000 / 1000))); fi
	echo "$(date -u -d "@$((us / 1000000))" +%Y-%m-%dT%H:%M:%S).${frac}Z"
}

# --- independent decoders of the specs' layouts

# TID: 13 symbols of 234567abcdefghijklmnopqrstuvwxyz, 5 bits each (65 bits, the first symbol below 16 here);
# micros are the value shifted right by 10, the clock id the low 10 bits.
tid_value() {
	local alphabet=234567abcdefghijklmnopqrstuvwxyz s=$1 v=0 i c rest
	for ((i = 0; i < ${#s}; i++)); do
		c=${s:i:1}
		rest=${alphabet%%"$c"*}
		v=$((v * 32 + ${#rest}))
	done
	echo "$v"
}

# base32hex of RFC 4648 (coreutils' basenc) to lower-case hex.
b32hex_to_hex() { printf '%s' "$1" | basenc --base32hex -d | od -An -v -tx1 | tr -d ' \n'; }

inspect_checks() {
	# the whole output for the corrected first example of the internet-draft draft-goldman-tid ("The Time-Ordered
	# ID and base32lex Binary Encoding"): 1721382046481000 µs, clock 1; the draft prints `3kxn-lhr-3gxq-23`, the
	# same wall-clock time read in UTC-7 (docs/types.md, "timeid (TID)")
	expect "inspect timeid 3kxmtyqiinc23: every line" 0 "input: 3kxmtyqiinc23
format: timeid
canonical: 3kxmtyqiinc23
time: 2024-07-19T09:40:46.481000Z
dashed: 3kxm-tyq-iinc-23
micros: 1721382046481000
clock_id: 1" inspect 3kxmtyqiinc23

	# TIDs of the atproto spec and the draft (its min/max table, its second example), decoded here
	local t v
	for t in 3kxmtyqiinc23 3jzfcijpj2z2a 7777777777777 3zzzzzzzzzzzz 2222222222222 bzzzzzzzzzzzz 3iso34eqpw222 22222222222zz; do
		v=$(tid_value "$t")
		expect "inspect timeid $t: time and fields from the layout" 0 "input: $t
format: timeid
canonical: $t
time: $(utc $((v >> 10)) 6)
dashed: ${t:0:4}-${t:4:3}-${t:7:4}-${t:11:2}
micros: $((v >> 10))
clock_id: $((v & 1023))" inspect "$t"
	done
	[ "$(field bzzzzzzzzzzzz micros)" = 9007199254740991 ] && [ "$(field bzzzzzzzzzzzz time)" = 2255-06-05T23:47:34.740991Z ] &&
		ok "inspect timeid bzzzzzzzzzzzz: 2^53-1 µs, the draft's max value 2255-06-05T23:47:34" ||
		fail "inspect timeid bzzzzzzzzzzzz" "$("$bin" inspect bzzzzzzzzzzzz)"
	# a top-bit TID (accepted, as atproto does): 2^54-1 µs, timeid_max's last instant (expected/timeid_io.out)
	[ "$(field jzzzzzzzzzzzz micros)" = 18014398509481983 ] && [ "$(field jzzzzzzzzzzzz time)" = 2540-11-07T23:35:09.481983Z ] &&
		[ "$(field jzzzzzzzzzzzz clock_id)" = 1023 ] && ok "inspect timeid jzzzzzzzzzzzz: top bit set, 2^54-1 µs" ||
		fail "inspect timeid jzzzzzzzzzzzz" "$("$bin" inspect jzzzzzzzzzzzz)"
	expect "inspect reads the dashed form" 0 "$("$bin" inspect 3kxmtyqiinc23 | sed 's/^input: .*/input: 3kxm-tyq-iinc-23/')" \
		inspect 3kxm-tyq-iinc-23

	# TBSL: the payload SSSSSSSSSSUUUUUUMM in the first 15 hex digits, the suffix in the last 5
	local p
	for t in 25BF6196C8D6107ABCDE 00000000000000000000 DE0B6B3A763FFFFFFFFF 24E5A9D0E2E44000000F; do
		p=$((16#${t:0:15}))
		expect "inspect tbsl $t: time and fields from the layout" 0 "input: $t
format: tbsl
canonical: $t
time: $(utc $((p / 100)) 6)
unix_seconds: $((p / 100000000))
microseconds: $((p / 100 % 1000000))
machine_id: $((p % 100))
suffix: $((16#${t:15:5}))" inspect "$t"
	done
	[ "$(field 25BF6196C8D6107ABCDE time)" = 2023-11-14T22:13:20.123456Z ] &&
		[ "$(field DE0B6B3A763FFFFFFFFF time)" = 2286-11-20T17:46:39.999999Z ] &&
		ok "inspect tbsl: make_tbsl(1700000000, 123456, 7, 703710) and the largest TBSL's times" ||
		fail "inspect tbsl times" "$("$bin" inspect 25BF6196C8D6107ABCDE DE0B6B3A763FFFFFFFFF)"

	# uid11 / xid: the spec's normative test vectors (§8.6): payload = ts << 22 | r, ts in ms since
	# 2011-11-11T11:11:11.111Z; and the largest uid11
	local epoch_ms=1321009871111 row ts r hex
	for row in "11111111111 0 0 0x0000000000000000" "1111111NVpb 1 0 0x0000000000400000" \
		"113q8KFkAEs 86400000 0 0x0001499700000000"; do
		read -r t ts r hex <<<"$row"
		expect "inspect uid11 $t: the spec's vector ts=$ts r=$r" 0 "input: $t
format: uid11
canonical: $t
time: $(utc $(((epoch_ms + ts) * 1000)) 3)
value: $((hex))
xid_timestamp: $ts
xid_random: $r" inspect "$t"
	done
	expect "inspect uid11 jpXCZedGfVQ: 2^64-1, the last xid millisecond (2151-03-25T18:46:22.214Z)" 0 "input: jpXCZedGfVQ
format: uid11
canonical: jpXCZedGfVQ
time: 2151-03-25T18:46:22.214Z
value: 18446744073709551615
xid_timestamp: 4398046511103
xid_random: 4194303" inspect jpXCZedGfVQ

	# SCRU160: the spec's four examples; fields from the hex (48-bit ms | counter | random16 | random80),
	# base32hex decoded by basenc. All carry 2021-09-13T13:41:30.683Z.
	local canonical
	for t in 05TTUP1HNCPNH30VEK64KDQT9BSNU4C4 05TTUP1HNCPNIB63R8IN5V2L3VFGNFET \
		017bdf6431bb33750751eb63beb3c3f8c5969d86 017bdf6431bb337662412e6a5758890735c33c2b; do
		if [ ${#t} = 40 ]; then
			hex=$t
			canonical=$(printf '%s' "${hex^^}" | basenc --base16 -d | basenc --base32hex)
		else
			hex=$(b32hex_to_hex "$t")
			canonical=$t
		fi
		expect "inspect scru160 $t: time and fields from the layout" 0 "input: $t
format: scru160
canonical: $canonical
time: $(utc $((16#${hex:0:12} * 1000)) 3)
hex: $hex
timestamp: $((16#${hex:0:12}))
counter: $((16#${hex:12:4}))
random16: $((16#${hex:16:4}))
random80: ${hex:20}" inspect "$t"
	done
	[ "$(field 05TTUP1HNCPNH30VEK64KDQT9BSNU4C4 time)" = 2021-09-13T13:41:30.683Z ] &&
		[ $(($(field 05TTUP1HNCPNIB63R8IN5V2L3VFGNFET counter) - $(field 05TTUP1HNCPNH30VEK64KDQT9BSNU4C4 counter))) = 1 ] &&
		ok "inspect scru160: the examples' millisecond, consecutive counters" || fail "inspect scru160 pair"
	expect "inspect scru160 reads either case" 0 "$("$bin" inspect 05TTUP1HNCPNH30VEK64KDQT9BSNU4C4 | sed 's/^input: .*/input: 05ttup1hncpnh30vek64kdqt9bsnu4c4/')" \
		inspect 05ttup1hncpnh30vek64kdqt9bsnu4c4

	# several IDs: one block each, separated by a blank line, in order
	run inspect 3kxmtyqiinc23 113q8KFkAEs 25BF6196C8D6107ABCDE
	[ "$rc" = 0 ] && [ "$(grep -c '^format: ' <<<"$out")" = 3 ] && [ "$(grep -c '^$' <<<"$out")" = 2 ] &&
		[ "$(sed -n 's/^format: //p' <<<"$out" | tr '\n' ' ')" = "timeid uid11 tbsl " ] &&
		ok "inspect several IDs: a block each, in order" || fail "inspect several IDs" "$out"
}

gen_checks() {
	local type n=2000 start end lo hi name
	for type in tbsl timeid uid11 xid scru160; do
		name=$type
		[ "$type" = xid ] && name=uid11
		start=$(date -u +%s)
		run gen "$type" -n "$n"
		end=$(date -u +%s)
		printf '%s\n' "$out" >"$tmp/ids"
		if [ "$rc" = 0 ] && [ "$(wc -l <"$tmp/ids")" = "$n" ]; then ok "gen $type -n $n: $n lines"; else fail "gen $type: lines" "exit $rc" "$err"; fi
		if sort -c -u "$tmp/ids" 2>"$tmp/sort"; then ok "gen $type: strictly increasing"; else fail "gen $type: not strictly increasing" "$(<"$tmp/sort")"; fi
		# each one valid, and inspect reads it back as the same canonical text of that format
		if xargs "$bin" inspect <"$tmp/ids" >"$tmp/inspected" && [ "$(grep -c "^format: $name\$" "$tmp/inspected")" = "$n" ] &&
			cmp -s <(sed -n 's/^canonical: //p' "$tmp/inspected") "$tmp/ids"; then
			ok "gen $type: inspect reads every ID as a $name, the same text"
		else
			fail "gen $type: inspect disagrees" "$(head -20 "$tmp/inspected")"
		fi
		# their times lie in the run's seconds: within the bounds of `range --from --to` around it
		lo=$("$bin" range "$type" --from "$(date -u -d "@$start" +%FT%TZ)" --to "$(date -u -d "@$((end + 2))" +%FT%TZ)" | sed -n 1p)
		hi=$("$bin" range "$type" --from "$(date -u -d "@$start" +%FT%TZ)" --to "$(date -u -d "@$((end + 2))" +%FT%TZ)" | sed -n 2p)
		if [[ ! "$(head -1 "$tmp/ids")" < "$lo" ]] && [[ ! "$(tail -1 "$tmp/ids")" > "$hi" ]]; then
			ok "gen $type: the IDs carry the clock's time ($lo .. $hi)"
		else
			fail "gen $type: times outside the run" "first $(head -1 "$tmp/ids")" "last $(tail -1 "$tmp/ids")" "window $lo .. $hi"
		fi
	done
	# uuid: UUIDv7s as uuid_v7_generate() makes them (RFC 9562: version 7, variant 10, 48 bits of Unix
	# milliseconds), lower-case 8-4-4-4-12, strictly increasing, their milliseconds within the run's
	start=$(date -u +%s%3N)
	run gen uuid -n "$n"
	end=$(date -u +%s%3N)
	printf '%s\n' "$out" >"$tmp/ids"
	if [ "$rc" = 0 ] && [ "$(wc -l <"$tmp/ids")" = "$n" ]; then ok "gen uuid -n $n: $n lines"; else fail "gen uuid: lines" "exit $rc" "$err"; fi
	if sort -c -u "$tmp/ids" 2>"$tmp/sort"; then ok "gen uuid: strictly increasing"; else fail "gen uuid: not strictly increasing" "$(<"$tmp/sort")"; fi
	[ "$(grep -cE '^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$' "$tmp/ids")" = "$n" ] &&
		ok "gen uuid: every one a UUIDv7 (version 7, variant 10), lower case, dashed" || fail "gen uuid: not UUIDv7s" "$(head -5 "$tmp/ids")"
	lo=$((16#$(head -1 "$tmp/ids" | tr -d - | cut -c1-12)))
	hi=$((16#$(tail -1 "$tmp/ids" | tr -d - | cut -c1-12)))
	[ "$lo" -ge "$start" ] && [ "$hi" -le "$end" ] && ok "gen uuid: the IDs carry the clock's millisecond ($start .. $end)" ||
		fail "gen uuid: times outside the run" "first $lo, last $hi, run $start .. $end"
	expect_error "gen uuid --clock-id: timeid's only" 2 "idtypes: gen: --clock-id is for timeid only" gen uuid --clock-id 3
	expect "gen -n 0: nothing" 0 "" gen timeid -n 0
	run gen timeid
	[ "$rc" = 0 ] && [ "$(wc -l <<<"$out")" = 1 ] && [ ${#out} = 13 ] && ok "gen timeid: one ID by default" || fail "gen default" "$out"
	run gen timeid -n 50 --clock-id 5
	[ "$rc" = 0 ] && [ "$(xargs "$bin" inspect <<<"$out" | grep -c '^clock_id: 5$')" = 50 ] &&
		ok "gen timeid --clock-id 5: every clock id 5" || fail "gen --clock-id" "$out"
	run gen tbsl -n 50 --machine 7
	[ "$rc" = 0 ] && [ "$(xargs "$bin" inspect <<<"$out" | grep -c '^machine_id: 7$')" = 50 ] &&
		ok "gen tbsl --machine 7: every machine id 7" || fail "gen --machine" "$out"
	# sequenced: each microsecond's suffixes count 0, 1, 2, ... (random ones would spread over 20 bits)
	run gen tbsl -n 200 --machine 3 --sequenced
	local big
	big=$(xargs "$bin" inspect <<<"$out" | sed -n 's/^suffix: //p' | awk '$1 > 1000' | wc -l)
	[ "$rc" = 0 ] && [ "$big" = 0 ] && sort -c -u <<<"$out" && ok "gen tbsl --sequenced: small suffixes, increasing" ||
		fail "gen --sequenced" "$out"
}

convert_checks() {
	# tbsl_to_base(make_tbsl(1700000000, 123456, 7, 703710), b), and of the smallest, 1 and the largest TBSL:
	# the SQL results in expected/tbsl_io.out
	local row b id enc
	for row in "base16 25bf6196c8d6107abcde" "base32 4mvm35m8qo87lf6u" "base36 t1003uhq7819wbi" \
		"base58 3818S45pyd42Z3" "base62 tFcxYq1sEU7Q6"; do
		read -r b enc <<<"$row"
		expect "convert tbsl --to $b (tbsl_to_base)" 0 "$enc" convert 25BF6196C8D6107ABCDE --to "$b"
		expect "convert --from $b --to tbsl (tbsl_from_base)" 0 25BF6196C8D6107ABCDE convert "$enc" --from "$b" --to tbsl
	done
	for row in "base16 0 1 de0b6b3a763fffffffff" "base32 0 1 ro5mmejm7vvvvvvv" "base36 0 1 4qr24v2up7plbd33" \
		"base58 1 2 DUYTfBifyH1TwU" "base62 0 1 5F0kpIaR5aes07"; do
		read -r b zero one largest <<<"$row"
		expect "convert tbsl zero, one, largest --to $b" 0 "$zero
$one
$largest" convert 00000000000000000000 00000000000000000001 DE0B6B3A763FFFFFFFFF --to "$b"
	done
	expect "convert --from base16: either case, leading zeros (tbsl_from_base)" 0 "25BF6196C8D6107ABCDE
25BF6196C8D6107ABCDE" convert 25BF6196C8D6107ABCDE 0000025bf6196c8d6107abcde --from base16 --to canonical

	# round trips of generated IDs through every form of their format
	local forms type ids back
	for row in "tbsl base16 base32 base36 base58 base62 tbsl" "timeid dashed timeid" "scru160 hex scru160" "uid11 uid11"; do
		read -r type forms <<<"$row"
		ids=$("$bin" gen "$type" -n 300)
		for b in $forms; do
			enc=$(xargs "$bin" convert --to "$b" <<<"$ids")
			back=$(xargs "$bin" convert --from "$b" --to canonical <<<"$enc")
			if [ "$back" = "$ids" ] && [ "$(wc -l <<<"$enc")" = 300 ]; then
				ok "convert $type --to $b and back: 300 generated IDs"
			else
				fail "convert $type $b round trip" "$(paste <(head -5 <<<"$ids") <(head -5 <<<"$enc") <(head -5 <<<"$back"))"
			fi
		done
	done

	# scru160 base32hex <-> hex against coreutils' RFC 4648 codec; timeid dashed form by the draft's layout
	ids=$("$bin" gen scru160 -n 20)
	local want got
	want=$(while read -r id; do b32hex_to_hex "$id"; echo; done <<<"$ids")
	got=$(xargs "$bin" convert --to hex <<<"$ids")
	[ "$got" = "$want" ] && ok "convert scru160 --to hex agrees with basenc --base32hex" || fail "scru160 hex" "$got" "$want"
	ids=$("$bin" gen timeid -n 20)
	want=$(sed -E 's/^(.{4})(.{3})(.{4})(.{2})$/\1-\2-\3-\4/' <<<"$ids")
	got=$(xargs "$bin" convert --to dashed <<<"$ids")
	[ "$got" = "$want" ] && ok "convert timeid --to dashed: STTT-TTT-TTTT-CC" || fail "timeid dashed" "$got" "$want"
	expect "convert timeid from dashed (recognised)" 0 3kxmtyqiinc23 convert 3kxm-tyq-iinc-23 --to timeid
	expect "convert scru160 hex (recognised) to base32hex" 0 05TTUP1HNCPNH30VEK64KDQT9BSNU4C4 \
		convert 017BDF6431BB33788C1F750C4A375D4AF97F1184 --to scru160
}

range_checks() {
	# prefixes: T_prefix_lo / T_prefix_hi as expected/*_index.out records them
	expect "range timeid --prefix 3kxm" 0 "3kxm222222222
3kxmzzzzzzzzz" range timeid --prefix 3kxm
	expect "range timeid --prefix 3kxm-tyq (dashes ignored)" 0 "3kxmtyq222222
3kxmtyqzzzzzz" range timeid --prefix 3kxm-tyq
	expect "range timeid --prefix 3kxmtyqiinc23 (whole ID)" 0 "3kxmtyqiinc23
3kxmtyqiinc23" range timeid --prefix 3kxmtyqiinc23
	expect "range timeid --prefix '' (every timeid)" 0 "2222222222222
jzzzzzzzzzzzz" range timeid --prefix ''
	expect "range timeid --prefix k: empty, bounds reversed as timeid_prefix_lo/hi('k')" 0 "jzzzzzzzzzzzz
2222222222222" range timeid --prefix k
	grep -q 'selects nothing' <<<"$err" && ok "range of an empty prefix: a note on stderr" || fail "empty note" "$err"
	expect "range tbsl --prefix 25BF" 0 "25BF0000000000000000
25BFFFFFFFFFFFFFFFFF" range tbsl --prefix 25BF
	expect "range tbsl --prefix D (clamped to the largest TBSL)" 0 "D0000000000000000000
DE0B6B3A763FFFFFFFFF" range tbsl --prefix D
	expect "range tbsl --prefix E: empty" 0 "DE0B6B3A763FFFFFFFFF
00000000000000000000" range tbsl --prefix E
	expect "range uid11 --prefix 3S" 0 "3S111111111
3Szzzzzzzzz" range uid11 --prefix 3S
	expect "range uid11 --prefix jpXCZedGfV (clamped to 2^64-1)" 0 "jpXCZedGfV1
jpXCZedGfVQ" range uid11 --prefix jpXCZedGfV
	expect "range uid11 --prefix jpXCZedGfVR: empty" 0 "jpXCZedGfVQ
11111111111" range uid11 --prefix jpXCZedGfVR
	expect "range scru160 --prefix 05ttup1 (either case)" 0 "05TTUP10000000000000000000000000
05TTUP1VVVVVVVVVVVVVVVVVVVVVVVVV" range scru160 --prefix 05ttup1

	# instants: T_min / T_max as expected/*_io.out records them
	expect "range timeid --at (timeid_min/max)" 0 "3iso34eqpw322
3iso34eqpw3zz" range timeid --at 2022-02-22T19:22:22.000001Z
	expect "range tbsl --at (tbsl_min/max)" 0 "25BF6196C8D610000000
25BF6196C8D6163FFFFF" range tbsl --at 2023-11-14T22:13:20.123456Z
	expect "range uid11 --at: truncated to the ms (uid11_min/max)" 0 "4u5w7n6axrK
4u5w7n6xTft" range uid11 --at 2024-07-19T09:40:46.481999Z
	expect "range xid --at is uid11's" 0 "4u5w7n6axrK
4u5w7n6xTft" range xid --at 2024-07-19T09:40:46.481Z
	expect "range scru160 --at: truncated to the ms (scru160_min/max)" 0 "05TTUP1HNC0000000000000000000000
05TTUP1HNFVVVVVVVVVVVVVVVVVVVVVV" range scru160 --at 2021-09-13T13:41:30.683999Z
	expect "range timeid --at the first instant" 0 "2222222222222
22222222222zz" range timeid --at 1970-01-01T00:00:00Z
	expect "range timeid --at the last instant (top-bit values included)" 0 "jzzzzzzzzzz22
jzzzzzzzzzzzz" range timeid --at 2540-11-07T23:35:09.481983Z
	expect "range uid11 --at the xid epoch: ts 0, random 0 .. 2^22-1" 0 "11111111111
1111111NVpa" range uid11 --at 2011-11-11T11:11:11.111Z
	run range uid11 --at 2151-03-25T18:46:22.214Z
	[ "$rc" = 0 ] && [ "$(sed -n 2p <<<"$out")" = jpXCZedGfVQ ] && ok "range uid11 --at the last instant: hi 2^64-1" ||
		fail "range uid11 last" "$out" "$err"
	run range tbsl --at 2286-11-20T17:46:39.999999Z
	[ "$rc" = 0 ] && [ "$(sed -n 2p <<<"$out")" = DE0B6B3A763FFFFFFFFF ] && ok "range tbsl --at the last instant: hi the largest TBSL" ||
		fail "range tbsl last" "$out" "$err"
	# offsets and fractions: the same instant however written; finer than µs rounds like PostgreSQL
	local a
	a=$("$bin" range timeid --at 2024-07-19T09:40:46.481Z)
	for t in "2024-07-19T11:40:46.481+02:00" "2024-07-19 09:40:46.481z" "2024-07-19t02:40:46.481000-07:00" \
		"2024-07-19T09:40:46.4809996Z" "2024-07-19T09:40:46.481000499Z"; do
		expect "range timeid --at '$t': the same instant" 0 "$a" range timeid --at "$t"
	done

	# windows: T_window_lo / T_window_hi of tstzrange(from, to), '[)'. pg_regress runs in PST8PDT, so
	# tstzrange('2024-01-01', '2024-01-02') of expected/timeid_index.out starts at 08:00Z
	expect "range timeid --from --to (timeid_window_lo/hi)" 0 "3khvr4fwk2222
3khybldfbzzzz" range timeid --from 2024-01-01T00:00:00-08:00 --to 2024-01-02T00:00:00-08:00
	# derived: [t, t + 1 unit) selects exactly the IDs at t, i.e. T_min(t) .. T_max(t); the upper end excluded
	expect "range timeid [t, t+1µs) = --at t" 0 "$("$bin" range timeid --at 2024-07-19T09:40:46.481Z)" \
		range timeid --from 2024-07-19T09:40:46.481Z --to 2024-07-19T09:40:46.481001Z
	expect "range scru160 [t, t+1ms) = --at t" 0 "$("$bin" range scru160 --at 2021-09-13T13:41:30.683Z)" \
		range scru160 --from 2021-09-13T13:41:30.683Z --to 2021-09-13T13:41:30.684Z
	expect "range uid11: a --from inside a ms starts at the next one, --to on a ms excludes it" 0 \
		"$("$bin" range uid11 --at 2024-07-19T09:40:46.482Z)" \
		range uid11 --from 2024-07-19T09:40:46.481001Z --to 2024-07-19T09:40:46.483Z
	expect "range tbsl: a missing --from is unbounded" 0 "00000000000000000000
$("$bin" range tbsl --at 2023-11-14T22:13:20.123455Z | sed -n 2p)" range tbsl --to 2023-11-14T22:13:20.123456Z
	expect "range tbsl: a missing --to is unbounded" 0 "25BF6196C8D610000000
DE0B6B3A763FFFFFFFFF" range tbsl --from 2023-11-14T22:13:20.123456Z
	expect "range timeid [t, t): empty, bounds reversed" 0 "jzzzzzzzzzzzz
2222222222222" range timeid --from 2024-01-01T00:00:00Z --to 2024-01-01T00:00:00Z
	expect "range uid11 before the xid epoch: empty" 0 "jpXCZedGfVQ
11111111111" range uid11 --to 2011-11-11T11:11:11.111Z
	expect "range scru160 clamped to the format's times" 0 "00000000000000000000000000000000
VVVVVVVVVVVVVVVVVVVVVVVVVVVVVVVV" range scru160 --from 1960-01-01T00:00:00Z --to 99999-12-31T23:59:59Z
	# and a generated ID lies in the window of its own time
	local id time lo hi type
	for type in tbsl timeid uid11 scru160; do
		id=$("$bin" gen "$type")
		time=$(field "$id" time)
		lo=$("$bin" range "$type" --at "$time" | sed -n 1p)
		hi=$("$bin" range "$type" --at "$time" | sed -n 2p)
		[[ ! "$id" < "$lo" && ! "$id" > "$hi" ]] && ok "range $type --at (inspect's time of a new ID) holds it" ||
			fail "range $type --at its time" "$id $time $lo $hi"
	done
}

time_checks() {
	# the spec vectors of inspect_checks, their times decoded here: one line each, in the order given
	local v
	v=$(tid_value 3kxmtyqiinc23)
	expect "time of a timeid, a tbsl, a uid11 and a scru160: one line each, in order" 0 "$(utc $((v >> 10)) 6)
$(utc $((16#25BF6196C8D6107 / 100)) 6)
$(utc $(((1321009871111 + 86400000) * 1000)) 3)
$(utc $((16#017bdf6431bb * 1000)) 3)" time 3kxmtyqiinc23 25BF6196C8D6107ABCDE 113q8KFkAEs 05TTUP1HNCPNH30VEK64KDQT9BSNU4C4
	expect "time reads what inspect reads: dashed timeid, scru160 in hex" 0 "2024-07-19T09:40:46.481000Z
2021-09-13T13:41:30.683Z" time 3kxm-tyq-iinc-23 017bdf6431bb33788c1f750c4a375d4af97f1184
	expect "time --from base58 (a tbsl in tbsl_to_base's base58)" 0 2023-11-14T22:13:20.123456Z time 3818S45pyd42Z3 --from base58
	# generated IDs: time prints what inspect's time line says, for each one
	local type ids
	for type in tbsl timeid uid11 scru160; do
		ids=$("$bin" gen "$type" -n 200)
		# shellcheck disable=SC2086 # one argument per ID
		run time $ids
		[ "$rc" = 0 ] && [ "$out" = "$(xargs "$bin" inspect <<<"$ids" | sed -n 's/^time: //p')" ] &&
			[ "$(wc -l <<<"$out")" = 200 ] && ok "time of 200 generated ${type}s: inspect's time of each" ||
			fail "time of generated ${type}s" "$(head -5 <<<"$out")" "$err"
	done
	run time 3kxmtyqiinc23 nope 113q8KFkAEs
	[ "$rc" = 1 ] && [ "$out" = $'2024-07-19T09:40:46.481000Z\n2011-11-12T11:11:11.111Z' ] &&
		grep -qxF 'idtypes: invalid ID "nope":' <<<"$err" && ok "time: a bad ID among good ones: the others printed, exit 1" ||
		fail "time with a bad ID" "$out" "$err"
	expect_error "time --from an unknown form" 2 'idtypes: time: unknown --from form "base64"' time x --from base64
	expect_error "time --from base58, not base58" 1 "  tbsl (base58): Character 1 is not a digit of the base." time 0 --from base58
}

# run_stdin INPUT ARGS...: run with INPUT on standard input (a file: the exit status is the tool's alone, never
# printf's SIGPIPE when the tool reads none of it)
run_stdin() {
	printf '%s' "$1" >"$tmp/in"
	shift
	out=$("$bin" "$@" <"$tmp/in" 2>"$tmp/err")
	rc=$?
	err=$(<"$tmp/err")
}

stdin_checks() {
	local ids=$'3kxmtyqiinc23\n25BF6196C8D6107ABCDE\n113q8KFkAEs\n05TTUP1HNCPNH30VEK64KDQT9BSNU4C4'
	local cmd
	for cmd in inspect time "convert --to canonical"; do
		# shellcheck disable=SC2086 # the command's words
		run_stdin "$ids"$'\n' $cmd
		# shellcheck disable=SC2086
		[ "$rc" = 0 ] && [ -n "$out" ] && [ "$out" = "$("$bin" $cmd $ids)" ] &&
			ok "$cmd with no ID given reads standard input, one ID per line: the same as the IDs given" ||
			fail "$cmd from standard input" "$out" "$err"
	done
	run_stdin $'\n3kxmtyqiinc23\n\n   \n\t25BF6196C8D6107ABCDE  \r\n113q8KFkAEs\r\n05TTUP1HNCPNH30VEK64KDQT9BSNU4C4' time
	# shellcheck disable=SC2086 # one argument per ID
	[ "$rc" = 0 ] && [ "$out" = "$("$bin" time $ids)" ] &&
		ok "standard input: blank lines skipped, spaces, tabs and CRLF around an ID ignored, no newline at the end" ||
		fail "stdin blank lines and whitespace" "$out" "$err"
	run_stdin "" inspect
	[ "$rc" = 0 ] && [ -z "$out" ] && [ -z "$err" ] && ok "nothing on standard input: nothing printed, exit 0" ||
		fail "empty stdin" "exit $rc" "$out" "$err"
	run_stdin "nope" inspect 3kxmtyqiinc23
	[ "$rc" = 0 ] && [ "$(grep -c '^input: ' <<<"$out")" = 1 ] && ok "IDs given: standard input is not read" ||
		fail "IDs given and stdin" "$out" "$err"
	# generated IDs on standard input, the same as given to xargs
	ids=$("$bin" gen tbsl -n 1000)
	run_stdin "$ids" convert --to base58
	[ "$rc" = 0 ] && [ "$out" = "$(xargs "$bin" convert --to base58 <<<"$ids")" ] &&
		ok "1000 generated tbsls on standard input, convert --to base58: the same as the IDs given" || fail "convert from a pipe" "$err"
	run_stdin "$out" convert --from base58 --to tbsl
	[ "$rc" = 0 ] && [ "$out" = "$ids" ] && ok "their base58 on standard input, convert --from base58 --to tbsl: back to the 1000 IDs" ||
		fail "convert --from base58 from a pipe" "$err"

	# a bad ID on standard input: named by its line (counting blank ones), the others printed, exit 1
	run_stdin $'3kxmtyqiinc23\n\nnope\n113q8KFkAEs\n' inspect
	[ "$rc" = 1 ] && [ "$(grep -c '^input: ' <<<"$out")" = 2 ] &&
		grep -qxF 'idtypes: standard input, line 3: invalid ID "nope":' <<<"$err" &&
		grep -qxF '  timeid: Expected 13 characters, found 4.' <<<"$err" &&
		ok "inspect: a bad ID on standard input names its line (3), gives the reasons, exit 1" ||
		fail "inspect: bad ID on stdin" "exit $rc" "$out" "$err"
	run_stdin $'3kxmtyqiinc23\n3JZFCIJPJ2Z2A\n' time
	[ "$rc" = 1 ] && [ "$out" = 2024-07-19T09:40:46.481000Z ] &&
		grep -qxF 'idtypes: standard input, line 2: invalid ID "3JZFCIJPJ2Z2A":' <<<"$err" &&
		grep -qxF '  timeid: Character 2 ("J") is not in the base32-sortable alphabet 234567abcdefghijklmnopqrstuvwxyz (lower case).' <<<"$err" &&
		ok "time: a bad ID on standard input names its line (2), gives the DETAIL, exit 1" ||
		fail "time: bad ID on stdin" "exit $rc" "$out" "$err"
	run_stdin $'3818S45pyd42Z3\n0\n' convert --from base58 --to tbsl
	[ "$rc" = 1 ] && [ "$out" = 25BF6196C8D6107ABCDE ] &&
		[ "$err" = $'idtypes: standard input, line 2: invalid ID "0":\n  tbsl (base58): Character 1 is not a digit of the base.' ] &&
		ok "convert --from base58: a bad ID on standard input names its line (2), exit 1" ||
		fail "convert: bad ID on stdin" "exit $rc" "$out" "$err"
	run_stdin $'3kxmtyqiinc23\n25BF6196C8D6107ABCDE\n' convert --to dashed
	[ "$rc" = 2 ] && [ "$out" = 3kxm-tyq-iinc-23 ] && grep -qxF 'idtypes: convert: a tbsl has no form "dashed"; its forms: tbsl, base16, base32, base36, base58, base62' <<<"$err" &&
		ok "convert: a form the ID on standard input lacks: a usage error, exit 2" || fail "convert: form on stdin" "exit $rc" "$out" "$err"
	# results and errors in the order they came, even into one file (2>&1)
	out=$(printf '3kxmtyqiinc23\nnope\n113q8KFkAEs\n' | "$bin" time 2>&1)
	[ "$(sed -n '1p;2p;$p' <<<"$out")" = $'2024-07-19T09:40:46.481000Z\nidtypes: standard input, line 2: invalid ID "nope":\n2011-11-12T11:11:11.111Z' ] &&
		ok "time ... 2>&1: each error between the results before and after it" || fail "stdout/stderr order" "$out"
	# a terminal on standard input and no ID: the usage error, not a wait for typed IDs
	out=$(script -qec "$bin inspect" /dev/null </dev/null 2>&1)
	rc=$?
	[ "$rc" = 2 ] && grep -qF 'idtypes: inspect: give one or more IDs, or one per line on standard input' <<<"$out" &&
		ok "inspect with no ID and a terminal on standard input: a usage error, exit 2" || fail "stdin a terminal" "exit $rc" "$out"
}

version_checks() {
	local want
	want=$(sed -n "s/^default_version = '\(.*\)'$/\1/p" "$root/idtypes.control")
	expect "--version: the version of idtypes.control ($want)" 0 "idtypes $want" --version
}

# docs/cli.md: every `$ command` line of its ```text blocks runs (in a shell, `idtypes` on the PATH) and prints
# the lines the page shows under it, stdout and stderr together. The IDs of `idtypes gen` differ on every run:
# there, as many, of the same format, and strictly increasing.
doc_example() {
	local cmd=$1 want=$2 got shown made
	got=$(cd "$tmp" && PATH="$tmp/bin:$PATH" bash -c "$cmd" 2>&1)
	if [[ "$cmd" != "idtypes gen "* ]]; then
		[ "$got" = "$want" ] && ok "docs/cli.md: \$ $cmd" || fail "docs/cli.md: \$ $cmd" "got:" "$got" "the page shows:" "$want"
		return
	fi
	if [[ "$cmd" = "idtypes gen uuid"* ]]; then # the tool reads no uuid: the lines' shape, UUIDv7s
		local v7='^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$'
		shown=$(grep -cE "$v7" <<<"$want")/$(wc -l <<<"$want")
		made=$(grep -cE "$v7" <<<"$got")/$(wc -l <<<"$got")
	else
		shown=$(xargs "$bin" inspect <<<"$want" | sed -n 's/^format: //p')
		made=$(xargs "$bin" inspect <<<"$got" | sed -n 's/^format: //p')
	fi
	[ -n "$got" ] && [ "$made" = "$shown" ] && sort -c -u <<<"$got" 2>/dev/null &&
		ok "docs/cli.md: \$ $cmd (as many IDs, of the same format, increasing)" ||
		fail "docs/cli.md: \$ $cmd" "got:" "$got" "the page shows:" "$want"
}

docs_checks() {
	mkdir "$tmp/bin" && ln -s "$bin" "$tmp/bin/idtypes"
	local line block='' cmd='' want='' count=0
	while IFS= read -r line; do
		if [ -z "$block" ]; then
			[[ "$line" =~ ^\`\`\`([a-z]*) ]] && block=${BASH_REMATCH[1]:-none}
			continue
		fi
		if [ "$line" = '```' ] || [[ "$block" = text && "$line" = '$ '* ]]; then
			[ -n "$cmd" ] && doc_example "$cmd" "${want%$'\n'}" && count=$((count + 1))
			cmd='' want=''
			[ "$line" = '```' ] && block='' || cmd=${line#\$ }
		elif [ -n "$cmd" ]; then
			want+=$line$'\n'
		fi
	done <"$root/docs/cli.md"
	[ "$count" -ge 10 ] && ok "docs/cli.md: $count examples run" || fail "docs/cli.md: only $count examples found"
}

# docs/cli.md's ```sh blocks (the build), run as written in a copy of the sources, `cmake --install` into a
# DESTDIR: the tool is built and installed, and nothing else is built (no unit tests, no benchmark).
build_checks() {
	local src=$tmp/src dest=$tmp/dest
	mkdir "$src"
	if git -C "$root" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
		(cd "$root" && git ls-files -z --cached --others --exclude-standard |
			tar --null -T - --ignore-failed-read -cf - 2>/dev/null) | tar -xf - -C "$src"
	else
		tar -C "$root" --exclude='./build*' --exclude=./dist -cf - . | tar -xf - -C "$src"
	fi
	awk '/^```/ { in_sh = !in_sh && $0 == "```sh"; next } in_sh' "$root/docs/cli.md" >"$tmp/build.sh"
	if (cd "$src" && DESTDIR=$dest bash -e "$tmp/build.sh") >"$tmp/build.log" 2>&1; then
		ok "docs/cli.md's build runs as written ($(grep -c . "$tmp/build.sh") lines)"
	else
		fail "docs/cli.md's build" "$(cat "$tmp/build.sh")" "$(tail -20 "$tmp/build.log")"
		return
	fi
	local installed want
	installed=$(cd "$dest" && find . -type f | sed 's|^\.||')
	want=$(sed -n "s/^default_version = '\(.*\)'$/\1/p" "$root/idtypes.control")
	[ "$installed" = /usr/local/bin/idtypes ] && [ "$("$dest/usr/local/bin/idtypes" --version)" = "idtypes $want" ] &&
		ok "it installs /usr/local/bin/idtypes alone, and it runs: idtypes $want" || fail "installed" "$installed"
	local built
	built=$(cd "$src" && find . -path ./src -prune -o -type f -perm -u+x -newer "$tmp/build.sh" -print | grep -v '/CMakeFiles/' | sort | xargs)
	[ "$built" = ./build/idtypes ] && ok "the tool alone is built: no unit tests, no benchmark" || fail "built: $built"
}

error_checks() {
	# usage errors: exit 2
	expect_error "no command" 2 "idtypes: give a command: inspect, time, gen, convert, range or adopt"
	expect_error "adopt without --to" 2 "idtypes: adopt: --to timeid or --to uuid" adopt public.orders
	expect_error "adopt: --time-column without --mapping time" 2 "idtypes: adopt: --time-column goes with --mapping time, and only with it" adopt t --to timeid --time-column at
	expect_error "unknown command" 2 'idtypes: unknown command "frob"' frob
	expect_error "unknown option" 2 "idtypes: gen: unknown option --frob" gen timeid --frob
	expect_error "option without its value" 2 "idtypes: convert: --to needs a value" convert 3kxmtyqiinc23 --to
	expect_error "option given twice" 2 "idtypes: range: --prefix given twice" range timeid --prefix 3 --prefix 4
	expect_error "gen: unknown type" 2 'idtypes: gen: unknown TYPE "ulid" (tbsl, timeid, uid11, xid, scru160 or uuid)' gen ulid
	expect_error "gen -n not a number" 2 'idtypes: gen: -n must be a whole number, 0 or more; got "ten"' gen tbsl -n ten
	expect_error "gen --machine 100" 2 'idtypes: gen: --machine must be between 0 and 99; got "100"' gen tbsl --machine 100
	expect_error "gen --clock-id 1024" 2 'idtypes: gen: --clock-id must be between 0 and 1023; got "1024"' gen timeid --clock-id 1024
	expect_error "gen --machine for timeid" 2 "idtypes: gen: --machine is for tbsl only" gen timeid --machine 1
	expect_error "convert without --to" 2 "idtypes: convert: give one or more IDs and --to FORM" convert 3kxmtyqiinc23
	expect_error "convert to a form of another format" 2 \
		'idtypes: convert: a timeid has no form "hex"; its forms: timeid, dashed' convert 3kxmtyqiinc23 --to hex
	expect_error "convert from an unknown form" 2 'idtypes: convert: unknown --from form "base64"' convert x --from base64 --to tbsl
	expect_error "range with two modes" 2 "idtypes: range: give --prefix P, or --from T1 and/or --to T2, or --at T" \
		range timeid --prefix 3 --at 2024-01-01T00:00:00Z
	expect_error "range without a mode" 2 "idtypes: range: give --prefix P, or --from T1 and/or --to T2, or --at T" range timeid
	run --help
	[ "$rc" = 0 ] && grep -q '^usage: idtypes COMMAND' <<<"$out" && ok "--help: usage on stdout, exit 0" || fail "--help" "$out"
	run range --help
	[ "$rc" = 0 ] && grep -q '^usage: idtypes COMMAND' <<<"$out" && ok "range --help" || fail "range --help" "$out"

	# invalid IDs: exit 1, the DETAIL of the SQL input function (expected/*_io.out)
	expect_error "inspect: lower-case tbsl" 1 '  tbsl: Character 3 ("b") is not in upper-case hexadecimal 0-9 A-F.' \
		inspect 25bf6196c8d6107abcde
	expect_error "inspect: tbsl payload too large" 1 \
		"  tbsl: The first 15 hex digits exceed 999999999999999999, so they cannot be read as seconds, microseconds and machine id." \
		inspect FFFFFFFFFFFFFFFFFFFF
	expect_error "inspect: timeid 65th bit" 1 \
		"  timeid: The first character must be one of 234567abcdefghij (the value has 64 bits, the text 65)." inspect zzzzzzzzzzzzz
	expect_error "inspect: timeid upper case" 1 \
		'  timeid: Character 2 ("J") is not in the base32-sortable alphabet 234567abcdefghijklmnopqrstuvwxyz (lower case).' \
		inspect 3JZFCIJPJ2Z2A
	expect_error "inspect: uid11 above 2^64-1" 1 "  uid11: The value exceeds 2^64-1 (the largest uid11 is jpXCZedGfVQ)." inspect jpXCZedGfVR
	expect_error "inspect: scru160 bad symbol" 1 \
		'  scru160: Character 32 ("W") is not in base32hex 0-9 A-V (32 characters) or hex 0-9 A-F (40 characters), either case.' \
		inspect 05TTUP1HNCPNH30VEK64KDQT9BSNU4CW
	expect_error "inspect: a space" 1 \
		'  tbsl: Byte 1 (0x20) is not in upper-case hexadecimal 0-9 A-F.' inspect " 5BF6196C8D6107ABCDE"
	expect_error "inspect: dashed timeid, a dash misplaced" 1 \
		"  timeid (dashed): Character 5 must be a dash (STTT-TTT-TTTT-CC)." inspect 3kxmt-yq-iinc-23
	run inspect abc
	[ "$rc" = 1 ] && [ -z "$out" ] && grep -qxF '  timeid: Expected 13 characters, found 3.' <<<"$err" &&
		grep -qxF '  tbsl: Expected 20 characters, found 3.' <<<"$err" && grep -qxF '  uid11: Expected 11 characters, found 3.' <<<"$err" &&
		grep -qxF '  scru160: Expected 32 base32hex or 40 hex characters, found 3.' <<<"$err" &&
		ok "inspect: a text of no format's length: every format's length rule" || fail "inspect abc" "$err"
	run inspect 3kxmtyqiinc23 nope 113q8KFkAEs
	[ "$rc" = 1 ] && [ "$(grep -c '^format: ' <<<"$out")" = 2 ] && grep -qF 'invalid ID "nope"' <<<"$err" &&
		ok "inspect: a bad ID among good ones: the others printed, exit 1" || fail "inspect mixed" "$out" "$err"
	# tbsl_from_base's DETAILs (expected/tbsl_io.out)
	expect_error "convert --from base16 ''" 1 "  tbsl (base16): The text is empty." convert '' --from base16 --to tbsl
	expect_error "convert --from base16 xyz" 1 "  tbsl (base16): Character 1 is not a digit of the base." convert xyz --from base16 --to tbsl
	expect_error "convert --from base16 2^80" 1 "  tbsl (base16): The value is 2^80 or more." \
		convert 100000000000000000000 --from base16 --to tbsl
	expect_error "convert --from base58 0" 1 "  tbsl (base58): Character 1 is not a digit of the base." convert 0 --from base58 --to tbsl
	# prefixes: the DETAIL of T_prefix_range's error (expected/*_index.out)
	expect_error "range: prefix too long" 1 \
		'idtypes: invalid input syntax for type timeid: "3kxmtyqiinc232": A prefix has at most 13 symbols, found 14.' \
		range timeid --prefix 3kxmtyqiinc232
	expect_error "range: prefix symbol" 1 \
		'idtypes: invalid input syntax for type tbsl: "25bf": Character 3 ("b") is not in upper-case hexadecimal 0-9 A-F.' \
		range tbsl --prefix 25bf
	expect_error "range: scru160 prefix symbol" 1 \
		'idtypes: invalid input syntax for type scru160: "05TW": Character 4 ("W") is not in base32hex 0-9 A-V (32 characters) or hex 0-9 A-F (40 characters), either case.' \
		range scru160 --prefix 05TW
	# times
	local t
	for t in 2024-07-19 2024-07-19T09:40:46 2024-02-30T00:00:00Z 2024-07-19T24:00:00Z 2024-07-19T09:40:46.Z \
		"2024-07-19T09:40:46Z " 2024-07-19T09:40:46+0200 24-07-19T09:40:46Z; do
		expect_error "range: not RFC 3339: '$t'" 1 \
			"idtypes: invalid time \"$t\" for --at: expected RFC 3339, e.g. 2024-07-19T09:40:46.481Z or 2024-07-19T11:40:46+02:00" \
			range timeid --at "$t"
	done
	expect_error "range: reversed window" 1 "idtypes: range lower bound must be less than or equal to range upper bound" \
		range timeid --from 2024-01-02T00:00:00Z --to 2024-01-01T00:00:00Z
	# outside a format's times: timestamp out of range, as T_min / T_max raise (22008)
	expect_error "range timeid --at before 1970" 1 \
		"idtypes: timestamp out of range for type timeid: a timeid holds times from 1970-01-01T00:00:00.000000Z to 2540-11-07T23:35:09.481983Z" \
		range timeid --at 1969-12-31T23:59:59.999999Z
	expect_error "range timeid --at after its last µs" 1 \
		"idtypes: timestamp out of range for type timeid: a timeid holds times from 1970-01-01T00:00:00.000000Z to 2540-11-07T23:35:09.481983Z" \
		range timeid --at 2540-11-07T23:35:09.481984Z
	expect_error "range uid11 --at before the xid epoch" 1 \
		"idtypes: timestamp out of range for type uid11: a uid11 holds times from 2011-11-11T11:11:11.111Z to 2151-03-25T18:46:22.214Z" \
		range uid11 --at 2011-11-11T11:11:11.110999Z
	expect_error "range tbsl --at 2286-11-20T17:46:40Z" 1 \
		"idtypes: timestamp out of range for type tbsl: a tbsl holds times from 1970-01-01T00:00:00.000000Z to 2286-11-20T17:46:39.999999Z" \
		range tbsl --at 2286-11-20T17:46:40Z
	expect_error "range scru160 --at before 1970 (five-digit last year)" 1 \
		"idtypes: timestamp out of range for type scru160: a scru160 holds times from 1970-01-01T00:00:00.000Z to 10889-08-02T05:31:50.655Z" \
		range scru160 --at 1969-12-31T23:59:59.999Z
}

case $part in
inspect) inspect_checks ;;
time) time_checks ;;
stdin) stdin_checks ;;
gen) gen_checks ;;
convert) convert_checks ;;
range) range_checks ;;
errors) error_checks ;;
version) version_checks ;;
docs) docs_checks ;;
build) build_checks ;;
*)
	echo "usage: $0 IDTYPES_BINARY inspect|time|stdin|gen|convert|range|errors|version|docs|build" >&2
	exit 2
	;;
esac
exit $status
