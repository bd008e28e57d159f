"""Every idtypes type as a column of a SQLAlchemy 1.4 ORM model (Debian's python3-sqlalchemy, over
python3-psycopg2), through the ORM's query API only: a UserDefinedType naming the type, whose comparator
adds `.has_prefix(p)` (`^@`) and `.within(start, end)` (`<@ tstzrange`); the primary key's
server_default=text('T_generate()') in the table create_all makes; inserts with and without an ID, `= ANY`
of a list cast to the array type, keyset pagination. Reads the IDs from the table `samples` (samples.sql);
connects with PGHOST etc. Prints `ok` / `FAIL` lines; exits 1 on a failure."""
import sys

from sqlalchemy import Boolean, Column, Integer, any_, cast, create_engine, func, select, text
from sqlalchemy.dialects.postgresql import ARRAY
from sqlalchemy.exc import ProgrammingError
from sqlalchemy.orm import Session, declarative_base
from sqlalchemy.types import UserDefinedType

from idcodecs import CODECS, WINDOW, Checks, missing, prefixes, same


class IdType(UserDefinedType):
    """An idtypes column (IdType("timeid"), ...). psycopg2 sends a str as a quoted literal, which the server
    reads as the column's type, and returns the type's text as str: no bind or result processing."""

    cache_ok = True

    def __init__(self, name):
        self.name = name

    def get_col_spec(self, **kw):
        return self.name

    class comparator_factory(UserDefinedType.Comparator):
        def has_prefix(self, prefix):
            return self.op("^@", return_type=Boolean)(prefix)

        def within(self, start, end):
            return self.op("<@", return_type=Boolean)(func.tstzrange(start, end))


Base = declarative_base()


def row_model(t):
    return type(f"{t.capitalize()}Row", (Base,), {
        "__tablename__": f"sa_{t}",
        "id": Column(IdType(t), primary_key=True, server_default=text(f"{t}_generate()")),
        "n": Column(Integer, nullable=False),
    })


ROWS = {t: row_model(t) for t in CODECS}
check = Checks("sqlalchemy")
engine = create_engine("postgresql+psycopg2://", future=True)  # libpq's PGHOST, PGPORT, PGUSER, PGDATABASE


def ids_of(session, query):
    return list(session.scalars(query))


def round_of(session, t, codec):
    Row = ROWS[t]
    ids = list(session.scalars(text('SELECT id FROM samples WHERE type = :t ORDER BY id COLLATE "C"'), {"t": t}))
    all_ids = list(ids)  # the samples and the IDs the DEFAULT made

    def insert_read():
        if len(ids) < 150:
            raise AssertionError(f"only {len(ids)} samples")
        session.add_all(Row(id=id, n=n) for n, id in enumerate(ids))
        session.flush()
        same("rows", ids_of(session, select(Row.id).order_by(Row.n)), ids)
        session.expunge_all()  # session.get below then asks the server, not the identity map
        for n, id in enumerate(ids):
            same(id, session.get(Row, id).n, n)
        for n in range(1000, 1003):
            row = Row(n=n)
            session.add(row)
            session.flush()  # the INSERT leaves id out; RETURNING brings the server_default's ID back
            same(f"the DEFAULT's {row.id!r} looked up", session.scalar(select(Row.n).where(Row.id == row.id)), n)
            same("its width", len(row.id), codec["width"])
            all_ids.append(row.id)
        session.expunge_all()
        return f"{len(ids)} str IDs added, read back and got by primary key; 3 from server_default, e.g. {all_ids[-1]}"

    def any_list():
        want = ids[::7]
        asked = cast(want + [missing(codec)], ARRAY(IdType(t)))
        got = ids_of(session, select(Row.id).where(Row.id == any_(asked)).order_by(Row.id))
        same("rows", got, sorted(want))
        try:  # without the cast, psycopg2 sends the list as ARRAY['...'], a text[]
            with session.begin_nested():
                session.execute(select(Row.id).where(Row.id == any_(want)))
            raise AssertionError("a plain list was taken")
        except ProgrammingError as e:
            if "operator does not exist" not in str(e):
                raise
        return (f"{len(got)} of {len(want) + 1} IDs asked (one absent) found: Row.id == any_(cast(list, ARRAY(IdType)));"
                f" a plain list is refused (operator does not exist: {t} = text)")

    def prefix():
        counts = []
        for p in prefixes(codec, ids[75]):
            query = select(Row.id).where(Row.id.has_prefix(p)).order_by(Row.id)
            same(f"prefix {p!r}", ids_of(session, query), [id for id in sorted(all_ids) if id.startswith(p)])
            counts.append(sum(id.startswith(p) for id in all_ids))
        if "^@" not in str(query):
            raise AssertionError(f"no ^@ in {query}")
        return f"Row.id.has_prefix(p) (^@): prefixes of {ids[75]} match {', '.join(map(str, counts))} rows, as startswith says"

    def window():
        query = select(Row.id).where(Row.id.within(*WINDOW)).order_by(Row.id)
        got = ids_of(session, query)
        want = list(session.scalars(
            text(f"SELECT id FROM sa_{t} WHERE id::timestamptz >= :lo AND id::timestamptz < :hi ORDER BY id"),
            dict(zip(("lo", "hi"), WINDOW))))
        same("window", got, want)
        if not 0 < len(got) < len(ids) or "<@ tstzrange" not in str(query):
            raise AssertionError(f"{len(got)} rows, {query}")
        return f"Row.id.within(start, end) (<@ tstzrange): {len(got)} of {len(all_ids)} IDs in a one-day window of datetimes"

    def keyset():
        seen, pages = [], 1
        page = ids_of(session, select(Row.id).order_by(Row.id).limit(10))
        while page:
            seen += page
            page = ids_of(session, select(Row.id).where(Row.id > seen[-1]).order_by(Row.id).limit(10))
            pages += 1
        same("pages", seen, sorted(all_ids))
        return f"{pages} pages of 10 walk all {len(seen)} IDs once, in text order"

    def in_savepoint(fn):  # a failing check rolls back to here, and the next ones still run
        def run():
            with session.begin_nested():
                return fn()
        return run

    check(f"{t} insert with server_default and with an ID, read back", in_savepoint(insert_read))
    check(f"{t} id = ANY(array parameter)", in_savepoint(any_list))
    check(f"{t} id ^@ parameter", in_savepoint(prefix))
    check(f"{t} id <@ tstzrange(start, end)", in_savepoint(window))
    check(f"{t} keyset pagination", in_savepoint(keyset))


def main():
    import sqlalchemy

    Base.metadata.create_all(engine)
    with engine.connect() as conn:
        defaults = dict(conn.execute(text(
            "SELECT table_name, column_default FROM information_schema.columns"
            " WHERE table_name LIKE 'sa\\_%' AND column_name = 'id'")).all())
    check("set-up", lambda: (same("server defaults", defaults, {f"sa_{t}": f"{t}_generate()" for t in CODECS}),
                             f"SQLAlchemy {sqlalchemy.__version__}: create_all made {sorted(defaults)} with their DEFAULTs")[1])
    with Session(engine, future=True) as session, session.begin():
        for t, codec in CODECS.items():
            round_of(session, t, codec)


main()
sys.exit(1 if check.failed else 0)
