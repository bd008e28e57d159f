<?php
// Doctrine ORM with clients/php/DoctrineORM.php (test/php/entities/: one entity per type and per way of
// mapping a generated key), over DBAL with its LastInsertIdGuard and SchemaManagerFactory: in a session that has used a sequence
// first (where lastInsertId() returns '1'), every entity gets its ID from its type's generator; the schema
// tool's tables compare equal to the database's both ways (a migration's up() and down()), as the
// extension's owner and as an application role that cannot see its schema; no DEFAULT on a foreign key;
// DQL's ID_PREFIX and ID_WITHIN return what PHP's filters do, from the index; a NUL byte is refused.
// Connects with PGHOST etc. Prints `ok` / `FAIL` lines.
declare(strict_types=1);

require __DIR__ . '/common.php';
require '/usr/share/php/Doctrine/DBAL/autoload.php';
require '/usr/share/php/Doctrine/ORM/autoload.php';
require __DIR__ . '/../../clients/php/DoctrineORM.php';

use Doctrine\DBAL\DriverManager;
use Doctrine\ORM\Configuration;
use Doctrine\ORM\EntityManager;
use Doctrine\ORM\Events;
use Doctrine\ORM\Mapping\Driver\AttributeDriver;
use Doctrine\ORM\Tools\SchemaTool;
use Idtypes\Doctrine\OrmListener;
use IdtypesTest\{Author, Book, ByAuto, ByIdentity, BySequence};

$state = fn (Throwable $e) => $e instanceof Doctrine\DBAL\Exception\DriverException ? $e->getSQLState() : get_class($e);

function entity_manager(string $user, bool $factory, bool $listener = true, ?string $database = null): EntityManager
{
    $dbal = new Doctrine\DBAL\Configuration();
    $dbal->setMiddlewares([new Idtypes\Doctrine\LastInsertIdGuard()]);
    $dbal->setSchemaManagerFactory($factory ? new Idtypes\Doctrine\SchemaManagerFactory() : new Doctrine\DBAL\Schema\DefaultSchemaManagerFactory());
    $conn = DriverManager::getConnection(['driver' => 'pdo_pgsql', 'host' => getenv('PGHOST'), 'port' => (int) getenv('PGPORT'),
        'user' => $user, 'dbname' => $database ?? getenv('PGDATABASE')], $dbal);
    Idtypes\Doctrine\register($conn);
    $config = new Configuration();
    $config->setMetadataDriverImpl(new AttributeDriver([__DIR__ . '/entities']));
    $config->setProxyDir(sys_get_temp_dir());
    $config->setProxyNamespace('IdtypesProxies');
    $config->addCustomStringFunction('ID_PREFIX', Idtypes\Doctrine\IdPrefix::class);
    $config->addCustomStringFunction('ID_WITHIN', Idtypes\Doctrine\IdWithin::class);
    $em = new EntityManager($conn, $config);
    if ($listener) {
        $em->getEventManager()->addEventListener(Events::loadClassMetadata, new OrmListener());
    }
    return $em;
}

// the SQL a migration's up() and down() would hold: the database's schema against the entities', both ways
function migration(EntityManager $em, string $default = 'public'): array
{
    $conn = $em->getConnection();
    $platform = $conn->getDatabasePlatform();
    $comparator = $conn->createSchemaManager()->createComparator();
    $database = $conn->createSchemaManager()->introspectSchema();
    $entities = (new SchemaTool($em))->getSchemaFromMetadata($em->getMetadataFactory()->getAllMetadata());
    // as doctrine-migrations' DiffGenerator does: the default schema (public) is the application's
    $entities->createNamespace($default);
    return [$platform->getAlterSchemaSQL($comparator->compareSchemas($database, $entities)),
        $platform->getAlterSchemaSQL($comparator->compareSchemas($entities, $database))];
}

$em = entity_manager(getenv('PGUSER'), true);
$conn = $em->getConnection();
$pdo = $conn->getNativeConnection();

