<?php
// idtypes for Doctrine ORM (tested: Debian 12's php-doctrine-orm 2.14 over DBAL 3.6; docs/clients.md#php):
// an ID generator per type, a listener that keeps the ORM's own strategies (IDENTITY, SEQUENCE, AUTO) off
// ID columns, and DQL functions for ^@ and <@.
// Require this file (it requires Doctrine.php), then register the listener and the functions (below).
declare(strict_types=1);

namespace Idtypes\Doctrine;

require_once __DIR__ . '/Doctrine.php';

use Doctrine\ORM\EntityManagerInterface;
use Doctrine\ORM\Event\LoadClassMetadataEventArgs;
use Doctrine\ORM\Id\AbstractIdGenerator;
use Doctrine\ORM\Mapping\ClassMetadata;
use Doctrine\ORM\Query\AST\Functions\FunctionNode;
use Doctrine\ORM\Query\AST\Node;
use Doctrine\ORM\Query\Parser;
use Doctrine\ORM\Query\SqlWalker;

// ORM: an entity's ID from the type's generator, called before the INSERT (`SELECT <schema>.T_generate()`,
// the extension's schema: extension_schema()): the UnitOfWork has the ID before it writes the row, as with
// a sequence. Map the ID as
// #[ORM\Id, ORM\Column(type: 'tbsl'), ORM\GeneratedValue(strategy: 'CUSTOM'), ORM\CustomIdGenerator(class: TbslGenerator::class)]
abstract class IdGenerator extends AbstractIdGenerator
{
    public const TYPE = '';

    public function generateId(EntityManagerInterface $em, $entity): string
    {
        $connection = $em->getConnection();
        return (string) $connection->fetchOne('SELECT ' . extension_schema($connection) . '.' . static::TYPE . '_generate()');
    }
}

final class TimeidGenerator extends IdGenerator
{
    public const TYPE = 'timeid';
}

final class TbslGenerator extends IdGenerator
{
    public const TYPE = 'tbsl';
}

final class Uid11Generator extends IdGenerator
{
    public const TYPE = 'uid11';
}

final class Scru160Generator extends IdGenerator
{
    public const TYPE = 'scru160';
}

const GENERATORS = ['timeid' => TimeidGenerator::class, 'tbsl' => TbslGenerator::class,
    'uid11' => Uid11Generator::class, 'scru160' => Scru160Generator::class];

// For an EntityManager's EventManager: $em->getEventManager()->addEventListener(Events::loadClassMetadata, new OrmListener())
final class OrmListener
{
    // An ID of one of the types mapped IDENTITY, SEQUENCE or AUTO gets the type's generator instead. IDENTITY
    // reads the key back by lastInsertId(): ORM 2 asks currval('<table>_<column>_seq'), a sequence that does
    // not exist (42P01); ORM 3 asks lastval(), the last value of any sequence this session used ('1' after
    // one nextval()), a wrong ID. SEQUENCE and AUTO (SEQUENCE on PostgreSQL in ORM 2) make a sequence of
    // integers.
    public function loadClassMetadata(LoadClassMetadataEventArgs $args): void
    {
        $class = $args->getClassMetadata();
        if (count($class->identifier) !== 1 || !($class->isIdGeneratorIdentity() || $class->isIdGeneratorSequence())) {
            return;
        }
        $generator = GENERATORS[$class->getTypeOfField($class->identifier[0])] ?? null;
        if ($generator !== null) {
            $class->setIdGeneratorType(ClassMetadata::GENERATOR_TYPE_CUSTOM);
            $class->setIdGenerator(new $generator());
        }
    }
}

// DQL: ID_PREFIX(e.id, :prefix) is `id ^@ prefix`, ID_WITHIN(e.id, :from, :to) `id <@ tstzrange(from, to)`
// (the extension's operators, by its schema),
// both served by the ID's index (DQL's LIKE on an ID is 42883: no `~~` for these types). DQL takes a
// function as a value: WHERE ID_PREFIX(e.id, :p) = true (PostgreSQL drops the `= true` before planning).
//   $config->addCustomStringFunction('ID_PREFIX', IdPrefix::class);
//   $config->addCustomStringFunction('ID_WITHIN', IdWithin::class);
abstract class IdCondition extends FunctionNode
{
    protected const ARGUMENTS = 0;
    /** @var list<Node> */
    public array $arguments = [];

    public function parse(Parser $parser): void
    {
        $parser->match(token('T_IDENTIFIER'));
        $parser->match(token('T_OPEN_PARENTHESIS'));
        for ($i = 0; $i < static::ARGUMENTS; $i++) {
            if ($i > 0) {
                $parser->match(token('T_COMMA'));
            }
            $this->arguments[] = $parser->ArithmeticPrimary();
        }
        $parser->match(token('T_CLOSE_PARENTHESIS'));
    }

    protected function sqlOf(SqlWalker $walker): array
    {
        return array_map(fn ($a) => $walker->walkArithmeticPrimary($a), $this->arguments);
    }

    // the operators by the extension's schema, as the generators: an operator of the same name and
    // arguments in a schema before it on the search_path would be used instead
    protected function schema(SqlWalker $walker): string
    {
        return extension_schema($walker->getConnection());
    }
}

// ORM 3 names the parser's tokens in the enum TokenType, ORM 2.14 in Lexer's constants
function token(string $name): mixed
{
    return defined("Doctrine\\ORM\\Query\\TokenType::$name") ? constant("Doctrine\\ORM\\Query\\TokenType::$name") : constant("Doctrine\\ORM\\Query\\Lexer::$name");
}

final class IdPrefix extends IdCondition
{
    protected const ARGUMENTS = 2;

    public function getSql(SqlWalker $sqlWalker): string
    {
        [$id, $prefix] = $this->sqlOf($sqlWalker);
        return "($id OPERATOR({$this->schema($sqlWalker)}.^@) $prefix)";
    }
}

final class IdWithin extends IdCondition
{
    protected const ARGUMENTS = 3;

    public function getSql(SqlWalker $sqlWalker): string
    {
        [$id, $from, $to] = $this->sqlOf($sqlWalker);
        return "($id OPERATOR({$this->schema($sqlWalker)}.<@) pg_catalog.tstzrange($from, $to))";
    }
}
