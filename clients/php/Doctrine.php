<?php
// idtypes for Doctrine DBAL 3 (tested: Debian 12's php-doctrine-dbal 3.6; docs/clients.md#php): a Type
// per ID format, so that DBAL introspects such a column as the type and its schema comparison finds
// nothing to change; a schema manager that lists no schema of the extension's; lastInsertId() refused. Require
// this file, then call register() once per connection. The ORM's pieces are in DoctrineORM.php.
declare(strict_types=1);

namespace Idtypes\Doctrine;

require_once __DIR__ . '/Ids.php';

use Doctrine\DBAL\Connection;
use Doctrine\DBAL\Driver;
use Doctrine\DBAL\Driver\Connection as DriverConnection;
use Doctrine\DBAL\Driver\Middleware;
use Doctrine\DBAL\Driver\Middleware\AbstractConnectionMiddleware;
use Doctrine\DBAL\Driver\Middleware\AbstractDriverMiddleware;
use Doctrine\DBAL\Platforms\AbstractPlatform;
use Doctrine\DBAL\Platforms\PostgreSQLPlatform;
use Doctrine\DBAL\Schema\AbstractSchemaManager;
use Doctrine\DBAL\Schema\Column;
use Doctrine\DBAL\Schema\PostgreSQLSchemaManager;
use Doctrine\DBAL\Schema\SchemaManagerFactory as DbalSchemaManagerFactory;
use Doctrine\DBAL\Schema\Table;
use Doctrine\DBAL\Types\Type;

// An ID is a string both ways (its canonical text), bound as a string parameter: Type's defaults.
abstract class IdType extends Type
{
    public const NAME = '';

    public function getName(): string
    {
        return static::NAME;
    }

    public function getSQLDeclaration(array $column, AbstractPlatform $platform): string
    {
        return static::NAME;
    }

    public function getMappedDatabaseTypes(AbstractPlatform $platform): array
    {
        return [static::NAME];
    }

    // a NUL byte refused here, where the ORM and typed parameters bind an ID (Ids.php)
    public function convertToDatabaseValue($value, AbstractPlatform $platform): mixed
    {
        return \Idtypes\refuse_nul($value);
    }

    // the database type names the Type, so no "(DC2Type:...)" column comment is needed to read it back
    public function requiresSQLCommentHint(AbstractPlatform $platform): bool
    {
        return false;
    }
}

final class TimeidType extends IdType
{
    public const NAME = 'timeid';
}

final class TbslType extends IdType
{
    public const NAME = 'tbsl';
}

final class Uid11Type extends IdType
{
    public const NAME = 'uid11';
}

final class Scru160Type extends IdType
{
    public const NAME = 'scru160';
}

const TYPES = [TimeidType::class, TbslType::class, Uid11Type::class, Scru160Type::class];

// The four Types in DBAL's registry (once per process) and the four database types mapped to them on the
// connection's platform (without it, introspection fails: "Unknown database type tbsl requested").
function register(Connection $connection): void
{
    $platform = $connection->getDatabasePlatform();
    foreach (TYPES as $class) {
        if (!Type::hasType($class::NAME)) {
            Type::addType($class::NAME, $class);
        }
        $platform->registerDoctrineTypeMapping($class::NAME, $class::NAME);
    }
}

// The extension's schema (Ids.php), for the ORM's generators and DQL functions
function extension_schema(Connection $connection): string
{
    return \Idtypes\extension_schema($connection, fn (string $sql) => $connection->fetchOne($sql));
}

// A primary-key column of TYPE whose value comes from the server's generator (its DEFAULT). DBAL writes a
// default as a quoted literal, so CREATE TABLE takes the column's SQL from columnDefinition; the default
// is also set as the text introspection reads back, so that a schema comparison finds nothing to change.
function generatedId(Table $table, string $name, string $type): Column
{
    $generator = $type . '_generate()';
    $column = $table->addColumn($name, $type, [
        'notnull' => true,
        'default' => $generator,
        'columnDefinition' => "$type NOT NULL DEFAULT $generator",
    ]);
    $table->setPrimaryKey([$name]);
    return $column;
}

