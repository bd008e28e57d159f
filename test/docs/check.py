#!/usr/bin/env python3
"""The docs as a user meets them: every ```sql block of README.md, CONTRIBUTING.md, CHANGELOG.md, BENCHMARKS.md, docs/*.md
and docs/internals/*.md runs, what they show as output is what psql prints, and every relative link resolves.

- SQL: a page with ```sql blocks says where they run in a line near its top starting **Examples:** (EXAMPLES):
  "a new database" (idtypes created first, unless the page itself runs `CREATE EXTENSION idtypes`), "a new
  database with the SQL edition" (build/idtypes_sql.sql, from `make sql-edition`, run by `psql -1 -f` into the
  schema ids, which the database's search_path then holds), or "the database [page](page.md) leaves" (that
  page first, then this one, in the same database). The blocks run in order in one psql session
  (ON_ERROR_STOP, as the cluster's superuser, PGHOST etc.), each announced by its line number. A ```text
  block right after a ```sql block (blank lines between) is its output, compared with what psql printed
  (blank lines and `(N rows)` footers aside; `…` in a shown line stands for any text), unless its first line
  starts with `-- e.g.` (ILLUSTRATIVE). Every test/….sh or .py the line names exists and scripts/test.sh runs
  it. A block with another info string (```text, ```sh, ```conf, ```plpgsql for SQL that needs another
  server: Citus, a remote node) is not run; a ```sql block right after a line `<!-- docs-test: skip REASON -->`
  is reported as skipped, with the reason.
- Links: every [text](target), [ref]: target definition, <a href> and <img src> whose target is not a URL:
  the file exists (relative to the page's own directory: ../ from docs/internals/) and its #anchor is a
  heading of that file (GitHub's slugs) or of the page itself.
- docs/operations.md names every setting of pg_settings named idtypes.% (and the hidden test setting); the facts
  README.md and docs/ share match the server: each type's size, each setting's default and range.
- The README: at most 1,500 words of text (as `wc -w` counts them) and a link to every page of docs/.
Prints one line per check: `ok ...`, `FAIL ...` or `skip ...`. Usage: check.py ROOT [links|sql|all]
"""
import os
import re
import subprocess
import sys

ROOT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else '.')
WHAT = sys.argv[2] if len(sys.argv) > 2 else 'all'
FENCE = re.compile(r'^(\s*)(```+|~~~+)\s*([^`\s]*)')
SKIP = re.compile(r'^<!--\s*docs-test:\s*skip\b\s*(.*?)\s*-->\s*$')
EXAMPLES = '**Examples:**'  # the line near a page's top that says where its examples run
ILLUSTRATIVE = '-- e.g.'  # the first line of an output block that shows an example, not the exact output


def pages():
    out = [os.path.join(ROOT, f) for f in ('README.md', 'CONTRIBUTING.md', 'CHANGELOG.md', 'BENCHMARKS.md')]
    for sub in ('docs', 'docs/internals'):
        d = os.path.join(ROOT, sub)
        if os.path.isdir(d):
            out += sorted(os.path.join(d, f) for f in os.listdir(d) if f.endswith('.md'))
    return out


def rel(path):
    return os.path.relpath(path, ROOT)


def blocks(text):
    """The fenced blocks (tuples, below) and the text outside them."""
    found, outside = [], []
    lines = text.split('\n')
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            outside.append(lines[i])
            i += 1
            continue
        fence, info, start = m.group(2), m.group(3).lower(), i + 1
        before = next((j for j in range(i - 1, -1, -1) if lines[j].strip()), -1)
        skip = SKIP.match(lines[before].strip()) if before >= 0 else None
        body = []
        i += 1
        indent = len(m.group(1)) if m.group(1) else 0  # a block inside a list item: its lines so indented
        while i < len(lines) and not lines[i].strip().startswith(fence):
            body.append(lines[i][indent:] if lines[i][:indent].isspace() else lines[i])
            i += 1
        # (info, line of the opening fence, body, skip reason, line of the last non-blank line before the
        # block, line of the closing fence): lines counted from 1
        found.append((info, start, '\n'.join(body), skip.group(1) if skip else None, before + 1, i + 1))
        outside.append('')
        i += 1
    return found, '\n'.join(outside)


def slug(heading):
    """GitHub's anchor for a heading: lower case, markup and punctuation dropped, spaces to dashes."""
    h = re.sub(r'`([^`]*)`', r'\1', heading.strip())
    h = re.sub(r'\[([^\]]*)\]\([^)]*\)', r'\1', h)
    h = re.sub(r'<[^>]+>', '', h).lower()
    h = re.sub(r'[^\w\- ]', '', h)
    return h.replace(' ', '-')