// the database holds only what this test makes (run.sh's template has test/drivers/samples.sql)
$conn->executeStatement('DROP TABLE IF EXISTS samples');

// the trap: a sequence used first in this session
$conn->executeStatement('CREATE TEMP SEQUENCE used_first');
$conn->fetchOne("SELECT nextval('used_first')");
$conn->executeStatement('CREATE TEMP TABLE plain (id tbsl PRIMARY KEY DEFAULT tbsl_generate(), n int)');
$made = $conn->fetchOne('INSERT INTO plain (n) VALUES (1) RETURNING id');
$last = $pdo->lastInsertId();
$conn->executeStatement('DROP TABLE plain');
check($last === '1' && $made !== '1', "pdo: after one nextval() in the session, lastInsertId() after an INSERT by a tbsl DEFAULT returns '$last' (lastval()), not the row's $made", "$last $made");
$guarded = sqlstate_of(fn () => $conn->lastInsertId(), fn ($e) => get_class($e) . ': ' . $e->getMessage());
check(str_starts_with($guarded, 'LogicException: idtypes: lastInsertId() reads lastval()'),
    'doctrine: LastInsertIdGuard refuses lastInsertId() without a sequence name', $guarded);
$named = @$conn->lastInsertId('used_first'); // DBAL 3 deprecates the name; currval() of that sequence is right
check((string) $named === '1', "doctrine: LastInsertIdGuard passes lastInsertId('used_first') (currval of that sequence: '1')", var_export($named, true));

// the schema tool's tables
$metadata = $em->getMetadataFactory()->getAllMetadata();
check(count($metadata) === 5, 'orm: 5 entities read from test/php/entities', (string) count($metadata));
$generators = [];
foreach ($metadata as $class) {
    $generators[$class->getName()] = get_class($class->idGenerator);
}
check($generators === ['IdtypesTest\Author' => Idtypes\Doctrine\TbslGenerator::class, 'IdtypesTest\Book' => Idtypes\Doctrine\TimeidGenerator::class,
    'IdtypesTest\ByIdentity' => Idtypes\Doctrine\Uid11Generator::class, 'IdtypesTest\ByAuto' => Idtypes\Doctrine\Scru160Generator::class,
    'IdtypesTest\BySequence' => Idtypes\Doctrine\TbslGenerator::class],
    "orm: CUSTOM keys have the type's generator; IDENTITY (uid11), AUTO (scru160) and SEQUENCE (tbsl) get it from OrmListener", json_encode($generators));
(new SchemaTool($em))->createSchema($metadata);
$names = $conn->createSchemaManager()->listSchemaNames();
$plain = (new Doctrine\DBAL\Schema\DefaultSchemaManagerFactory())->createSchemaManager($conn)->listSchemaNames();
check(in_array('idtypes_internal', $plain, true) && !in_array('idtypes_internal', $names, true) && in_array('public', $names, true),
    "doctrine: DBAL's schema manager lists idtypes_internal; SchemaManagerFactory's does not (listSchemaNames, which DBAL 4's introspection reads)", json_encode($names));