// A schema manager that lists no schema of the extension itself (idtypes_internal: the carrier of its mark
// across pg_upgrade), which would otherwise appear in every schema comparison: DBAL lists every schema
// information_schema.schemata shows the role (its owner's, or one it has a privilege on), and its schema
// filter does not apply to schemas, so a migration's down() would hold CREATE SCHEMA idtypes_internal (42P06
// when run). Found by the extension's membership, not by name. For the connection's configuration:
//   $config->setSchemaManagerFactory(new Idtypes\Doctrine\SchemaManagerFactory())
// (not a postGenerateSchema listener declaring the schema: the schema tool's create would then run
// CREATE SCHEMA idtypes_internal).
final class SchemaManagerFactory implements DbalSchemaManagerFactory
{
    public function createSchemaManager(Connection $connection): AbstractSchemaManager
    {
        $platform = $connection->getDatabasePlatform();
        return $platform instanceof PostgreSQLPlatform ? new SchemaManager($connection, $platform) : $platform->createSchemaManager($connection);
    }
}

final class SchemaManager extends PostgreSQLSchemaManager
{
    private Connection $idtypesConnection;

    public function __construct(Connection $connection, PostgreSQLPlatform $platform)
    {
        parent::__construct($connection, $platform);
        $this->idtypesConnection = $connection;
    }

    // DBAL 4's introspectSchema() reads this
    public function listSchemaNames(): array
    {
        return $this->withoutExtensionSchemas(parent::listSchemaNames());
    }

    // DBAL 3's introspectSchema() reads this
    public function listNamespaceNames()
    {
        return $this->withoutExtensionSchemas(parent::listNamespaceNames());
    }

    // The extension's members (idtypes_internal), and the schema it was created in (CREATE EXTENSION idtypes
    // SCHEMA ids) while that holds no table, view or sequence of anything but an extension and is not where
    // the connection's tables go (current_schema(): public in a database whose extension is in public)
    private function withoutExtensionSchemas(array $names): array
    {
        $own = $this->idtypesConnection->fetchFirstColumn(<<<'SQL'
            SELECT n.nspname
            FROM pg_catalog.pg_depend d
            JOIN pg_catalog.pg_extension e ON e.oid OPERATOR(pg_catalog.=) d.refobjid
            JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) d.objid
            WHERE d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_namespace'::pg_catalog.regclass
              AND d.refclassid OPERATOR(pg_catalog.=) 'pg_catalog.pg_extension'::pg_catalog.regclass
              AND d.deptype OPERATOR(pg_catalog.=) 'e' AND e.extname OPERATOR(pg_catalog.=) 'idtypes'
            UNION ALL
            SELECT n.nspname
            FROM pg_catalog.pg_extension e JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) e.extnamespace
            WHERE e.extname OPERATOR(pg_catalog.=) 'idtypes' AND n.nspname IS DISTINCT FROM pg_catalog.current_schema()
              AND NOT EXISTS (SELECT FROM pg_catalog.pg_class c
                WHERE c.relnamespace OPERATOR(pg_catalog.=) n.oid AND c.relkind OPERATOR(pg_catalog.=) ANY ('{r,p,v,m,S,f}'::pg_catalog.char[])
                  AND NOT EXISTS (SELECT FROM pg_catalog.pg_depend m
                    WHERE m.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_class'::pg_catalog.regclass
                      AND m.objid OPERATOR(pg_catalog.=) c.oid AND m.deptype OPERATOR(pg_catalog.=) 'e'))
            SQL);
        return array_values(array_diff($names, $own));
    }
}

// DBAL middleware: lastInsertId() without a sequence name refused. It returns lastval(), the last value
// nextval() gave in this session for any sequence of any table: after an INSERT whose ID comes from an
// idtypes DEFAULT it is never that ID ('1' after one nextval() anywhere; SQLSTATE 55000 only in a session
// that has used no sequence). DBAL 4 has no sequence name: every lastInsertId() is lastval(). For an
// application whose tables' keys are idtypes': `$config->setMiddlewares([new LastInsertIdGuard()])`.
final class LastInsertIdGuard implements Middleware
{
    public function wrap(Driver $driver): Driver
    {
        return new class ($driver) extends AbstractDriverMiddleware {
            public function connect(array $params): DriverConnection
            {
                return new class (parent::connect($params)) extends AbstractConnectionMiddleware {
                    public function lastInsertId($name = null): int|string
                    {
                        if ($name === null) {
                            throw new \LogicException('idtypes: lastInsertId() reads lastval(), the last value of any sequence this session used, never an ID from a DEFAULT: use INSERT ... RETURNING id');
                        }
                        return parent::lastInsertId($name);
                    }
                };
            }
        };
    }
}
