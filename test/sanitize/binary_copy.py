#!/usr/bin/env python3
"""Binary COPY of random payloads into every type, against a running cluster (PGHOST etc. set) with idtypes
installable: the binary receive functions behind `COPY ... FROM (FORMAT binary)`, reached directly (a column
of the type), as array elements (array_recv) and as range bounds (range_recv).

Seeded (IDTYPES_COPY_SEED, default below), so a failure is reproducible; prints one `ok` / `FAIL` line per
check. In a database of its own, for each type:

- valid payloads, batched in one COPY (IDTYPES_COPY_VALID rows: values including edge values and NULLs,
  arrays of them, ranges of them, empty and unbounded ranges): every row loads, `COPY ... TO (FORMAT binary)`
  sends back exactly the bytes received, and every value prints as text that reads back as the same value;
- random cases, one COPY each (IDTYPES_COPY_CASES per type), in one psql session: payloads of random bytes
  and lengths (0, 1, 7, 8, 9, 10, 11, 19, 20, 21, 100, 1000, 70000, the type's own), NULL, field lengths
  that run past the end of the data, negative lengths; arrays and ranges of such payloads. The outcome must
  be the one the format's rules predict: a valid payload loads (and is sent back byte for byte), anything
  else fails with an error of SQLSTATE class 22, naming the type when the type's input function saw it.
  Never a lost connection, an internal error or another class.
"""

import os
import random
import re
import shutil
import struct
import subprocess
import sys
import tempfile

SEED = int(os.environ.get("IDTYPES_COPY_SEED", "1313"))
VALID_ROWS = int(os.environ.get("IDTYPES_COPY_VALID", "3000"))
CASES = int(os.environ.get("IDTYPES_COPY_CASES", "1500"))
SIZES = {"timeid": 8, "uid11": 8, "tbsl": 10, "scru160": 20}
TBSL_MAX_PAYLOAD = 999999999999999999  # the first 60 bits of a TBSL, read as a number, at most this
LENGTHS = [0, 1, 7, 8, 9, 10, 11, 19, 20, 21, 100, 1000, 70000]
SIGNATURE = b"PGCOPY\n\377\r\n\0"
ERROR = re.compile(r"(?:psql:[^:]*:\d+: )?ERROR:  ([0-9A-Z]{5}): (.*)")  # with VERBOSITY verbose
RANGE_EMPTY, LB_INC, UB_INC, LB_INF, UB_INF = 0x01, 0x02, 0x04, 0x08, 0x10

rng = random.Random(SEED)
status = 0
work = tempfile.mkdtemp(prefix="idtypes-copy.")
database = f"idtypes_binary_copy_{os.getpid()}"


def ok(message):
    print(f"ok   {message}", flush=True)


def fail(message):
    global status
    status = 1
    print(f"FAIL {message}", flush=True)


def psql(*args, database=database, stdin=None, errors=False):
    """psql's standard output (errors=True: its standard error); raises if psql itself fails (as after a lost
    connection) or, unless errors=True, if a statement fails."""
    env = dict(os.environ, PGOPTIONS="-c client_min_messages=warning")
    stop = [] if errors else ["-v", "ON_ERROR_STOP=1"]
    done = subprocess.run(["psql", "-X", "-q", "-At", *stop, "-d", database, *args], input=stdin, env=env,
                          capture_output=True, text=True, errors="replace")
    if done.returncode != 0:
        raise RuntimeError(f"psql exited with {done.returncode}: {(done.stdout + done.stderr)[-2000:]}")
    return done.stderr if errors else done.stdout


# Payloads and what the format says of them.

def is_valid(type_name, data):
    if len(data) != SIZES[type_name]:
        return False
    if type_name == "tbsl":  # its binary input accepts only a payload of at most 18 decimal digits
        return int.from_bytes(data[:8], "big") >> 4 <= TBSL_MAX_PAYLOAD
    return True  # every 8-byte timeid and uid11, every 20-byte scru160


def valid_payload(type_name):
    pick = rng.random()
    if type_name == "tbsl":
        payload = (TBSL_MAX_PAYLOAD if pick < 0.05 else 0 if pick < 0.1 else rng.randrange(TBSL_MAX_PAYLOAD + 1))
        return ((payload << 20) | rng.randrange(1 << 20)).to_bytes(10, "big")
    size = SIZES[type_name]
    return b"\0" * size if pick < 0.05 else b"\xff" * size if pick < 0.1 else rng.randbytes(size)


def random_payload(type_name):
    pick = rng.random()
    if pick < 0.3:  # the type's own length: its format's check decides
        return rng.randbytes(SIZES[type_name])
    if pick < 0.35 and type_name == "tbsl":  # just above the largest payload
        return (((TBSL_MAX_PAYLOAD + 1) << 20) | rng.randrange(1 << 20)).to_bytes(10, "big")
    if pick < 0.4:
        return valid_payload(type_name)
    return rng.randbytes(rng.choice(LENGTHS))


# The binary COPY format: signature, flags, header extension; tuples of int16 field count and int32
# length-prefixed fields (-1: NULL); int16 -1 at the end.