[$up, $down] = migration($em);
check($up === [] && $down === [], "orm: as the extension's owner, the database's schema and the entities' compare equal both ways (a migration's up() and down() empty)", json_encode([$up, $down]));
$bare = entity_manager(getenv('PGUSER'), false);
[, $downBare] = migration($bare);
check(in_array('CREATE SCHEMA idtypes_internal', $downBare, true), "orm: with DBAL's own schema manager, down() holds CREATE SCHEMA idtypes_internal (which fails, 42P06)", json_encode($downBare));
$role = 'app_of_' . getenv('PGDATABASE'); // roles are the cluster's: one of this run's own
$conn->executeStatement("CREATE ROLE $role LOGIN; GRANT ALL ON SCHEMA public TO $role");
try {
    $app = entity_manager($role, true);
    [$up, $down] = migration($app);
    $seen = (int) $app->getConnection()->fetchOne("SELECT count(*) FROM information_schema.schemata WHERE schema_name = 'idtypes_internal'");
    check($seen === 0 && $up === [] && $down === [], 'orm: as an application role that cannot see idtypes_internal, both ways empty too', json_encode([$seen, $up, $down]));
    $app->getConnection()->close();
} finally {
    $conn->executeStatement("DROP OWNED BY $role; DROP ROLE $role");
}
// the extension in a schema of its own (docs/install.md: CREATE EXTENSION idtypes SCHEMA ids), last on the
// database's search_path: that schema is left out too, unless tables go there (first on the path)
$other = getenv('PGDATABASE') . '_schema'; // run.sh drops it
$conn->executeStatement("CREATE DATABASE $other");
$diffs = [];
foreach (['"$user", public, ids', 'ids, "$user", public'] as $path) {
    $setup = DriverManager::getConnection(['driver' => 'pdo_pgsql', 'host' => getenv('PGHOST'), 'port' => (int) getenv('PGPORT'), 'user' => getenv('PGUSER'), 'dbname' => $other]);
    $setup->executeStatement("DROP SCHEMA IF EXISTS ids CASCADE; DROP TABLE IF EXISTS authors, books, by_identity, by_auto, by_sequence; CREATE SCHEMA ids; CREATE EXTENSION idtypes SCHEMA ids; ALTER DATABASE $other SET search_path = $path");
    $setup->close();
    foreach ([true, false] as $factory) {
        $inIds = entity_manager(getenv('PGUSER'), $factory, true, $other);
        if ($factory) {
            (new SchemaTool($inIds))->createSchema($inIds->getMetadataFactory()->getAllMetadata());
        }
        $diffs[$path][$factory ? 'factory' : 'dbal'] = migration($inIds, $inIds->getConnection()->fetchOne('SELECT current_schema()'));
        $inIds->getConnection()->close();
    }
}
$ours = fn (array $diff) => preg_grep('/\bids\b|idtypes_internal/', array_merge(...$diff));
check($diffs['"$user", public, ids']['factory'] === [[], []] && $ours($diffs['ids, "$user", public']['factory']) === []
    && in_array('CREATE SCHEMA ids', $diffs['"$user", public, ids']['dbal'][1], true),
    'orm: the extension in schema ids: last on the search_path, both ways empty; first (the tables there too), nothing of ids or idtypes_internal (DBAL\'s own manager: down() holds CREATE SCHEMA ids)', json_encode($diffs));
$conn->executeStatement("DROP DATABASE $other");

