"""Every idtypes type as the primary key of a Django 3.2 model (Debian's python3-django, over
python3-psycopg2), through the ORM only: the app idtypes_django (its field, lookups and models) migrated
into the test database by `migrate`, which creates the tables with the generators as DEFAULTs; then
inserts with and without an ID, `__any` (`= ANY`), `__prefix` (`^@`), `__within` (`<@ tstzrange`) from
datetimes, keyset pagination with `__gt`. Settings are made here, no project. Reads the IDs from the
table `samples` (samples.sql); connects with PGHOST etc. Prints `ok` / `FAIL` lines; exits 1 on a failure."""
import os
import sys

import django
from django.conf import settings

from idcodecs import CODECS, WINDOW, Checks, missing, prefixes, same

settings.configure(
    DATABASES={"default": {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": os.environ["PGDATABASE"],
        "HOST": os.environ["PGHOST"],
        "PORT": os.environ["PGPORT"],
        "USER": os.environ["PGUSER"],
    }},
    INSTALLED_APPS=["idtypes_django"],
    USE_TZ=True,
    DEFAULT_AUTO_FIELD="django.db.models.AutoField",
)
django.setup()

from django.core.management import call_command  # noqa: E402 (after setup)
from django.db import connection  # noqa: E402

from idtypes_django.models import ROWS  # noqa: E402

check = Checks("django")


def ids_of(queryset):
    return list(queryset.values_list("id", flat=True))


def round_of(t, codec):
    Row = ROWS[t]
    with connection.cursor() as cur:
        cur.execute('SELECT id FROM samples WHERE type = %s ORDER BY id COLLATE "C"', [t])
        ids = [r[0] for r in cur.fetchall()]
    all_ids = list(ids)  # the samples and the IDs the DEFAULT made

    def insert_read():
        if len(ids) < 150:
            raise AssertionError(f"only {len(ids)} samples")
        Row.objects.bulk_create(Row(id=id, n=n) for n, id in enumerate(ids))
        same("rows", ids_of(Row.objects.order_by("n")), ids)
        for n, id in enumerate(ids):
            same(id, Row.objects.get(id=id).n, n)
        for n in range(1000, 1003):
            row = Row.objects.create(n=n)  # no id in the INSERT: the DEFAULT's comes back by RETURNING
            same(f"the DEFAULT's {row.id!r} looked up", Row.objects.get(pk=row.id).n, n)
            same("its width", len(row.id), codec["width"])
            all_ids.append(row.id)
        return f"{len(ids)} str IDs created, read back and got by id; 3 from the column DEFAULT, e.g. {all_ids[-1]}"

    def any_list():
        want = ids[::7]
        query = Row.objects.filter(id__any=want + [missing(codec)]).order_by("id")
        same("rows", ids_of(query), sorted(want))
        if "= ANY(" not in str(query.query):
            raise AssertionError(f"no = ANY in {query.query}")
        same("id__in", ids_of(Row.objects.filter(id__in=want + [missing(codec)]).order_by("id")), sorted(want))
        return (f"id__any=list (= ANY of one array parameter): {len(want)} of {len(want) + 1} IDs asked (one absent)"
                " found; id__in (IN (%s, ...)) finds the same")

    def prefix():
        counts = []
        for p in prefixes(codec, ids[75]):
            query = Row.objects.filter(id__prefix=p).order_by("id")
            same(f"prefix {p!r}", ids_of(query), [id for id in sorted(all_ids) if id.startswith(p)])
            counts.append(sum(id.startswith(p) for id in all_ids))
        if "^@" not in str(query.query):
            raise AssertionError(f"no ^@ in {query.query}")
        return f"id__prefix (^@): prefixes of {ids[75]} match {', '.join(map(str, counts))} rows, as startswith says"

    def window():
        got = ids_of(Row.objects.filter(id__within=WINDOW).order_by("id"))
        with connection.cursor() as cur:
            cur.execute(f"SELECT id FROM dj_{t} WHERE id::timestamptz >= %s AND id::timestamptz < %s ORDER BY id", WINDOW)
            want = [r[0] for r in cur.fetchall()]
        same("window", got, want)
        if not 0 < len(got) < len(ids):
            raise AssertionError(f"{len(got)} rows")
        return f"id__within=(start, end) (<@ tstzrange): {len(got)} of {len(all_ids)} IDs in a one-day window of datetimes"

    def keyset():
        seen, pages = [], 1
        page = ids_of(Row.objects.order_by("id")[:10])
        while page:
            seen += page
            page = ids_of(Row.objects.filter(id__gt=seen[-1]).order_by("id")[:10])
            pages += 1
        same("pages", seen, sorted(all_ids))
        return f"{pages} pages of 10 walk all {len(seen)} IDs once, in text order"

    check(f"{t} insert with the column DEFAULT and with an ID, read back", insert_read)
    check(f"{t} id = ANY(array parameter)", any_list)
    check(f"{t} id ^@ parameter", prefix)
    check(f"{t} id <@ tstzrange(start, end)", window)
    check(f"{t} keyset pagination", keyset)


def migrate():
    call_command("migrate", "idtypes_django", verbosity=0)
    with connection.cursor() as cur:
        cur.execute("SELECT table_name, column_default FROM information_schema.columns"
                    " WHERE table_name LIKE 'dj\\_%%' AND column_name = 'id'")
        defaults = dict(cur.fetchall())
    same("tables and DEFAULTs", defaults, {f"dj_{t}": f"{t}_generate()" for t in CODECS})
    return f"Django {django.get_version()}: migrate made {sorted(defaults)}, each with its generator as DEFAULT"


check("migration", migrate)
for t, codec in CODECS.items():
    round_of(t, codec)
sys.exit(1 if check.failed else 0)