def anchors(path):
    found, outside = blocks(open(path, encoding='utf-8').read())
    seen, out = {}, set()
    for line in outside.split('\n'):
        m = re.match(r'^#{1,6}\s+(.*?)\s*#*\s*$', line)
        if m:
            s = slug(m.group(1))
            n = seen.get(s, 0)
            seen[s] = n + 1
            out.add(s if n == 0 else '%s-%d' % (s, n))
    for m in re.finditer(r'<a\s+(?:name|id)="([^"]+)"', outside):
        out.add(m.group(1))
    return out


def check_links():
    bad = total = 0
    cache = {}
    for page in pages():
        _, outside = blocks(open(page, encoding='utf-8').read())
        outside = re.sub(r'`[^`\n]*`', '', outside)  # code spans are not links
        targets = re.findall(r'\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)', outside)
        targets += re.findall(r'<a\s+href="([^"]+)"', outside)
        targets += re.findall(r'<img\s[^>]*\bsrc="([^"]+)"', outside)
        targets += re.findall(r'^\s*\[[^\]]+\]:\s*<?([^>\s]+)>?', outside, flags=re.M)  # [ref]: target
        for t in targets:
            if re.match(r'^[a-z][a-z0-9+.-]*:', t, re.I):  # a URL (https:, mailto:)
                continue
            total += 1
            file_part, _, anchor = t.partition('#')
            target = os.path.normpath(os.path.join(os.path.dirname(page), file_part)) if file_part else page
            why = None
            if not os.path.exists(target):
                why = 'no such file'
            elif anchor and target.endswith('.md'):
                if target not in cache:
                    cache[target] = anchors(target)
                if anchor not in cache[target]:
                    why = 'no heading with the anchor #%s' % anchor
            if why:
                bad += 1
                print('FAIL %s: link %s: %s' % (rel(page), t, why))
    if not bad:
        print('ok   every relative link (%d) of README.md and docs/ resolves, #anchors included' % total)


def check_release_status():
    """README's versions table and release line agree with idtypes.control and CHANGELOG.md: a row for every
    version up to default_version, the newest saying "unreleased" exactly when CHANGELOG's entry does, and
    "The latest release is X (date)" naming CHANGELOG's newest dated entry."""
    control = open(os.path.join(ROOT, 'idtypes.control'), encoding='utf-8').read()
    current = re.search(r"^default_version\s*=\s*'([^']+)'", control, re.M).group(1)
    log = open(os.path.join(ROOT, 'CHANGELOG.md'), encoding='utf-8').read()
    entries = re.findall(r'^## (\d+)\.(\d+)\.(\d+) \(([^)]*)\)', log, re.M)
    readme = open(os.path.join(ROOT, 'README.md'), encoding='utf-8').read()
    rows = dict(re.findall(r'^\| (\d+\.\d+) \| (.*)\|\s*$', readme, re.M))
    problems = []
    if not entries or '%s.%s' % entries[0][:2] != current:
        problems.append("CHANGELOG.md's newest entry is not %s.x (idtypes.control's default_version)" % current)
    if current not in rows:
        problems.append("README.md's versions table has no row for %s (idtypes.control's default_version)" % current)
    for major, minor, _, status in entries:
        v = '%s.%s' % (major, minor)
        if v in rows and ('unreleased' in rows[v]) != (status == 'unreleased'):
            problems.append('README.md says %s is %sreleased, CHANGELOG.md says "%s"'
                            % (v, 'un' if 'unreleased' in rows[v] else '', status))
    released = [e for e in entries if re.match(r'\d{4}-\d\d-\d\d$', e[3])]
    if released:
        want = 'The latest release is %s.%s.%s (%s)' % released[0]
        if want not in readme:
            problems.append('README.md does not say "%s"' % want)
    for p in problems:
        print('FAIL %s' % p)
    if not problems:
        print('ok   README.md, CHANGELOG.md and idtypes.control agree: %s is the current version (%s), %s'
              % (current, entries[0][3], 'the latest release %s.%s.%s' % released[0][:3] if released else 'no release'))