$columns = $conn->fetchAllAssociative("SELECT attrelid::regclass::text || '.' || attname AS col, format_type(atttypid, atttypmod) AS type, pg_get_expr(adbin, adrelid) AS def
    FROM pg_attribute LEFT JOIN pg_attrdef ON adrelid = attrelid AND adnum = attnum
    WHERE attrelid IN ('books'::regclass, 'authors'::regclass) AND attname IN ('id', 'author_id') ORDER BY 1");
check($columns === [['col' => 'authors.id', 'type' => 'tbsl', 'def' => null], ['col' => 'books.author_id', 'type' => 'tbsl', 'def' => null], ['col' => 'books.id', 'type' => 'timeid', 'def' => null]],
    'orm: the schema tool writes the keys and the foreign key author_id as their types, none with a DEFAULT', json_encode($columns));
$fk = $conn->fetchOne("SELECT pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = 'books'::regclass AND contype = 'f'");
check($fk === 'FOREIGN KEY (author_id) REFERENCES authors(id)', 'orm: books.author_id references authors(id)', (string) $fk);

// IDs from the generators, in the session where lastInsertId() would say '1'
$entities = [];
foreach ([Author::class, ByIdentity::class, ByAuto::class, BySequence::class] as $class) {
    for ($i = 0; $i < 50; $i++) {
        $e = new $class();
        $em->persist($e);
        $entities[] = $e;
    }
}
$authors = array_values(array_filter($entities, fn ($e) => $e instanceof Author));
foreach ($authors as $a) {
    $b = new Book();
    $b->author = $a;
    $em->persist($b);
    $entities[] = $b;
}
$em->flush();
$em->clear();
$tables = [Author::class => ['authors', 'tbsl'], Book::class => ['books', 'timeid'], ByIdentity::class => ['by_identity', 'uid11'],
    ByAuto::class => ['by_auto', 'scru160'], BySequence::class => ['by_sequence', 'tbsl']];
foreach ($tables as $class => [$table, $type]) {
    $ids = array_map(fn ($e) => $e->id, array_filter($entities, fn ($e) => get_class($e) === $class));
    $stored = $conn->fetchFirstColumn("SELECT id FROM $table");
    $good = array_filter($ids, fn ($id) => is_string($id) && preg_match(CANONICAL[$type], $id) === 1);
    sort($ids, SORT_STRING);
    sort($stored, SORT_STRING);
    check(count($good) === 50 && $ids === $stored && count(array_unique($ids)) === 50,
        "orm $type ($table): 50 entities flushed, each id the $type of its row", json_encode(array_slice($ids, 0, 2)));
}
// a flush rolled back (its second INSERT fails), then the same entities persisted again in a new manager:
// each gets a new ID, and the entity's ID is its row's
$conn->executeStatement("CREATE UNIQUE INDEX one_retry ON authors (name) WHERE name = 'retry'");
$retry = entity_manager(getenv('PGUSER'), true);
[$first, $second] = [new Author(), new Author()];
$first->name = $second->name = 'retry';
$retry->persist($first);
$retry->persist($second);
$rolledBack = sqlstate_of(fn () => $retry->flush(), $state);
$before = [$first->id, $second->id];
$second->name = 'retried';
$retry = entity_manager(getenv('PGUSER'), true);
$retry->persist($first);
$retry->persist($second);
$retry->flush();
$stored = $conn->fetchAllKeyValue("SELECT name, id FROM authors WHERE name IN ('retry', 'retried')");
$conn->executeStatement("DROP INDEX one_retry; DELETE FROM authors WHERE name IN ('retry', 'retried')");
check($rolledBack === '23505' && $stored === ['retry' => $first->id, 'retried' => $second->id] && array_intersect($before, [$first->id, $second->id]) === [],
    'orm: a flush rolled back (23505), the same two entities persisted again: new IDs, each its row\'s', json_encode([$rolledBack, $before, $stored]));

// without OrmListener, ORM 2's IDENTITY asks currval() of a sequence that does not exist (ORM 3: lastval())
$plainOrm = entity_manager(getenv('PGUSER'), true, false);
$plainOrm->persist(new ByIdentity());
$noDefault = sqlstate_of(fn () => $plainOrm->flush(), $state);
$conn->executeStatement('ALTER TABLE by_identity ALTER id SET DEFAULT uid11_generate()');
$plainOrm = entity_manager(getenv('PGUSER'), true, false);
$plainOrm->persist(new ByIdentity());
$identity = sqlstate_of(fn () => $plainOrm->flush(), $state);
$conn->executeStatement('ALTER TABLE by_identity ALTER id DROP DEFAULT');
check($noDefault === '23502' && $identity === '42P01' && (int) $conn->fetchOne('SELECT count(*) FROM by_identity') === 50,
    "orm: without OrmListener, an IDENTITY uid11 entity is not stored: the ORM sends no id (23502), and with the generator as DEFAULT ORM 2.14 then asks currval('by_identity_id_seq'), which does not exist (42P01)", "$noDefault $identity");
$book = $em->find(Book::class, $conn->fetchOne('SELECT id FROM books LIMIT 1'));
check($book !== null && $book->author->id === $conn->fetchOne('SELECT author_id FROM books WHERE id = ?', [$book->id]), 'orm: find() by a timeid, and its author by the foreign key');

// DQL
$conn->executeStatement("INSERT INTO authors (id, name) SELECT tbsl_generate_at(now() - g * interval '3 seconds'), '' FROM generate_series(1, 600) g");
$conn->executeStatement('ANALYZE authors');
$all = $conn->fetchFirstColumn('SELECT id FROM authors ORDER BY id');
$p = some_prefix($all);
$query = $em->createQuery('SELECT a.id FROM IdtypesTest\Author a WHERE ID_PREFIX(a.id, :p) = true ORDER BY a.id')->setParameter('p', $p);
$got = array_column($query->getArrayResult(), 'id');
$plan = implode(' | ', $conn->fetchFirstColumn('EXPLAIN ' . $query->getSQL(), [$p]));
$want = array_values(array_filter($all, fn ($id) => str_starts_with($id, $p)));
check($got === $want && preg_match("/Index Cond: \(\((?:\w+\.)?id >= '[^']+'::tbsl\) AND \((?:\w+\.)?id <=? '[^']+'::tbsl\)\)/", $plan) === 1,
    "dql: ID_PREFIX(a.id, '$p') = true returns the " . count($want) . " IDs str_starts_with() keeps, from an index range", count($got) . "; $plan");
$to = new DateTimeImmutable('-5 minutes', new DateTimeZone('Asia/Dhaka'));
$from = $to->modify('-10 minutes');
$query = $em->createQuery('SELECT a.id FROM IdtypesTest\Author a WHERE ID_WITHIN(a.id, :from, :to) = true ORDER BY a.id')
    ->setParameter('from', $from->format('Y-m-d\TH:i:s.uP'))->setParameter('to', $to->format('Y-m-d\TH:i:s.uP'));
$got = array_column($query->getArrayResult(), 'id');
$want = in_window($all, 'tbsl', $from, $to);
$plan = implode(' | ', $conn->fetchFirstColumn('EXPLAIN ' . $query->getSQL(), [$from->format('Y-m-d\TH:i:s.uP'), $to->format('Y-m-d\TH:i:s.uP')]));
check($got === $want && count($want) > 0 && preg_match("/Index Cond: \(\((?:\w+\.)?id >= '[^']+'::tbsl\) AND \((?:\w+\.)?id <=? '[^']+'::tbsl\)\)/", $plan) === 1,
    'dql: ID_WITHIN(a.id, :from, :to) = true over 10 minutes in Asia/Dhaka returns the ' . count($want) . ' IDs a PHP filter keeps, from an index range', count($got) . "; $plan");
$like = sqlstate_of(fn () => $em->createQuery('SELECT a.id FROM IdtypesTest\Author a WHERE a.id LIKE :p')->setParameter('p', "$p%")->getResult(), $state);
check($like === '42883', "dql: a.id LIKE :p is 42883 (no ~~ for the types): ID_PREFIX is the way", $like);

// collections in memory: a TBSL of 2026 (27E4...: exponent notation to PHP) and two of 2027 (all digits)
$digits = ['28000000000000000002', '27E40123456789012345', '28000000000000000001'];
$ordered = $conn->fetchFirstColumn('SELECT id FROM unnest(?::tbsl[]) id ORDER BY id', ['{' . implode(',', $digits) . '}']);
$authors = new Doctrine\Common\Collections\ArrayCollection(array_map(function ($id) {
    $a = new Author();
    $a->id = $id;
    return $a;
}, $digits));
$byCriteria = array_map(fn ($a) => $a->id, array_values($authors->matching(Doctrine\Common\Collections\Criteria::create()->orderBy(['id' => 'ASC']))->toArray()));
$byIds = array_map(fn ($a) => $a->id, Idtypes\sort_by_id($authors->toArray(), 'id'));
check($ordered === ['27E40123456789012345', '28000000000000000001', '28000000000000000002'] && $byIds === $ordered
    && Idtypes\sort_by_id($digits, null, true) === array_reverse($ordered) && $byCriteria !== $ordered,
    "ids: sort_by_id() of entities and of IDs is ORDER BY id's order; a Doctrine collection's Criteria orderBy in memory is not (it compares with <)", json_encode([$byIds, $byCriteria]));

// a NUL byte: pdo_pgsql cuts the string; the Types refuse it
$id = $all[10];
$cut = $conn->fetchOne('SELECT count(*) FROM authors WHERE id = ?', [$id . "\0junk"]);
check((int) $cut === 1, "pdo_pgsql: an ID with \"\\0junk\" appended, as an untyped parameter, is sent cut at the NUL and finds the row", (string) $cut);
$refused = sqlstate_of(fn () => $em->find(Author::class, $id . "\0junk"), fn ($e) => get_class($e));
$typed = sqlstate_of(fn () => $conn->fetchOne('SELECT count(*) FROM authors WHERE id = ?', [$id . "\0junk"], ['tbsl']), fn ($e) => get_class($e));
check($refused === 'InvalidArgumentException' && $typed === 'InvalidArgumentException', "doctrine: through the Types (find(), a parameter typed 'tbsl') the NUL is refused before the server", "$refused $typed");
// a planted generator: a schema named like the role ("$user", first on the search_path), as a database
// owner can make, with its own tbsl_generate(); the ORM's generator calls the extension's by its schema
$user = $conn->quoteIdentifier(getenv('PGUSER'));
$conn->executeStatement("CREATE SCHEMA $user; CREATE FUNCTION $user.tbsl_generate() RETURNS tbsl LANGUAGE sql AS \$\$ SELECT '27E40000000000000000'::tbsl \$\$;
    CREATE FUNCTION $user.yes(tbsl, text) RETURNS bool LANGUAGE sql AS 'SELECT true'; CREATE OPERATOR $user.^@ (LEFTARG = tbsl, RIGHTARG = text, FUNCTION = $user.yes);
    CREATE FUNCTION $user.yes(tbsl, tstzrange) RETURNS bool LANGUAGE sql AS 'SELECT true'; CREATE OPERATOR $user.<@ (LEFTARG = tbsl, RIGHTARG = tstzrange, FUNCTION = $user.yes)");
$planted = entity_manager(getenv('PGUSER'), true);
$made = [];
for ($i = 0; $i < 5; $i++) {
    $planted->persist($a = new Author());
    $made[] = $a->id;
}
$flushed = sqlstate_of(fn () => $planted->flush(), $state);
$byName = $planted->getConnection()->fetchOne('SELECT tbsl_generate()');
$dql = [count($planted->createQuery('SELECT a.id FROM IdtypesTest\Author a WHERE ID_PREFIX(a.id, :p) = true')->setParameter('p', '1')->getResult()),
    count($planted->createQuery('SELECT a.id FROM IdtypesTest\Author a WHERE ID_WITHIN(a.id, :f, :t) = true')->setParameter('f', '1990-01-01')->setParameter('t', '1990-01-02')->getResult()),
    (int) $planted->getConnection()->fetchOne("SELECT count(*) FROM authors WHERE id ^@ '1'")];
$conn->executeStatement("DROP SCHEMA $user CASCADE");
check($flushed === 'none' && $byName === '27E40000000000000000' && !in_array($byName, $made, true) && count(array_unique($made)) === 5,
    "orm: with a planted $user.tbsl_generate() first on the search_path, 5 entities get the extension's IDs (SELECT tbsl_generate() gets the planted one)", $flushed . ' ' . json_encode($made));
check($dql[0] === 0 && $dql[1] === 0 && $dql[2] > 0, "dql: with planted $user.^@ and <@ first on the search_path, ID_PREFIX(a.id, '1') and ID_WITHIN over a day of 1990 find no author (id ^@ '1' by name: all {$dql[2]})", json_encode($dql));
finish();
