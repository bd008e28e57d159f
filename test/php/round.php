<?php
// Every type through one PHP layer: `php round.php pdo|doctrine|laravel` (PGHOST etc. name the database).
// Per type, a table made the layer's way (PDO: SQL; Doctrine: its schema tool with clients/php/Doctrine.php's
// types; Laravel: a Schema builder migration with clients/php/Laravel.php's column type) with the generator
// as the column's DEFAULT; 300 IDs from T_generate() by that DEFAULT, each read back by RETURNING (the layer's
// insert: a Laravel model with GeneratedKey), and 600 from T_generate_at() over the last 70 minutes. Checks:
// the IDs read back identical to those RETURNING gave (canonical, the same bytes as the server's text);
// ORDER BY id is PHP's strcmp order; each ID's time as the server reads it equals its time read in PHP as
// the spec says, to the microsecond, and a window on that exact time finds it; prefix (^@), window
// (<@ tstzrange, from a client in Asia/Dhaka, ±10 minutes) and = ANY(array literal) queries built the
// layer's way return exactly the IDs a PHP filter over all rows returns, and EXPLAIN shows them read from
// an index range (Index Cond with both bounds; enable_seqscan off, since 900 rows might be read whole);
// keyset pages; an invalid ID raises 22P02, caught by SQLSTATE as the layer reports it; what goes wrong
// otherwise (times without microseconds or offset; lastInsertId; Laravel's unknown operator; Eloquent's
// insertGetId on an ID of digits; Doctrine without the types) goes wrong as docs/clients.md says. PDO also
// moves a CHAR(20) and a bytea TBSL column to tbsl in place. Prints `ok` / `FAIL` lines.
declare(strict_types=1);

require __DIR__ . '/common.php';

$layer = $argv[1] ?? '';
$defaultRows = 300;
$spreadRows = 600;
$dhaka = new DateTimeZone('Asia/Dhaka');
date_default_timezone_set('Asia/Dhaka'); // the application's zone; the session's stays the server's (UTC)