def check_readme():
    readme = os.path.join(ROOT, 'README.md')
    text = open(readme, encoding='utf-8').read()
    words = len(text.split())
    print(('ok   README.md has %d words (at most 1,500)' if words <= 1500 else 'FAIL README.md has %d words (at most 1,500)') % words)
    linked = set(os.path.normpath(os.path.join(ROOT, t.partition('#')[0]))
                 for t in re.findall(r'\]\(\s*([^)\s]+)\s*\)', text) if not re.match(r'^[a-z]+:', t))
    missing = [rel(p) for p in pages()[1:] if p not in linked]
    if missing:
        print('FAIL README.md does not link: %s' % ', '.join(missing))
    else:
        print('ok   README.md links every page of docs/, CONTRIBUTING.md, CHANGELOG.md and BENCHMARKS.md (%d)' % (len(pages()) - 1))


def psql(db, *args, stdin=None, **env):
    env = dict(os.environ, PGTZ='UTC', **env)  # the pages show times in UTC
    return subprocess.run(['psql', '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-d', db, *args], input=stdin,
                          capture_output=True, text=True, env=env)


def examples_line(page):
    """The page's one line near its top saying where its examples run: `**Examples:** ...`."""
    _, outside = blocks(open(page, encoding='utf-8').read())
    for line in outside.split('\n')[:40]:
        if line.startswith(EXAMPLES):
            return line
    return None


def plan(page):
    """(mode, the page it continues, the tests it names) from the page's examples line, or a reason it has none.
    Modes: 'fresh' (a new database with idtypes), 'sqled' (a new database with the SQL edition), 'after'."""
    line = examples_line(page)
    if line is None:
        return None, None, [], 'no line starting %s near its top says where its examples run' % EXAMPLES
    tests = re.findall(r'\btest/[\w./-]+\.(?:sh|py)\b', line)
    after = re.search(r'the database \[[^\]]*\]\(([^)#\s]+\.md)\)[^.]*\bleaves', line)
    if after:
        return 'after', os.path.normpath(os.path.join(os.path.dirname(page), after.group(1))), tests, None
    if re.search(r'\bSQL edition\b', line) and 'new database' in line:
        return 'sqled', None, tests, None
    if 'new database' in line:
        return 'fresh', None, tests, None
    return None, None, tests, 'its examples line says neither "a new database" nor "the database [page](page.md) leaves"'


def output_blocks(found):
    """{index of a sql block: (line, the text block right after it)}: only blank lines between the two."""
    out = {}
    for i in range(len(found) - 1):
        if found[i][0] == 'sql' and found[i + 1][0] == 'text' and found[i + 1][4] == found[i][5]:
            out[i] = found[i + 1]
    return out


def normalized(text):
    """Output as compared: blank lines, trailing blanks and psql's `(N rows)` footers dropped."""
    return [l.rstrip() for l in text.split('\n') if l.strip() and not re.match(r'^\(\d+ rows?\)$', l.strip())]


def shown_matches(shown, actual):
    """The shown lines equal the actual ones, `…` in a shown line standing for any text."""
    if len(shown) != len(actual):
        return False
    for s, a in zip(shown, actual):
        pattern = '.*'.join(re.escape(part) for part in s.split('…'))
        if not re.fullmatch(pattern, a):
            return False
    return True


def sql_edition_file():
    path = os.path.join(ROOT, 'build', 'idtypes_sql.sql')
    if not os.path.exists(path):  # needs no PostgreSQL: it concatenates SQL
        subprocess.run(['make', '-s', '-C', ROOT, 'sql-edition'], capture_output=True)
    return path if os.path.exists(path) else None


def new_database(db, mode, page):
    """A fresh database for a page: idtypes created in it (unless the page creates it), or the SQL edition
    installed as its page says (`psql -f` into the schema ids, on the search_path). Returns an error or None."""
    r = psql('postgres', '-c', 'DROP DATABASE IF EXISTS %s' % db, '-c', 'CREATE DATABASE %s' % db)
    if r.returncode != 0:
        return r.stderr.strip()
    if mode == 'sqled':
        path = sql_edition_file()
        if path is None:
            return '`make sql-edition` wrote no build/idtypes_sql.sql'
        r = psql(db, '-c', 'CREATE SCHEMA ids', '-c', 'ALTER DATABASE %s SET search_path = ids, "$user", public' % db)
        if r.returncode == 0:  # as the page's `psql -f`: the edition's schema alone on the path, one transaction
            r = psql(db, '-1', '-f', path, PGOPTIONS='-c search_path=ids -c client_min_messages=warning')
        return r.stderr.strip() if r.returncode != 0 else None
    own_create = any(re.search(r'(?i)\bcreate\s+extension\s+(if\s+not\s+exists\s+)?idtypes\b(?!_)', b[2])
                     for b in blocks(open(page, encoding='utf-8').read())[0] if b[0] == 'sql')
    if not own_create:
        r = psql(db, '-c', 'CREATE EXTENSION idtypes')
    return r.stderr.strip() if r.returncode != 0 else None


