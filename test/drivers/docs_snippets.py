"""The Python snippets of docs/clients.md as the page shows them: each ```python block after a line
`<!-- run by test/drivers/docs_snippets.py ... -->` runs, in page order, in one namespace (a later block uses
an earlier one's IdType, Base and engine), given what the page says it is given (start, end, last_id, ids).
SQLAlchemy 1.4's block makes its table and queries it; Alembic's block's upgrade() runs through Alembic's
operations, autogenerate's comparison (compare_type on, as Alembic 1.12 and later do) then finds nothing to
change, without a warning (reflection knows the types), and downgrade() undoes it. Connects with PGHOST etc. Prints `ok` / `FAIL` lines; exits 1 on a failure."""
import datetime
import os
import re
import sys
import traceback
import warnings

PAGE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "docs", "clients.md")
MARK = "<!-- run by test/drivers/docs_snippets.py"


def snippets():
    """The marked ```python blocks of the page, with their line numbers."""
    lines = open(PAGE, encoding="utf-8").read().split("\n")
    out = []
    for i, line in enumerate(lines):
        if line.startswith(MARK) and i + 1 < len(lines) and lines[i + 1].strip() == "```python":
            end = next(j for j in range(i + 2, len(lines)) if lines[j].strip() == "```")
            out.append((i + 2, "\n".join(lines[i + 2:end])))
    return out


def main():
    failed = False
    now = datetime.datetime.now(datetime.timezone.utc)
    given = {"start": now - datetime.timedelta(hours=1), "end": now, "last_id": "2222222222222",
             "ids": ["3kxmtyqiinc23", "3iso34eqpw222"]}
    blocks = snippets()
    if len(blocks) < 2:
        print("FAIL docs/clients.md: %d python block(s) marked for test/drivers/docs_snippets.py, 2 expected" % len(blocks))
        return 1
    namespace = dict(given)
    for line, code in blocks:
        what = "alembic" if "from alembic import op" in code else "sqlalchemy"
        try:
            exec(compile(code, "docs/clients.md:%d" % line, "exec"), namespace)
            if what == "alembic":
                failed |= not alembic_round(namespace)
            else:
                print("ok   docs/clients.md:%d: the SQLAlchemy snippet runs as shown (a table, an insert by its DEFAULT, ^@, <@, keyset, = ANY)" % line)
        except Exception:
            failed = True
            print("FAIL docs/clients.md:%d: the %s snippet: %s" % (line, what, traceback.format_exc(limit=3).strip().replace("\n", " | ")))
    return 1 if failed else 0


def alembic_round(ns):
    """The snippet's upgrade() through Alembic, its autogenerate comparison, then downgrade()."""
    import sqlalchemy as sa
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext
    from alembic.operations import Operations

    engine, IdType, Base = ns["engine"], ns["IdType"], ns["Base"]
    sa.Table("events", Base.metadata,  # the application's model of the table the migration makes
             sa.Column("id", IdType("scru160"), primary_key=True, server_default=sa.text("scru160_generate()")),
             sa.Column("body", sa.Text()))
    with warnings.catch_warnings(), engine.begin() as conn:
        warnings.simplefilter("error", sa.exc.SAWarning)  # "Did not recognize type": the registration missing
        context = MigrationContext.configure(conn, opts={"compare_type": True})
        with Operations.context(context):
            ns["upgrade"]()
        kind = conn.execute(sa.text("SELECT format_type(atttypid, atttypmod) FROM pg_attribute "
                                    "WHERE attrelid = 'events'::regclass AND attname = 'id'")).scalar()
        # only the application's tables: the database holds other tests' tables too (the drivers' samples)
        mine = lambda obj, name, type_, reflected, compare_to: not (type_ == "table" and reflected and compare_to is None)
        diff = compare_metadata(MigrationContext.configure(conn, opts={"compare_type": True, "include_object": mine}),
                                Base.metadata)
        with Operations.context(MigrationContext.configure(conn)):
            ns["downgrade"]()
        gone = conn.execute(sa.text("SELECT to_regclass('events') IS NULL")).scalar()
    if kind != "scru160" or diff or not gone:
        print("FAIL docs/clients.md: the Alembic snippet: the column is %s, autogenerate finds %r, the table %s after downgrade()"
              % (kind, diff, "is gone" if gone else "is still there"))
        return False
    print("ok   docs/clients.md: the Alembic snippet's migration makes the scru160 column, autogenerate finds nothing to change (compare_type on), downgrade() drops it")
    return True


if __name__ == "__main__":
    sys.exit(main())
