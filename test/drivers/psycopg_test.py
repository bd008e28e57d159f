"""Round trips of every idtypes type through psycopg 3 (Debian's python3-psycopg), as an application uses
it: text parameters and results (str, the default), the query shapes of an ID column, binary results
decoded by loaders registered by OID, and binary parameters through dumpers. Reads the IDs from the table
`samples` (samples.sql); connects with PGHOST etc. Prints `ok` / `FAIL` lines; exits 1 on a failure."""
import sys
from datetime import datetime, timezone

import psycopg
from psycopg.adapt import Dumper, Loader
from psycopg.pq import DiagnosticField, ExecStatus, Format
from psycopg.types import TypeInfo

from idcodecs import CODECS, decode, encode, missing


def adapters(codec, oid):
    """A loader for the type's binary results and a dumper sending a str subclass in binary as the type."""

    class IdBinaryLoader(Loader):
        format = Format.BINARY

        def load(self, data):
            return decode(codec, bytes(data))

    class IdBinaryDumper(Dumper):
        format = Format.BINARY

        def dump(self, obj):
            return encode(codec, obj)

    IdBinaryDumper.oid = oid
    return IdBinaryLoader, IdBinaryDumper


class RawLoader(Loader):
    format = Format.BINARY

    def load(self, data):
        return bytes(data)


failed = False


def check(name, fn):
    global failed
    try:
        print(f"ok   psycopg {name}: {fn()}", flush=True)
    except Exception as e:  # any failure is this check's, and the next checks still run
        failed = True
        print(f"FAIL psycopg {name}: {type(e).__name__}: {str(e)[:600]}", flush=True)


def same(what, got, want):
    if got != want:
        raise AssertionError(f"{what}: got {str(got)[:300]}, expected {str(want)[:300]}")


conn = psycopg.connect(autocommit=True)  # PGHOST, PGPORT, PGUSER, PGDATABASE from the environment

# Set-up: the types' OIDs differ per database, so fetch them once and register, per type, a loader for its
# binary results and a dumper for a str subclass (`timeid("3kxm...")`) to send it in binary.
oids, id_class = {}, {}
for t, codec in CODECS.items():
    oids[t] = TypeInfo.fetch(conn, t).oid
    loader, dumper = adapters(codec, oids[t])
    conn.adapters.register_loader(oids[t], loader)
    id_class[t] = type(t, (str,), {})
    conn.adapters.register_dumper(id_class[t], dumper)
print(f"ok   psycopg set-up: psycopg {psycopg.__version__}, OIDs {oids}, binary loaders and dumpers registered")