def field(data):
    return struct.pack("!i", -1) if data is None else struct.pack("!i", len(data)) + data


def array(element_oid, elements):
    """What array_send sends for a one-dimensional array (lower bound 1) of these elements (None: NULL)."""
    if not elements:
        return struct.pack("!iiI", 0, 0, element_oid)
    head = struct.pack("!iiIii", 1, int(None in elements), element_oid, len(elements), 1)
    return head + b"".join(field(e) for e in elements)


def range_value(flags, lower=None, upper=None):
    return bytes([flags]) + (b"" if lower is None else field(lower)) + (b"" if upper is None else field(upper))


def copy_file(path, rows, complete=True):
    """rows: lists of encoded fields. complete=False: the last row lacks its last fields (it declares 4) and
    the trailer is missing, as when a field's length runs past the end of the data."""
    data = SIGNATURE + struct.pack("!ii", 0, 0)
    for row in rows:
        data += struct.pack("!h", len(row) if complete else 4) + b"".join(row)
    with open(path, "wb") as f:
        f.write(data + (struct.pack("!h", -1) if complete else b""))


def read_copy(path):
    """The tuples of a binary COPY file, as lists of field bytes (None: NULL)."""
    with open(path, "rb") as f:
        data = f.read()
    assert data.startswith(SIGNATURE), "not a binary COPY file"
    pos = len(SIGNATURE) + 4
    (extension,) = struct.unpack_from("!i", data, pos)
    pos += 4 + extension
    rows = []
    while True:
        (count,) = struct.unpack_from("!h", data, pos)
        pos += 2
        if count == -1:
            return rows
        row = []
        for _ in range(count):
            (length,) = struct.unpack_from("!i", data, pos)
            pos += 4
            row.append(None if length == -1 else data[pos:pos + length])
            pos += max(length, 0)
        rows.append(row)


# Valid rows, all in one COPY.

def valid_rows(type_name, oid, first_id):
    rows = {}
    for n in range(VALID_ROWS):
        value = None if rng.random() < 0.05 else valid_payload(type_name)
        elements = [None if rng.random() < 0.1 else valid_payload(type_name) for _ in range(rng.randrange(4))]
        a, b = sorted([valid_payload(type_name), valid_payload(type_name)])
        shape = rng.random()
        if shape < 0.05:
            r = range_value(RANGE_EMPTY)
        elif shape < 0.1:
            r = range_value(LB_INF, upper=b)  # (,b)
        elif shape < 0.15:
            r = range_value(LB_INC | UB_INF, lower=a)  # [a,)
        else:  # [a,b), or [a,a] when equal (an empty [a,a) would be sent back as empty)
            r = range_value(LB_INC | (UB_INC if a == b else 0), a, b)
        rows[first_id + n] = [value, array(oid, elements), r]
    return rows


# One random case: (its fields as encoded in the file, whether the file is complete, the expected outcome,
# the values then sent back). Outcomes: "loads"; "type" (an error of class 22 naming the type); "class 22"
# (an error of COPY's own framing or of the order of a range's bounds: the type's input never sees those).

def loads(valid):
    return "loads" if valid else "type"


def random_case(type_name, oid):
    pick = rng.random()
    if pick < 0.5:
        data = random_payload(type_name)
        return [field(data), field(None), field(None)], True, loads(is_valid(type_name, data)), [data, None, None]
    if pick < 0.53:
        return [field(None)] * 3, True, "loads", [None] * 3
    if pick < 0.6:  # a field length past the end of the data: the file ends there
        data = rng.randbytes(rng.choice(LENGTHS))
        declared = len(data) + rng.choice([1, 2, 8, 1000, 100000])
        return [struct.pack("!i", declared) + data], False, "class 22", None
    if pick < 0.65:  # a negative length other than -1 (NULL)
        return [struct.pack("!i", rng.choice([-2, -1000, -2**31]))] + [field(None)] * 2, True, "class 22", None
    if pick < 0.85:
        elements = [None if rng.random() < 0.1 else random_payload(type_name) for _ in range(1 + rng.randrange(3))]
        value = array(oid, elements)
        valid = all(e is None or is_valid(type_name, e) for e in elements)
        return [field(None), field(value), field(None)], True, loads(valid), [None, value, None]
    lower, upper = random_payload(type_name), random_payload(type_name)
    value = range_value(LB_INC | (UB_INC if lower == upper else 0), lower, upper)
    fields = [field(None), field(None), field(value)]
    if not (is_valid(type_name, lower) and is_valid(type_name, upper)):
        return fields, True, "type", None
    # bytes compare as the types do (big-endian, unsigned): a lower bound above the upper one is refused
    return fields, True, "class 22" if lower > upper else "loads", [None, None, value]


