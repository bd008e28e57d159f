<?php
// idtypes for Doctrine DBAL 3 (tested: Debian 12's php-doctrine-dbal 3.6; docs/clients.md#php):
// a Type per ID format, so that DBAL introspects such a column as the type and its schema comparison
// finds nothing to change. Require this file, then call register() once per connection.
declare(strict_types=1);

namespace Idtypes\Doctrine;

use Doctrine\DBAL\Connection;
use Doctrine\DBAL\Platforms\AbstractPlatform;
use Doctrine\DBAL\Schema\Column;
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