for t, codec in CODECS.items():
    samples = conn.execute('SELECT id, hex, value FROM samples WHERE type = %s ORDER BY id COLLATE "C"', [t]).fetchall()
    ids = [s[0] for s in samples]
    table, ordered = f"py_{t}", sorted(ids)
    conn.execute(f"CREATE TABLE {table} (id {t} PRIMARY KEY, n int)")

    def insert_select():
        if len(ids) < 150:
            raise AssertionError(f"only {len(ids)} samples")
        with conn.cursor() as cur:
            cur.executemany(f"INSERT INTO {table} VALUES (%s, %s)", [(id, n) for n, id in enumerate(ids)])
        rows = conn.execute(f"SELECT id, n FROM {table} ORDER BY n").fetchall()
        if not all(type(r[0]) is str for r in rows):
            raise AssertionError("ids not read as str")
        same("rows", [r[0] for r in rows], ids)
        return f"{len(rows)} IDs back as the same strings"

    def where_eq():
        for n, id in enumerate(ids):
            same(id, conn.execute(f"SELECT n FROM {table} WHERE id = %s", [id]).fetchall(), [(n,)])
        return f"{len(ids)} lookups, each its one row"

    def any_list():
        want = ids[::7]
        rows = conn.execute(f"SELECT id FROM {table} WHERE id = ANY(%s) ORDER BY id", [want + [missing(codec)]]).fetchall()
        same("rows", [r[0] for r in rows], sorted(want))
        return f"{len(rows)} of {len(want) + 1} IDs asked (one absent) found"

    def column_default():
        conn.execute(f"CREATE TABLE {table}_default (id {t} PRIMARY KEY DEFAULT {t}_generate(), n int)")
        for n in (1, 2, 3):
            id = conn.execute(f"INSERT INTO {table}_default (n) VALUES (%s) RETURNING id", [n]).fetchone()[0]
            same(f"the DEFAULT's {id}", conn.execute(f"SELECT n FROM {table}_default WHERE id = %s", [id]).fetchall(), [(n,)])
            same("its width", len(id), codec["width"])
        return f"3 IDs from {t}_generate() read as str and found again by id = %s, e.g. {id}"

    def prefix():
        mid, counts = ids[75], []
        for p in [mid[:k] for k in (0, 1, 2, 3, 4, 6, codec["width"])]:
            rows = conn.execute(f"SELECT id FROM {table} WHERE id ^@ %s ORDER BY id", [p]).fetchall()
            same(f"prefix {p!r}", [r[0] for r in rows], [id for id in ordered if id.startswith(p)])
            counts.append(len(rows))
        return f"prefixes of {mid} match {', '.join(map(str, counts))} rows, as startswith says"

    def window():
        w = [datetime(2024, 1, 2, tzinfo=timezone.utc), datetime(2024, 1, 3, tzinfo=timezone.utc)]
        got = conn.execute(f"SELECT id FROM {table} WHERE id <@ tstzrange(%s, %s) ORDER BY id", w).fetchall()
        want = conn.execute(
            f"SELECT id FROM {table} WHERE id::timestamptz >= %s AND id::timestamptz < %s ORDER BY id", w
        ).fetchall()
        same("window", got, want)
        if not 0 < len(got) < len(ids):
            raise AssertionError(f"{len(got)} rows")
        return f"{len(got)} of {len(ids)} IDs in a one-day window of datetime parameters"

    def keyset():
        seen = []
        page, pages = conn.execute(f"SELECT id FROM {table} ORDER BY id LIMIT 10").fetchall(), 1
        while page:
            seen += [r[0] for r in page]
            page = conn.execute(f"SELECT id FROM {table} WHERE id > %s ORDER BY id LIMIT 10", [seen[-1]]).fetchall()
            pages += 1
        same("pages", seen, ordered)
        return f"{pages} pages of 10 walk all {len(seen)} IDs once, in text order"

    def binary_results():
        text = [r[0] for r in conn.execute(f"SELECT id FROM {table} ORDER BY id")]
        with conn.cursor(binary=True) as cur:
            got = [r[0] for r in cur.execute(f"SELECT id FROM {table} ORDER BY id")]
            if cur.pgresult.fformat(0) != Format.BINARY:
                raise AssertionError("results not in binary")
        same("decoded binary vs text", got, text)
        with conn.cursor(binary=True) as cur:
            cur.adapters.register_loader(oids[t], RawLoader)  # this cursor only: the bytes as sent
            raw = [r[0] for r in cur.execute(f"SELECT id FROM {table} ORDER BY id")]
        same("bytes vs the server's id::bytea", [b.hex() for b in raw], [s[1] for s in samples])
        same("values vs the server's reading", [int.from_bytes(b, "big") for b in raw], [int(s[2]) for s in samples])
        return f"{len(got)} IDs of {codec['bytes']} bytes decode to the text results, bytes and values as the server reads them"

    def binary_parameters():
        conn.execute(f"CREATE TABLE {table}_bin (id {t}, n int)")
        cls = id_class[t]
        with conn.cursor() as cur:
            cur.executemany(f"INSERT INTO {table}_bin VALUES (%b, %s)", [(cls(id), n) for n, id in enumerate(ids)])
        for n, id in enumerate(ids):
            same(id, conn.execute(f"SELECT n FROM {table} WHERE id = %b", [cls(id)]).fetchall(), [(n,)])
        same("rows", [r[0] for r in conn.execute(f"SELECT id FROM {table}_bin ORDER BY n")], ids)
        # a value of the wrong length, sent in binary with the type's OID through libpq directly
        res = conn.pgconn.exec_params(b"SELECT $1", [bytes(codec["bytes"] - 1)], [oids[t]], [Format.BINARY])
        same(f"{codec['bytes'] - 1} bytes", (res.status, res.error_field(DiagnosticField.SQLSTATE)),
             (ExecStatus.FATAL_ERROR, b"22P03"))
        return f"{len(ids)} IDs sent by a binary dumper, inserted and looked up; {codec['bytes'] - 1} bytes refused (22P03)"

    check(f"{t} insert and select with text parameters", insert_select)
    check(f"{t} WHERE id = $1", where_eq)
    check(f"{t} id = ANY($1) with a list", any_list)
    check(f"{t} insert with the column DEFAULT", column_default)
    check(f"{t} id ^@ $1", prefix)
    check(f"{t} id <@ tstzrange($1, $2)", window)
    check(f"{t} keyset pagination", keyset)
    check(f"{t} binary results", binary_results)
    check(f"{t} binary parameters", binary_parameters)

conn.close()
sys.exit(1 if failed else 0)