def check_type(type_name):
    table = f"copy_{type_name}"
    psql("-c", f"CREATE TABLE {table} (id int PRIMARY KEY, v {type_name}, a {type_name}[], r {type_name}range)")
    oid = int(psql("-c", f"SELECT '{type_name}'::regtype::oid"))

    # valid rows, batched
    expected = valid_rows(type_name, oid, 1)
    path = os.path.join(work, f"{table}-valid.bin")
    copy_file(path, [[field(struct.pack("!i", i))] + [field(f) for f in row] for i, row in expected.items()])
    out = psql("-c", f"\\copy {table} FROM '{path}' (FORMAT binary)", "-c", f"SELECT count(*) FROM {table}")
    if out.strip() == str(len(expected)):
        ok(f"binary COPY {type_name}: {len(expected)} valid rows (values, arrays, ranges, NULLs) loaded in one COPY")
    else:
        fail(f"binary COPY {type_name}: {len(expected)} valid rows did not load: {out[-500:]}")
    bad = psql("-c", f"SELECT count(*) FROM {table} WHERE v::text::{type_name} IS DISTINCT FROM v"
               f" OR a::text::{type_name}[] IS DISTINCT FROM a OR r::text::{type_name}range IS DISTINCT FROM r")
    if bad.strip() == "0":
        ok(f"binary COPY {type_name}: every value loaded prints as text that reads back as the same value")
    else:
        fail(f"binary COPY {type_name}: {bad.strip()} rows do not read back from their text")

    # random cases, one COPY each, all in one psql session
    script, cases = [], {}
    first = len(expected) + 1
    for n in range(CASES):
        i = first + n
        fields, complete, outcome, values = random_case(type_name, oid)
        path = os.path.join(work, f"{table}-{i}.bin")
        copy_file(path, [[field(struct.pack("!i", i))] + fields], complete)
        cases[i] = (outcome, values)
        # \warn writes to standard error, where psql reports errors: each case's errors follow its marker
        script.append(f"\\warn @@ {i}\n\\copy {table} FROM '{path}' (FORMAT binary)")
    script.append("\\warn @@ end")
    try:
        out = psql("-v", "VERBOSITY=verbose", stdin="\n".join(script) + "\n", errors=True)
    except RuntimeError as e:
        fail(f"binary COPY {type_name}: the session running the random cases ended: {e}")
        return
    results, case = {}, None
    for line in out.splitlines():
        if line.startswith("@@ "):
            case = line[3:]
            results[case] = ("00000", "")
        elif case is not None and results[case][0] == "00000" and ERROR.match(line):
            results[case] = ERROR.match(line).groups()
        elif case is not None and results[case][0] == "00000" and line.strip():
            results[case] = ("(no error code)", line)
    if "end" not in results:
        fail(f"binary COPY {type_name}: the session running the random cases did not finish: {out[-500:]}")
    problems, loaded, rejected = [], 0, 0
    for i, (outcome, values) in cases.items():
        sqlstate, message = results.get(str(i), ("(none)", "no result"))
        if outcome == "loads":
            if sqlstate == "00000":
                loaded += 1
                expected[i] = values
            else:
                problems.append(f"case {i}: expected to load, got {sqlstate} {message}")
        elif sqlstate == "00000":
            problems.append(f"case {i}: loaded, expected an error ({outcome})")
        elif not sqlstate.startswith("22"):
            problems.append(f"case {i}: SQLSTATE {sqlstate}: {message}")
        elif outcome == "type" and (sqlstate != "22P03" or type_name not in message):
            problems.append(f"case {i}: an error without the type or not 22P03: {sqlstate} {message}")
        else:
            rejected += 1
    if problems:
        fail(f"binary COPY {type_name}: {len(problems)} of {CASES} random cases (seed {SEED}) broke the rules:")
        for p in problems[:8]:
            print(f"     {p}")
    else:
        ok(f"binary COPY {type_name}: {CASES} random cases (seed {SEED}): {loaded} valid ones loaded, "
           f"{rejected} rejected with SQLSTATE class 22 (22P03 naming {type_name} where its input saw them)")

    # everything loaded is sent back byte for byte
    path = os.path.join(work, f"{table}-out.bin")
    psql("-c", f"\\copy (SELECT id, v, a, r FROM {table} ORDER BY id) TO '{path}' (FORMAT binary)")
    sent = {struct.unpack("!i", row[0])[0]: row[1:] for row in read_copy(path)}
    differ = [i for i in expected if sent.get(i) != expected[i]] + [i for i in sent if i not in expected]
    if differ:
        fail(f"binary COPY {type_name}: {len(differ)} rows not sent back as received, e.g. row {differ[0]}: "
             f"received {expected.get(differ[0])}, sent {sent.get(differ[0])}")
    else:
        ok(f"binary COPY {type_name}: all {len(sent)} rows loaded are sent back by COPY TO (FORMAT binary) "
           f"byte for byte")


def main():
    try:
        psql("-c", f"CREATE DATABASE {database}", database="postgres")
        psql("-c", "CREATE EXTENSION idtypes")
        for type_name in SIZES:
            check_type(type_name)
    except RuntimeError as e:
        fail(f"binary COPY: {e}")
    finally:
        try:
            psql("-c", f"DROP DATABASE IF EXISTS {database}", database="postgres")
        except RuntimeError as e:
            fail(f"binary COPY: dropping {database}: {e}")
        shutil.rmtree(work, ignore_errors=True)
    return status


if __name__ == "__main__":
    sys.exit(main())