MARK = '@@docs-test block %d@@'


def run_page(page, db):
    """Runs the page's sql blocks, in order, in one psql session in DB; checks each output block. One line each."""
    found, _ = blocks(open(page, encoding='utf-8').read())
    for info, line, _, reason, _, _ in found:
        if info == 'sql' and reason is not None:
            print('skip %s: the sql block at line %d: %s' % (rel(page), line, reason or 'marked skip'))
    run = [i for i, b in enumerate(found) if b[0] == 'sql' and b[3] is None]
    script = ''.join("\\echo '%s'\n%s\n;\n" % (MARK % found[i][1], found[i][2]) for i in run)
    r = psql(db, '-P', 'pager=off', stdin=script)
    parts = re.split(r'^@@docs-test block (\d+)@@\n', r.stdout, flags=re.M)
    output = dict(zip((int(n) for n in parts[1::2]), parts[2::2]))
    if r.returncode == 0:
        print('ok   %s: its %d sql block(s) run, in order, in one session' % (rel(page), len(run)))
    else:
        where = re.findall(r'^@@docs-test block (\d+)@@', r.stdout, flags=re.M)
        print('FAIL %s: the sql block at line %s: %s' % (rel(page), where[-1] if where else '?',
                                                        ' '.join(r.stderr.strip().split('\n')[-4:])))
    shown = output_blocks(found)
    checked = illustrative = wrong = 0
    for i in run:
        if i not in shown:
            continue
        text_line, text = shown[i][1], shown[i][2]
        if text.lstrip().startswith(ILLUSTRATIVE):
            illustrative += 1
            continue
        actual = output.get(found[i][1])
        if actual is None:
            continue  # the session stopped before it: reported above
        checked += 1
        if not shown_matches(normalized(text), normalized(actual)):
            wrong += 1
            print('FAIL %s: the output at line %d is not what the sql block at line %d gives:\n%s' % (
                rel(page), text_line, found[i][1], '\n'.join('     | ' + l for l in normalized(actual))))
    if (checked or illustrative) and not wrong:
        print('ok   %s: %d output block(s) compared with what psql gives, %d marked as an example (%s)'
              % (rel(page), checked, illustrative, ILLUSTRATIVE))


def check_sql():
    """Every page with sql blocks: its examples line, then its blocks in the database it names."""
    test_sh = open(os.path.join(ROOT, 'scripts', 'test.sh'), encoding='utf-8').read()
    plans, order = {}, []
    for page in pages():
        found, _ = blocks(open(page, encoding='utf-8').read())
        has_sql = any(b[0] == 'sql' and b[3] is None for b in found)
        mode, after, tests, why = plan(page)
        for t in tests:
            if not os.path.isfile(os.path.join(ROOT, t)):
                print('FAIL %s: it names the test %s, which does not exist' % (rel(page), t))
            elif t not in test_sh and os.path.basename(t) not in test_sh:
                print('FAIL %s: it names the test %s, which scripts/test.sh does not run' % (rel(page), t))
            else:
                print('ok   %s: the test it names, %s, exists and scripts/test.sh runs it' % (rel(page), t))
        if not has_sql:
            continue
        if why:
            print('FAIL %s: %s' % (rel(page), why))
            continue
        plans[page] = (mode, after)
        order.append(page)
    # each chain of pages (a page, the pages that continue from it, ...) in one database, in that order
    done = set()
    for n, page in enumerate(order):
        if plans[page][0] == 'after':
            continue
        chain, i = [page], 0
        while i < len(chain):
            chain += [p for p in order if plans[p] == ('after', chain[i])]
            i += 1
        db = 'idtypes_docs_%d' % n
        err = new_database(db, plans[page][0], page)
        if err:
            print('FAIL %s: a new database for its examples: %s' % (rel(page), err))
        else:
            for p in chain:
                run_page(p, db)
        done.update(chain)
        psql('postgres', '-c', 'DROP DATABASE IF EXISTS %s' % db)
    for page in order:
        if page not in done:
            print('FAIL %s: it continues from %s, which has no sql block to run or is not a page'
                  % (rel(page), rel(plans[page][1])))


