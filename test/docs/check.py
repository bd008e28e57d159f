#!/usr/bin/env python3
"""The docs as a user meets them: every ```sql block of README.md, CONTRIBUTING.md, CHANGELOG.md, BENCHMARKS.md, docs/*.md
and docs/internals/*.md runs, and every relative link resolves.

- SQL: per page, in a fresh database of the running cluster (PGHOST etc.), as its superuser, the page's
  ```sql blocks in order in one psql session (ON_ERROR_STOP), each announced by its line number. The database
  has `CREATE EXTENSION idtypes` done first, unless the page itself runs `CREATE EXTENSION idtypes`. A block
  with another info string (```text, ```sh, ```conf, ```plpgsql for SQL that needs another server: Citus, a
  remote node, the SQL edition) is not run; a ```sql block right after a line `<!-- docs-test: skip REASON -->`
  is reported as skipped, with the reason.
- Links: every [text](target) and <a href> whose target is not a URL: the file exists (relative to the
  page) and its #anchor is a heading of that file (GitHub's slugs) or of the page itself.
- docs/operations.md names every setting of pg_settings named idtypes.% (and the hidden test setting).
- The README: at most 1,500 words of text (as `wc -w` counts them) and a link to every page of docs/.
Prints one line per check: `ok ...`, `FAIL ...` or `skip ...`. Usage: check.py ROOT [links|sql|all]
"""
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else '.')
WHAT = sys.argv[2] if len(sys.argv) > 2 else 'all'
FENCE = re.compile(r'^(\s*)(```+|~~~+)\s*([^`\s]*)')
SKIP = re.compile(r'^<!--\s*docs-test:\s*skip\b\s*(.*?)\s*-->\s*$')


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
    """(info string, first line number, body, skip reason) of each fenced block, and the text outside them."""
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
        prev = next((l for l in reversed(lines[:i]) if l.strip()), '')
        skip = SKIP.match(prev.strip())
        body = []
        i += 1
        while i < len(lines) and not lines[i].strip().startswith(fence):
            body.append(lines[i])
            i += 1
        found.append((info, start, '\n'.join(body), skip.group(1) if skip else None))
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


def psql(db, *args, stdin=None):
    return subprocess.run(['psql', '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-d', db, *args], input=stdin,
                          capture_output=True, text=True)


def check_sql():
    for n, page in enumerate(pages()):
        found, _ = blocks(open(page, encoding='utf-8').read())
        sql = [b for b in found if b[0] == 'sql']
        for info, line, _, reason in sql:
            if reason is not None:
                print('skip %s: the sql block at line %d: %s' % (rel(page), line, reason or 'marked skip'))
        run = [b for b in sql if b[3] is None]
        if not run:
            continue
        db = 'idtypes_docs_%d' % n
        own_create = any(re.search(r'(?i)\bcreate\s+extension\s+(if\s+not\s+exists\s+)?idtypes\b(?!_)', b[2]) for b in run)
        r = psql('postgres', '-c', 'DROP DATABASE IF EXISTS %s' % db, '-c', 'CREATE DATABASE %s' % db)
        if r.returncode == 0 and not own_create:
            r = psql(db, '-c', 'CREATE EXTENSION idtypes')
        if r.returncode != 0:
            print('FAIL %s: a fresh database for its blocks: %s' % (rel(page), r.stderr.strip()))
            continue
        script = ''.join("\\echo 'docs-test block at line %d'\n%s\n;\n" % (line, body) for _, line, body, _ in run)
        r = psql(db, '-o', os.devnull, '-P', 'pager=off', stdin=script)
        if r.returncode == 0:
            print('ok   %s: its %d sql block(s) run' % (rel(page), len(run)))
        else:
            where = re.findall(r'docs-test block at line (\d+)', r.stdout)
            print('FAIL %s: the sql block at line %s: %s' % (rel(page), where[-1] if where else '?',
                                                            ' '.join(r.stderr.strip().split('\n')[-4:])))
        psql('postgres', '-c', 'DROP DATABASE IF EXISTS %s' % db)


if WHAT in ('links', 'all'):
    check_readme()
    check_links()
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


if WHAT in ('sql', 'all'):
    check_inventory()
    check_sql()
