<?php
// idtypes for Laravel's database component (tested: Debian 12's php-illuminate-database 8.83;
// docs/clients.md#php): column types and foreign keys for migrations, query-builder macros for the
// operators Laravel does not know, collection macros in the database's order, and a trait for models keyed
// by an ID from the column's DEFAULT. Require this file (it requires Ids.php), then call register() once
// (a service provider's boot(), or after the Capsule is set up). Route keys: Route::pattern('post',
// \Idtypes\pattern('tbsl')).
declare(strict_types=1);

namespace Idtypes\Laravel;

require_once __DIR__ . '/Ids.php';

use DateTimeInterface;
use Illuminate\Database\Eloquent\Builder as EloquentBuilder;
use Illuminate\Database\Eloquent\Model;
use Illuminate\Database\Query\Builder;
use Illuminate\Database\Schema\Blueprint;
use Illuminate\Database\Schema\ForeignIdColumnDefinition;
use Illuminate\Database\Schema\Grammars\PostgresGrammar as SchemaGrammar;
use Illuminate\Support\Collection;
use Illuminate\Support\Fluent;

use function Idtypes\refuse_nul;

// A time for tstzrange(): with microseconds and its offset. Laravel formats a DateTime binding with the
// grammar's 'Y-m-d H:i:s', which drops both: the window then starts at the whole second, read in the
// session's time zone.
function timestamp(DateTimeInterface|string $time): string
{
    return $time instanceof DateTimeInterface ? $time->format('Y-m-d\TH:i:s.uP') : $time;
}

function register(): void
{
    foreach (\Idtypes\TYPES as $type) {
        // $table->addColumn('tbsl', 'id') asks the grammar for typeTbsl(); $table->tbsl('id') is short for it
        SchemaGrammar::macro('type' . ucfirst($type), fn (Fluent $column) => $type);
        Blueprint::macro($type, function (string $column) use ($type) {
            /** @var Blueprint $this */
            return $this->addColumn($type, $column);
        });
        // foreignIdFor(Post::class) makes a uuid column for a model keyed by a string (42804 against a
        // tbsl key): $table->foreignTbslFor(Post::class)->constrained() makes post_id tbsl referencing
        // posts(id), the model's table and key; $table->foreignTbsl('post_id') as foreignId does. Neither
        // has a DEFAULT.
        Blueprint::macro('foreign' . ucfirst($type), function (string $column) use ($type) {
            /** @var Blueprint $this */
            return $this->addColumnDefinition(new ForeignIdColumnDefinition($this, ['type' => $type, 'name' => $column]));
        });
        Blueprint::macro('foreign' . ucfirst($type) . 'For', function (Model|string $model, ?string $column = null) use ($type) {
            /** @var Blueprint $this */
            $model = is_string($model) ? new $model() : $model;
            return $this->addColumnDefinition(new ForeignKeyFor($this, ['type' => $type,
                'name' => $column ?? $model->getForeignKey(), 'modelTable' => $model->getTable(), 'modelKey' => $model->getKeyName()]));
        });
    }
    // the database's order (strcmp) for IDs in collections: sortBy('id') and max('id') compare two
    // numeric strings as numbers (28000000000000000001 < 27E40123456789012345, about 2.7e41). KEY null:
    // a collection of IDs.
    Collection::macro('sortById', function (?string $key = 'id', bool $descending = false) {
        /** @var Collection $this */
        return $this->sortBy($key, SORT_STRING, $descending);
    });
    Collection::macro('maxId', function (?string $key = 'id') {
        /** @var Collection $this */
        return extreme_id($this, $key, 1);
    });
    Collection::macro('minId', function (?string $key = 'id') {
        /** @var Collection $this */
        return extreme_id($this, $key, -1);
    });
    // where('id', '^@', $p) would not do: Laravel takes an operator it does not list for the value, and
    // writes `"id" = '^@'`
    // the extension's operators by its schema (Ids.php: extension_schema)
    Builder::macro('wherePrefix', function (string $column, string $prefix) {
        /** @var Builder $this */
        return $this->whereRaw($this->getGrammar()->wrap($column) . ' OPERATOR(' . schema($this) . '.^@) ?', [refuse_nul($prefix)]);
    });
    Builder::macro('whereWithin', function (string $column, DateTimeInterface|string $from, DateTimeInterface|string $to) {
        /** @var Builder $this */
        return $this->whereRaw($this->getGrammar()->wrap($column) . ' OPERATOR(' . schema($this) . '.<@) pg_catalog.tstzrange(?, ?)', [timestamp($from), timestamp($to)]);
    });
    // one array parameter (whereIn writes one parameter per ID): an array literal of quoted elements
    Builder::macro('whereAnyOf', function (string $column, array $ids) {
        /** @var Builder $this */
        return $this->whereRaw($this->getGrammar()->wrap($column) . ' = ANY(?)', [\Idtypes\array_literal($ids)]);
    });
}

// The extension's schema in the database of QUERY's connection
function schema(Builder $query): string
{
    $connection = $query->getConnection();
    return \Idtypes\extension_schema($connection, fn (string $sql) => $connection->selectOne($sql)?->schema);
}

// The largest (SIGN 1) or smallest (SIGN -1) ID of ITEMS (at KEY, or the items themselves) in strcmp order
function extreme_id(Collection $items, ?string $key, int $sign): mixed
{
    return ($key === null ? $items : $items->pluck($key))
        ->reduce(fn ($best, $id) => $best === null || $sign * strcmp((string) $id, (string) $best) > 0 ? $id : $best);
}

// For an Eloquent model keyed by an ID column whose DEFAULT is the generator: a model saved without a key
// gets the one the server made. Eloquent reads a new key back only for an incrementing model, through
// insertGetId, whose PostgreSQL processor turns a key PHP finds numeric into an int: a TBSL of decimal
// digits with at most one E among them, such as 27E01712345678901234, comes back as 0 (one in 1,845 of the
// TBSLs of 2026-11-27 and 28, which begin 27E0; up to one in 740 on a day whose TBSLs begin with four
// decimal digits), and from 2027-02 one such as 28000000000000000001 as PHP_INT_MAX. Here the key counts
// as incrementing only while the model has none, and is read back as the string RETURNING gives.
trait GeneratedKey
{
    public function getIncrementing()
    {
        // the attribute itself: getKey() reads the casts, which ask this
        return ($this->attributes[$this->getKeyName()] ?? null) === null;
    }

    public function getKeyType()
    {
        return 'string';
    }

    protected function insertAndSetId(EloquentBuilder $query, $attributes)
    {
        // a key set to null (create(['id' => null, ...]), a form's empty field) is no key: the DEFAULT's
        unset($attributes[$this->getKeyName()]);
        $base = $query->getQuery();
        $sql = $base->getGrammar()->compileInsertGetId($base, $attributes, $keyName = $this->getKeyName());
        $connection = $base->getConnection();
        $row = $connection->selectFromWriteConnection($sql, $base->cleanBindings($attributes))[0];
        // as Connection::insert() does: with 'sticky' => true, reads after this write go to the writer
        $connection->recordsHaveBeenModified();
        $this->setAttribute($keyName, $row->{$keyName});
    }
}

// foreignIdFor's column for a model keyed by an ID: constrained() with no arguments references the model's
// table and key (Laravel 8's foreignIdFor guesses the table from the column's name)
final class ForeignKeyFor extends ForeignIdColumnDefinition
{
    public function constrained($table = null, $column = null, $indexName = null)
    {
        return parent::constrained($table ?? $this->modelTable, $column ?? $this->modelKey, $indexName);
    }
}