def check_shared_facts():
    """The facts README.md and docs/ share, against the server: each type's storage size (README's tables,
    docs/clients.md's binary formats), each setting's default and range (docs/operations.md, README)."""
    db = 'idtypes_docs_facts'
    r = psql('postgres', '-c', 'DROP DATABASE IF EXISTS %s' % db, '-c', 'CREATE DATABASE %s' % db)
    r = psql(db, '-At', '-F', '|', '-c', 'CREATE EXTENSION idtypes', '-c',
             "SELECT typname, typlen FROM pg_type WHERE typname IN ('timeid', 'tbsl', 'uid11', 'scru160')")
    psql('postgres', '-c', 'DROP DATABASE IF EXISTS %s' % db)
    sizes = dict(l.split('|') for l in r.stdout.split())
    if r.returncode != 0 or len(sizes) != 4:
        print('FAIL the sizes of the types, from pg_type: %s' % r.stderr.strip())
        return
    bad = []
    readme = open(os.path.join(ROOT, 'README.md'), encoding='utf-8').read()
    clients = open(os.path.join(ROOT, 'docs', 'clients.md'), encoding='utf-8').read()
    told = [('README.md', m.group(1), m.group(2)) for m in re.finditer(r'^\| `(\w+)` \|.*?\| (\d+) bytes \|', readme, re.M)]
    told += [('docs/clients.md', m.group(1), m.group(2)) for m in re.finditer(r'^\| `(\w+)` \| (\d+)[,| ]', clients, re.M)]
    for where, typ, n in told:
        if typ not in sizes:
            bad.append('%s names a type %s the extension does not have' % (where, typ))
        elif sizes[typ] != n:
            bad.append('%s says %s is %s bytes; pg_type says %s' % (where, typ, n, sizes[typ]))
    for typ in sizes:
        if not any(t == typ for w, t, _ in told if w == 'README.md'):
            bad.append("README.md's tables do not give the size of %s" % typ)
    r = psql('postgres', '-At', '-F', '|', '-c', "LOAD 'idtypes'", '-c',
             "SELECT name, boot_val, coalesce(unit, ''), coalesce(min_val, ''), coalesce(max_val, '') FROM pg_settings WHERE name LIKE 'idtypes.%'")
    settings = {l.split('|')[0]: l.split('|')[1:] for l in r.stdout.split('\n') if l}
    ops = open(os.path.join(ROOT, 'docs', 'operations.md'), encoding='utf-8').read()
    for name, (boot, unit, lo, hi) in settings.items():
        m = re.search(r'^\| `%s` \| ([^|]*) \|' % re.escape(name), ops, re.M)
        shown = m.group(1).strip().strip('`') if m else None
        want = (boot + ((' ' + unit) if unit else '')) if boot else 'empty'
        if shown is None:
            bad.append("docs/operations.md's table of settings has no row for %s" % name)
        elif shown != want:
            bad.append('docs/operations.md says the default of %s is %s; pg_settings says %s' % (name, shown, want))
        for where, text in (('README.md', readme), ('docs/operations.md', ops)):
            for a, b in re.findall(r'`%s`[^.|]*?\((-?\d+)\.\.(\d+)\)' % re.escape(name), text):
                if lo and (int(a) < int(lo) or b != hi):
                    bad.append('%s gives %s the range %s..%s; pg_settings says %s..%s' % (where, name, a, b, lo, hi))
    for b in bad:
        print('FAIL %s' % b)
    if not bad:
        print('ok   README.md and docs/ agree with the server and each other: %d type sizes, %d settings'
              % (len(told), len(settings)))


def check_inventory():
    """docs/operations.md names every setting idtypes defines (pg_settings, and the hidden test setting)."""
    ops = open(os.path.join(ROOT, 'docs', 'operations.md'), encoding='utf-8').read()
    r = psql('postgres', '-At', '-c', "LOAD 'idtypes'", '-c',
             "SELECT name FROM pg_settings WHERE name LIKE 'idtypes.%' UNION SELECT 'idtypes.test_clock_offset' "
             "WHERE current_setting('idtypes.test_clock_offset', true) IS NOT NULL ORDER BY 1")
    names = r.stdout.split()
    missing = [n for n in names if '`%s`' % n not in ops]
    if r.returncode != 0 or not names:
        print('FAIL the settings of idtypes, from pg_settings: %s' % r.stderr.strip())
    elif missing:
        print('FAIL docs/operations.md does not name the settings %s' % ', '.join(missing))
    else:
        print('ok   docs/operations.md names every setting idtypes defines (%d): %s' % (len(names), ' '.join(names)))


if WHAT in ('links', 'all'):
    check_release_status()
    check_readme()
    check_links()
if WHAT in ('sql', 'all'):
    check_inventory()
    check_shared_facts()
    check_sql()