switch ($layer) {
    case 'pdo':
        $pdo = new PDO('pgsql:', null, null, [PDO::ATTR_ERRMODE => PDO::ERRMODE_EXCEPTION]);
        $q = function (string $sql, array $params = []) use ($pdo): array {
            $s = $pdo->prepare($sql);
            $s->execute($params);
            return $s->fetchAll(PDO::FETCH_ASSOC);
        };
        $state = fn (Throwable $e) => $e instanceof PDOException ? $e->getCode() . '/' . ($e->errorInfo[0] ?? '') : get_class($e);
        $wanted = '22P02/22P02';
        $make = fn (string $type, string $table) => $pdo->exec("CREATE TABLE $table (id $type PRIMARY KEY DEFAULT {$type}_generate(), n int NOT NULL)");
        $insert = function (string $type, string $table, int $n) use ($pdo): string {
            $s = $pdo->prepare("INSERT INTO $table (n) VALUES (?) RETURNING id");
            $s->execute([$n]);
            return $s->fetchColumn();
        };
        $prefixQuery = fn (string $table, string $p) => ["SELECT id FROM $table WHERE id ^@ ?", [$p]];
        $windowQuery = fn (string $table, DateTimeInterface $from, DateTimeInterface $to) =>
            ["SELECT id FROM $table WHERE id <@ tstzrange(?, ?)", [$from->format('Y-m-d\TH:i:s.uP'), $to->format('Y-m-d\TH:i:s.uP')]];
        $anyQuery = fn (string $table, array $ids) => ["SELECT id FROM $table WHERE id = ANY(?)", ['{' . implode(',', $ids) . '}']];
        break;

    case 'doctrine':
        require '/usr/share/php/Doctrine/DBAL/autoload.php';
        require __DIR__ . '/../../clients/php/Doctrine.php';
        $conn = Doctrine\DBAL\DriverManager::getConnection(['driver' => 'pdo_pgsql', 'host' => getenv('PGHOST'),
            'port' => (int) getenv('PGPORT'), 'user' => getenv('PGUSER'), 'dbname' => getenv('PGDATABASE')]);
        $conn->executeStatement('CREATE TABLE before_types (id tbsl PRIMARY KEY)');
        $unknown = '';
        try {
            $conn->createSchemaManager()->introspectTable('before_types');
        } catch (Throwable $e) {
            $unknown = $e->getMessage();
        }
        check(str_contains($unknown, 'Unknown database type tbsl requested'),
            'doctrine: without the types, introspecting a tbsl column fails ("Unknown database type tbsl requested")', $unknown);
        Idtypes\Doctrine\register($conn);
        $q = fn (string $sql, array $params = []) => $conn->fetchAllAssociative($sql, $params);
        $state = fn (Throwable $e) => $e instanceof Doctrine\DBAL\Exception\DriverException ? $e->getSQLState() : get_class($e);
        $wanted = '22P02';
        $make = function (string $type, string $table) use ($conn): void {
            $sm = $conn->createSchemaManager();
            $t = new Doctrine\DBAL\Schema\Table($table);
            Idtypes\Doctrine\generatedId($t, 'id', $type);
            $t->addColumn('n', 'integer');
            $sm->createTable($t);
            $read = $sm->introspectTable($table);
            $diff = $sm->createComparator()->compareTables($read, $t);
            $alter = $conn->getDatabasePlatform()->getAlterTableSQL($diff);
            check($read->getColumn('id')->getType() === Doctrine\DBAL\Types\Type::getType($type) && $diff->isEmpty() && $alter === [],
                "doctrine $type: the schema tool makes the table, introspection reads the column as the $type Type, the comparison finds nothing to change",
                get_class($read->getColumn('id')->getType()) . ', ' . json_encode($alter));
        };
        $insert = fn (string $type, string $table, int $n) => $conn->fetchOne("INSERT INTO $table (n) VALUES (?) RETURNING id", [$n]);
        $builder = fn (string $table) => $conn->createQueryBuilder()->select('id')->from($table);
        $sqlOf = fn (Doctrine\DBAL\Query\QueryBuilder $qb) => [$qb->getSQL(), $qb->getParameters()];
        $prefixQuery = fn (string $table, string $p) => $sqlOf($builder($table)->where('id ^@ :prefix')->setParameter('prefix', $p));
        $windowQuery = fn (string $table, DateTimeInterface $from, DateTimeInterface $to) => $sqlOf($builder($table)
            ->where('id <@ tstzrange(:from, :to)')
            ->setParameter('from', $from->format('Y-m-d\TH:i:s.uP'))->setParameter('to', $to->format('Y-m-d\TH:i:s.uP')));
        $anyQuery = fn (string $table, array $ids) => $sqlOf($builder($table)->where('id = ANY(:ids)')->setParameter('ids', '{' . implode(',', $ids) . '}'));
        break;

    case 'laravel':
        require '/usr/share/php/Illuminate/Database/autoload.php';
        require __DIR__ . '/../../clients/php/Laravel.php';
        $capsule = new Illuminate\Database\Capsule\Manager();
        $capsule->addConnection(['driver' => 'pgsql', 'host' => getenv('PGHOST'), 'port' => getenv('PGPORT'),
            'database' => getenv('PGDATABASE'), 'username' => getenv('PGUSER'), 'password' => '']);
        $capsule->setAsGlobal();
        $capsule->bootEloquent();
        $unknown = '';
        try {
            $capsule->schema()->create('before_macros', fn (Illuminate\Database\Schema\Blueprint $t) => $t->addColumn('tbsl', 'id'));
        } catch (Throwable $e) {
            $unknown = get_class($e) . ': ' . $e->getMessage();
        }
        check(str_starts_with($unknown, 'BadMethodCallException') && str_contains($unknown, 'typeTbsl'),
            "laravel: without the grammar macros, a migration's addColumn('tbsl', 'id') fails (BadMethodCallException, typeTbsl)", $unknown);
        Idtypes\Laravel\register();
        $db = $capsule->getConnection();
        $q = fn (string $sql, array $params = []) => array_map(fn ($r) => (array) $r, $db->select($sql, $params));
        $state = fn (Throwable $e) => $e instanceof Illuminate\Database\QueryException ? $e->getCode() . '/' . ($e->errorInfo[0] ?? '') : get_class($e);
        $wanted = '22P02/22P02';
        eval('class IdRow extends Illuminate\Database\Eloquent\Model {
            use Idtypes\Laravel\GeneratedKey;
            protected $keyType = "string";
            public $incrementing = false;
            public $timestamps = false;
            protected $guarded = [];
        }
        class PlainRow extends Illuminate\Database\Eloquent\Model { // keyed the way Eloquent does integers
            protected $keyType = "string";
            public $timestamps = false;
            protected $guarded = [];
        }');
        $make = function (string $type, string $table) use ($capsule, $q): void {
            $capsule->schema()->create($table, function (Illuminate\Database\Schema\Blueprint $t) use ($type) {
                $t->{$type}('id')->primary()->default(new Illuminate\Database\Query\Expression("{$type}_generate()"));
                $t->integer('n');
            });
            $col = $q("SELECT format_type(atttypid, atttypmod) AS type, pg_get_expr(adbin, adrelid) AS def
                FROM pg_attribute LEFT JOIN pg_attrdef ON adrelid = attrelid AND adnum = attnum
                WHERE attrelid = ?::regclass AND attname = 'id'", [$table])[0];
            check($col['type'] === $type && $col['def'] === "{$type}_generate()",
                "laravel $type: a migration declares the column by the grammar macro, with the generator as its DEFAULT", json_encode($col));
        };
        $insert = function (string $type, string $table, int $n): string {
            $row = new IdRow(['n' => $n]);
            $row->setTable($table);
            $row->save();
            return $row->id;
        };
        $sqlOf = fn (Illuminate\Database\Query\Builder $b) => [$b->toSql(), $b->getBindings()];
        $prefixQuery = fn (string $table, string $p) => $sqlOf($db->table($table)->select('id')->wherePrefix('id', $p));
        $windowQuery = fn (string $table, DateTimeInterface $from, DateTimeInterface $to) => $sqlOf($db->table($table)->select('id')->whereWithin('id', $from, $to));
        $anyQuery = fn (string $table, array $ids) => $sqlOf($db->table($table)->select('id')->whereAnyOf('id', $ids));
        break;

    default:
        fwrite(STDERR, "usage: round.php pdo|doctrine|laravel\n");
        exit(2);
}

$column = fn (array $rows, string $name = 'id') => array_column($rows, $name);
$run = fn (array $query) => $column($q(...$query));
// the plan's lines, through the layer, with the same parameters
$plan = fn (array $query) => implode("\n", $column($q('EXPLAIN ' . $query[0], $query[1]), 'QUERY PLAN'));
$ranged = fn (string $plan, string $type) => !str_contains($plan, 'Seq Scan')
    && preg_match("/Index Cond: \(\(id >= '[^']+'::$type\) AND \(id <=? '[^']+'::$type\)\)/", $plan) === 1;
$q('SET enable_seqscan = off');

foreach (ID_TYPES as $type) {
    $table = "{$layer}_$type";
    $make($type, $table);
    $made = [];
    for ($i = 1; $i <= $defaultRows; $i++) {
        $made[] = $insert($type, $table, $i);
    }
    $made = array_merge($made, $column($q("INSERT INTO $table (id, n) SELECT {$type}_generate_at(now() - g * interval '7 seconds'), g
        FROM generate_series(1, $spreadRows) g RETURNING id")));
    $rows = $q("SELECT id, {$type}_timestamp(id) AS at, encode(convert_to(id::text, 'UTF8'), 'hex') AS hex FROM $table ORDER BY id");
    $ids = $column($rows);

    $sorted = $made;
    usort($sorted, 'strcmp');
    $canonical = array_filter($ids, fn ($id) => is_string($id) && preg_match(CANONICAL[$type], $id) === 1);
    $sameBytes = array_filter($rows, fn ($r) => bin2hex($r['id']) === $r['hex']);
    check(count(array_unique($made)) === count($made) && count($canonical) === count($made) && count($sameBytes) === count($made),
        "$layer $type: " . count($made) . " IDs from the generator, by the DEFAULT (RETURNING) and T_generate_at, read back as the same canonical strings, byte for byte");
    check($ids === $sorted, "$layer $type: ORDER BY id is PHP's strcmp order of the IDs made");

    $wrong = array_filter($rows, fn ($r) => pg_time($r['at']) !== id_time($type, $r['id']));
    check(count($wrong) === 0, "$layer $type: each ID's time as the server reads it equals its time read in PHP as the spec says, to the microsecond",
        count($wrong) . ' differ, e.g. ' . json_encode(array_values($wrong)[0] ?? null));
    $own = array_merge(array_slice($ids, 0, 50), array_slice($ids, -50));
    $misses = 0;
    foreach ($own as $id) {
        [$s, $us] = explode('.', id_time($type, $id));
        $at = DateTimeImmutable::createFromFormat('U.u', "$s.$us")->setTimezone($dhaka);
        $window = "SELECT id FROM $table WHERE id <@ tstzrange(?, ?, '[]')";
        $exact = in_array($id, $column($q($window, [$at->format('Y-m-d\TH:i:s.uP'), $at->format('Y-m-d\TH:i:s.uP')])), true);
        // DATE_ATOM: whole seconds, so [t, t] holds the ID only if its time is a whole second
        $atom = in_array($id, $column($q($window, [$at->format(DATE_ATOM), $at->format(DATE_ATOM)])), true);
        $misses += ($exact && $atom === ($us === '000000')) ? 0 : 1;
    }
    check($misses === 0, "$layer $type: tstzrange(t, t, '[]') on each of " . count($own) . " IDs' own time, written 'Y-m-d\\TH:i:s.uP' in Asia/Dhaka, finds it; written DATE_ATOM it does not (unless t is a whole second)",
        "$misses wrong");

    $p = some_prefix($ids);
    $query = $prefixQuery($table, $p);
    $want = array_values(array_filter($ids, fn ($id) => str_starts_with($id, $p)));
    $got = $run($query);
    usort($got, 'strcmp');
    $explained = $plan($query);
    check($got === $want && $ranged($explained, $type),
        "$layer $type: ^@ '$p' returns exactly the " . count($want) . " of " . count($ids) . " IDs str_starts_with() keeps, from an index range",
        count($got) . " rows; plan: " . str_replace("\n", ' | ', $explained));

    $center = (new DateTimeImmutable('now', $dhaka))->modify('-30 minutes');
    $from = $center->modify('-10 minutes');
    $to = $center->modify('+10 minutes');
    $query = $windowQuery($table, $from, $to);
    $want = in_window($ids, $type, $from, $to);
    $got = $run($query);
    usort($got, 'strcmp');
    $explained = $plan($query);
    check($got === $want && count($want) > 0 && count($want) < count($ids) && $ranged($explained, $type),
        "$layer $type: <@ tstzrange over ±10 minutes in Asia/Dhaka ({$from->format('H:i:s.uP')}) returns exactly the " . count($want) . " IDs a PHP filter on their times keeps, from an index range",
        count($got) . " rows; plan: " . str_replace("\n", ' | ', $explained));
    $naive = count($q("SELECT id FROM $table WHERE id <@ tstzrange(?, ?)", [$from->format('Y-m-d H:i:s.u'), $to->format('Y-m-d H:i:s.u')]));
    check($naive === 0, "$layer $type: the same window without its offset is read in the session's zone (UTC): 0 rows", "$naive rows");

    $pick = [$ids[3], $ids[100], $ids[500], $ids[count($ids) - 1]];
    $got = $run($anyQuery($table, $pick));
    usort($got, 'strcmp');
    check($got === $pick && str_contains($plan($anyQuery($table, $pick)), "Index Cond: (id = ANY ("),
        "$layer $type: = ANY(?) with an array literal of 4 IDs returns those 4, from the index");

    $pages = [];
    $last = null;
    do {
        $page = $column($last === null ? $q("SELECT id FROM $table ORDER BY id LIMIT 128") : $q("SELECT id FROM $table WHERE id > ? ORDER BY id LIMIT 128", [$last]));
        $pages = array_merge($pages, $page);
        $last = end($page);
    } while (count($page) === 128);
    check($pages === $ids, "$layer $type: keyset pages of 128 (id > ? ORDER BY id) return every ID once, in order");

    $bad = ['timeid' => '3kxmtyqiinc2!', 'tbsl' => 'DE0B6B3A7640000FFFFF', 'uid11' => '0OIl0OIl0OI', 'scru160' => str_repeat('W', 32)][$type];
    $got = sqlstate_of(fn () => $q("SELECT id FROM $table WHERE id = ?", [$bad]), $state);
    check($got === $wanted, "$layer $type: an invalid ID ('$bad') raises 22P02, caught by its SQLSTATE ($got)");
}

if ($layer === 'pdo') {
    $got = sqlstate_of(fn () => $pdo->lastInsertId(), $state);
    check($got === '55000/55000', "pdo: lastInsertId() after an INSERT by the DEFAULT fails with 55000 (no sequence): RETURNING id is the way", $got);
    // what Infocyph\UID's storage advice makes: CHAR(20) and (MySQL's BINARY(10), here) bytea
    $pdo->exec("CREATE TABLE legacy_char (id char(20) PRIMARY KEY, n int);
        CREATE TABLE legacy_bytes (id bytea PRIMARY KEY, n int);
        INSERT INTO legacy_char SELECT tbsl_generate_at(now() - g * interval '1 second')::text, g FROM generate_series(1, 1000) g;
        INSERT INTO legacy_bytes SELECT decode(id, 'hex'), n FROM legacy_char");
    $before = $column($q('SELECT id FROM legacy_char ORDER BY id'));
    $pdo->exec('ALTER TABLE legacy_char ALTER COLUMN id TYPE tbsl USING id::tbsl');
    $pdo->exec('ALTER TABLE legacy_bytes ALTER COLUMN id TYPE tbsl USING id::tbsl');
    $after = $q("SELECT c.id AS c, b.id AS b, format_type(a1.atttypid, -1) || format_type(a2.atttypid, -1) AS types
        FROM legacy_char c JOIN legacy_bytes b USING (n),
             pg_attribute a1, pg_attribute a2
        WHERE a1.attrelid = 'legacy_char'::regclass AND a1.attname = 'id' AND a2.attrelid = 'legacy_bytes'::regclass AND a2.attname = 'id'
        ORDER BY c.id");
    $explained = $plan(['SELECT id FROM legacy_bytes WHERE id ^@ ?', [substr($before[500], 0, 12)]]);
    check($column($after, 'c') === $before && $column($after, 'b') === $before && ($after[0]['types'] ?? '') === 'tbsltbsl' && $ranged($explained, 'tbsl'),
        'pdo: CHAR(20) and bytea TBSL columns of 1,000 rows move in place (ALTER COLUMN id TYPE tbsl USING id::tbsl): the same IDs, in order, primary keys serving ^@');
    $pdo->exec("CREATE TABLE legacy_bad (id char(20) PRIMARY KEY); INSERT INTO legacy_bad VALUES ('27E017BB048082048536'), ('27e017bb048082048537')");
    $got = sqlstate_of(fn () => $pdo->exec('ALTER TABLE legacy_bad ALTER COLUMN id TYPE tbsl USING id::tbsl'), $state);
    $found = $column($q('SELECT id FROM legacy_bad WHERE tbsl_or_null(id) IS NULL'));
    check($got === '22P02/22P02' && $found === ['27e017bb048082048537'], 'pdo: a column holding a non-canonical TBSL is refused whole (22P02); tbsl_or_null(id) IS NULL finds the row', "$got, " . json_encode($found));
}

if ($layer === 'doctrine') {
    // Doctrine's datetimetz is 'Y-m-d H:i:sO': whole seconds
    $at = new DateTimeImmutable('2026-01-02 03:04:05.678901', new DateTimeZone('Asia/Dhaka'));
    $sent = $conn->fetchOne('SELECT ?::timestamptz', [$at], [Doctrine\DBAL\Types\Types::DATETIMETZ_IMMUTABLE]);
    check(pg_time($sent) === '1767301445.000000', "doctrine: a DateTime bound as datetimetz_immutable loses its microseconds ($sent): format times as strings", $sent);
    // DBAL writes a default as a literal: adding the generator to an existing column is for SQL
    $sm = $conn->createSchemaManager();
    $t = new Doctrine\DBAL\Schema\Table('before_types');
    Idtypes\Doctrine\generatedId($t, 'id', 'tbsl');
    $alter = $conn->getDatabasePlatform()->getAlterTableSQL($sm->createComparator()->compareTables($sm->introspectTable('before_types'), $t));
    $got = sqlstate_of(fn () => array_map([$conn, 'executeStatement'], $alter), $state);
    check($alter === ["ALTER TABLE before_types ALTER id SET DEFAULT 'tbsl_generate()'"] && $got === '22P02',
        "doctrine: DBAL's ALTER adding the generator as a default writes it quoted, which fails with 22P02", json_encode($alter) . " $got");
}

if ($layer === 'laravel') {
    $table = 'laravel_tbsl';
    $got = sqlstate_of(fn () => $db->table($table)->where('id', '^@', '27E0')->get(), $state);
    check($got === '22P02/22P02', "laravel: where('id', '^@', \$p) becomes \"id\" = '^@' (an operator Laravel does not list is taken for the value): 22P02", $got);
    $at = new DateTimeImmutable('2026-01-02 03:04:05.678901', new DateTimeZone('Asia/Dhaka'));
    $sent = $db->selectOne('SELECT ?::timestamptz AS t', [$at])->t;
    check(pg_time($sent) === '1767323045.000000', "laravel: a DateTime binding is sent 'Y-m-d H:i:s', without microseconds or offset ($sent): whereWithin formats them", $sent);
    // a TBSL of decimal digits but one E, numeric to PHP (one in 1,845 of those of 2026-11-27 and 28)
    $digits = '27E01712345678901234';
    $capsule->schema()->create('digits', function (Illuminate\Database\Schema\Blueprint $t) use ($digits) {
        $t->tbsl('id')->primary()->default(new Illuminate\Database\Query\Expression("'$digits'::tbsl"));
        $t->integer('n');
    });
    $plain = (new PlainRow())->setTable('digits');
    $plain->fill(['n' => 1])->save();
    $db->table('digits')->delete();
    $keyed = (new IdRow())->setTable('digits');
    $keyed->fill(['n' => 2])->save();
    check((string) $plain->id === '0' && $keyed->id === $digits && $keyed->exists,
        "laravel: Eloquent's insertGetId reads the DEFAULT's '$digits' back as 0 (is_numeric, then an int); GeneratedKey reads the string", var_export($plain->id, true) . ', ' . var_export($keyed->id, true));
    $model = fn () => (new IdRow())->setTable($table)->newQuery();
    $all = $column($q("SELECT id FROM $table ORDER BY id"));
    $p = some_prefix($all);
    $viaModel = $model()->wherePrefix('id', $p)->orderBy('id')->pluck('id')->all();
    $one = $model()->find($all[7]);
    check($viaModel === array_values(array_filter($all, fn ($id) => str_starts_with($id, $p))) && $one !== null && $one->id === $all[7],
        "laravel: the macros through an Eloquent model's query (wherePrefix: " . count($viaModel) . " rows), find() by the string key");
}
finish();
