"""Round trips of every idtypes type through asyncpg (Debian's python3-asyncpg), as an application uses it.
Text round (no set-up): asyncpg reads and sends a type it has no codec for as text, so IDs are str both
ways; the column DEFAULT, `= ANY($1)` with a list, `^@`, `<@ tstzrange($1, $2)` from datetimes, keyset
pagination. Binary round: a codec per type registered with set_type_codec(format='binary'), so results
come in binary, parameters (arrays too) go in binary. Reads the IDs from the table `samples`
(samples.sql); connects with PGHOST etc. `asyncpg_round.py binary` runs the binary round only.
Prints `ok` / `FAIL` lines; exits 1 on a failure."""
import asyncio
import sys

import asyncpg

from idcodecs import CODECS, WINDOW, Checks, decode, encode, missing, prefixes, same

check = Checks("asyncpg")


async def samples(conn, t):
    rows = await conn.fetch('SELECT id, hex, value::text FROM samples WHERE type = $1 ORDER BY id COLLATE "C"', t)
    if len(rows) < 150:
        raise AssertionError(f"only {len(rows)} samples")
    return rows, [r["id"] for r in rows]


async def column(conn, sql, *args):
    return [r[0] for r in await conn.fetch(sql, *args)]


async def text_round(conn, t, codec):
    _, ids = await samples(conn, t)
    table, all_ids = f"apg_{t}", list(ids)  # all_ids: the samples and the IDs the DEFAULT made
    await conn.execute(f"CREATE TABLE {table} (id {t} PRIMARY KEY DEFAULT {t}_generate(), n int)")

    async def insert_read():
        await conn.executemany(f"INSERT INTO {table} VALUES ($1, $2)", [(id, n) for n, id in enumerate(ids)])
        got = await column(conn, f"SELECT id FROM {table} ORDER BY n")
        if not all(type(id) is str for id in got):
            raise AssertionError("ids not read as str")
        same("rows", got, ids)
        for n, id in enumerate(ids):
            same(id, await conn.fetchval(f"SELECT n FROM {table} WHERE id = $1", id), n)
        for n in range(1000, 1003):
            id = await conn.fetchval(f"INSERT INTO {table} (n) VALUES ($1) RETURNING id", n)
            same(f"the DEFAULT's {id!r} looked up", await conn.fetchval(f"SELECT n FROM {table} WHERE id = $1", id), n)
            all_ids.append(id)
        return f"{len(ids)} str IDs inserted, read back and looked up by id = $1; 3 from the DEFAULT, e.g. {all_ids[-1]}"

    async def any_list():
        want = ids[::7]
        got = await column(conn, f"SELECT id FROM {table} WHERE id = ANY($1) ORDER BY id", want + [missing(codec)])
        same("rows", got, sorted(want))
        return f"{len(got)} of {len(want) + 1} IDs asked (one absent) found"

    async def prefix():
        counts = []
        for p in prefixes(codec, ids[75]):
            got = await column(conn, f"SELECT id FROM {table} WHERE id ^@ $1 ORDER BY id", p)
            same(f"prefix {p!r}", got, [id for id in sorted(all_ids) if id.startswith(p)])
            counts.append(len(got))
        return f"prefixes of {ids[75]} match {', '.join(map(str, counts))} rows, as startswith says"

    async def window():
        got = await column(conn, f"SELECT id FROM {table} WHERE id <@ tstzrange($1, $2) ORDER BY id", *WINDOW)
        want = await column(
            conn, f"SELECT id FROM {table} WHERE id::timestamptz >= $1 AND id::timestamptz < $2 ORDER BY id", *WINDOW
        )
        same("window", got, want)
        if not 0 < len(got) < len(ids):
            raise AssertionError(f"{len(got)} rows")
        return f"{len(got)} of {len(all_ids)} IDs in a one-day window of datetime parameters"

    async def keyset():
        seen, pages = [], 1
        page = await column(conn, f"SELECT id FROM {table} ORDER BY id LIMIT 10")
        while page:
            seen += page
            page = await column(conn, f"SELECT id FROM {table} WHERE id > $1 ORDER BY id LIMIT 10", seen[-1])
            pages += 1
        same("pages", seen, sorted(all_ids))
        return f"{pages} pages of 10 walk all {len(seen)} IDs once, in text order"

    await check.run_async(f"{t} insert with the column DEFAULT and with parameters, read back", insert_read)
    await check.run_async(f"{t} id = ANY($1) with a list", any_list)
    await check.run_async(f"{t} id ^@ $1", prefix)
    await check.run_async(f"{t} id <@ tstzrange($1, $2)", window)
    await check.run_async(f"{t} keyset pagination", keyset)


