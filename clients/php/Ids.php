<?php
// idtypes in plain PHP (required by Doctrine.php and Laravel.php; docs/clients.md#php): what an ID's text
// may be, checked before it reaches the server, and the order the database sorts IDs in.
declare(strict_types=1);

namespace Idtypes;

const TYPES = ['timeid', 'tbsl', 'uid11', 'scru160'];

// The canonical text of TYPE as a regular expression without anchors or delimiters (for a router's
// parameter pattern: Laravel's Route::pattern / where(), Symfony's requirements): exactly the texts the
// server accepts, so that a malformed route key is a 404 from the router, never a 22P02 from the query.
// The bounds are the types' widths: timeid and uid11 are 64 bits (timeid's first symbol at most j, uid11
// at most jpXCZedGfVQ = 2^64-1); a TBSL's first 15 hex digits are 18 decimal digits, at most
// DE0B6B3A763FFFF; scru160's 32 symbols are its 160 bits.
function pattern(string $type): string
{
    return match ($type) {
        'timeid' => '[2-7a-j][2-7a-z]{12}',
        'tbsl' => at_most('0123456789ABCDEF', 'DE0B6B3A763FFFF') . '[0-9A-F]{5}',
        'uid11' => at_most('123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz', 'jpXCZedGfVQ'),
        'scru160' => '[0-9A-V]{32}',
        default => throw new \InvalidArgumentException("idtypes: no type $type"),
    };
}

// The texts of strlen(MAX) symbols of ALPHABET (in its order) up to MAX: a symbol below MAX's at some
// place after MAX's own symbols before it, or MAX itself.
function at_most(string $alphabet, string $max): string
{
    $n = strlen($max);
    $any = '[' . $alphabet . ']';
    $ways = [];
    for ($i = 0; $i < $n; $i++) {
        $below = substr($alphabet, 0, strpos($alphabet, $max[$i]));
        if ($below !== '') {
            $ways[] = substr($max, 0, $i) . "[$below]" . ($i + 1 < $n ? $any . '{' . ($n - $i - 1) . '}' : '');
        }
    }
    $ways[] = $max;
    return '(?:' . implode('|', $ways) . ')';
}

function is_id(string $type, string $text): bool
{
    return preg_match('/\A' . pattern($type) . '\z/', $text) === 1;
}

// A text given to a query as an ID, refused before the server if it holds a NUL byte: pdo_pgsql sends a
// parameter as a C string, cut at the first NUL, so "<a valid ID>\0junk" would be read as the ID.
function refuse_nul(mixed $value): mixed
{
    if (is_string($value) && str_contains($value, "\0")) {
        throw new \InvalidArgumentException('idtypes: an ID holds a NUL byte, at which pdo_pgsql would cut it');
    }
    return $value;
}

// IDS as one array literal for `= ANY(?)` (PDO has no array binding), each element quoted: unquoted, an
// element from input holding a comma, a brace or a space, or reading NULL, would be read as several IDs,
// a trimmed one or none ('a,b' finds both rows) instead of being refused as one invalid ID (22P02).
function array_literal(array $ids): string
{
    return '{' . implode(',', array_map(fn ($id) => '"' . addcslashes((string) refuse_nul($id), '"\\') . '"', $ids)) . '}';
}

// The extension's schema in CONNECTION's database, quoted for SQL, found by its membership (FETCH runs a
// query, returns its one value) and kept per connection. The helpers call the extension's functions and
// operators by it: by the search_path, a role allowed to create in a schema before the extension's (a
// database owner's public, or one named like the application's role, "$user") would have its own
// T_generate() or ^@ used instead.
function extension_schema(object $connection, callable $fetch): string
{
    static $schemas = null;
    $schemas ??= new \WeakMap();
    return $schemas[$connection] ??= $fetch(<<<'SQL'
        SELECT pg_catalog.quote_ident(n.nspname) AS schema
        FROM pg_catalog.pg_extension e JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) e.extnamespace
        WHERE e.extname OPERATOR(pg_catalog.=) 'idtypes'
        SQL) ?: throw new \LogicException('idtypes: the extension is not created in this database');
}

// The database's order of IDs: byte order of their texts (strcmp). PHP compares two numeric strings as
// numbers: an all-digit TBSL (2800... from 2027-02) is about 2.8e19 and one like 27E4... is 27 x 10^4...,
// so sort(), max(), < and Laravel's sortBy() / max() put them in another order than ORDER BY id.
function compare(string $a, string $b): int
{
    return strcmp($a, $b);
}

// ITEMS in the database's order: IDs, or arrays or objects holding the ID at KEY (a Doctrine collection:
// sort_by_id($collection->toArray(), 'id'); its Criteria orderBy in memory compares with <, as numbers)
function sort_by_id(array $items, ?string $key = null, bool $descending = false): array
{
    $id = fn ($item): string => (string) ($key === null ? $item : (is_array($item) ? $item[$key] : $item->$key));
    usort($items, fn ($a, $b) => ($descending ? -1 : 1) * strcmp($id($a), $id($b)));
    return $items;
}