class Counting:
    """A type's binary codec for set_type_codec, keeping what went through it (to show binary was used)."""

    def __init__(self, codec):
        self.codec, self.sent, self.received = codec, 0, []

    def encoder(self, value):
        self.sent += 1
        return value if isinstance(value, bytes) else encode(self.codec, value)

    def decoder(self, data):
        self.received.append(bytes(data))
        return decode(self.codec, data)


async def binary_round(conn, t, codec, counting):
    rows, ids = await samples(conn, t)
    table = f"apg_{t}_bin"
    await conn.execute(f"CREATE TABLE {table} (id {t} PRIMARY KEY DEFAULT {t}_generate(), n int)")

    async def parameters():
        before = counting.sent
        await conn.executemany(f"INSERT INTO {table} VALUES ($1, $2)", [(id, n) for n, id in enumerate(ids)])
        for n, id in enumerate(ids):
            same(id, await conn.fetchval(f"SELECT n FROM {table} WHERE id = $1", id), n)
        same("IDs through the encoder", counting.sent - before, 2 * len(ids))
        want, before = [ids[3], ids[30], ids[90]], counting.sent
        counting.received.clear()
        got = await column(conn, f"SELECT id FROM {table} WHERE id = ANY($1) ORDER BY id", want + [missing(codec)])
        same("= ANY", got, sorted(want))
        same("array elements through the encoder", counting.sent - before, len(want) + 1)
        # bytes given to the encoder go as they are: one byte short, the server's recv function refuses them
        try:
            await conn.fetchval(f"SELECT $1::{t}", bytes(codec["bytes"] - 1))
            raise AssertionError(f"{codec['bytes'] - 1} bytes accepted")
        except asyncpg.PostgresError as e:
            same(f"{codec['bytes'] - 1} bytes", e.sqlstate, "22P03")
        return (f"{len(ids)} IDs inserted and looked up through the binary encoder, = ANY of a binary array; "
                f"{codec['bytes'] - 1} bytes refused (22P03)")

    async def results():
        counting.received.clear()
        got = await column(conn, f"SELECT id FROM {table} ORDER BY n")
        same("decoded", got, ids)
        same("bytes vs the server's id::bytea", [b.hex() for b in counting.received], [r["hex"] for r in rows])
        same("values vs the server's reading", [int.from_bytes(b, "big") for b in counting.received],
             [int(r["value"]) for r in rows])
        generated = await conn.fetchval(f"INSERT INTO {table} (n) VALUES (-1) RETURNING id")
        same("the DEFAULT's ID, binary vs text", generated, await conn.fetchval(f"SELECT id::text FROM {table} WHERE n = -1"))
        return (f"{len(got)} IDs of {codec['bytes']} bytes, as the server's id::bytea, decode to their text; "
                f"the DEFAULT's {generated} too")

    await check.run_async(f"{t} binary parameters", parameters)
    await check.run_async(f"{t} binary results", results)


async def main(binary_only):
    text = await asyncpg.connect()  # PGHOST, PGPORT, PGUSER, PGDATABASE from the environment
    binary = await asyncpg.connect()
    counting = {}
    for t, codec in CODECS.items():
        counting[t] = Counting(codec)
        await binary.set_type_codec(t, schema="public", format="binary",
                                    encoder=counting[t].encoder, decoder=counting[t].decoder)
    check.line(True, "set-up", f"asyncpg {asyncpg.__version__}; a second connection has binary codecs registered")
    for t, codec in CODECS.items():
        if not binary_only:
            await text_round(text, t, codec)
        await binary_round(binary, t, codec, counting[t])
    await text.close()
    await binary.close()


asyncio.run(main(sys.argv[1:] == ["binary"]))
sys.exit(1 if check.failed else 0)
