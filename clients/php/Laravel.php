<?php
// idtypes for Laravel's database component (tested: Debian 12's php-illuminate-database 8.83;
// docs/clients.md#php): column types for migrations, query-builder macros for the operators Laravel does
// not know, and a trait for models keyed by an ID from the column's DEFAULT. Require this file, then
// call register() once (a service provider's boot(), or after the Capsule is set up).
declare(strict_types=1);

namespace Idtypes\Laravel;

use DateTimeInterface;
use Illuminate\Database\Eloquent\Builder as EloquentBuilder;
use Illuminate\Database\Query\Builder;
use Illuminate\Database\Schema\Blueprint;
use Illuminate\Database\Schema\Grammars\PostgresGrammar as SchemaGrammar;
use Illuminate\Support\Fluent;

const TYPES = ['timeid', 'tbsl', 'uid11', 'scru160'];

// A time for tstzrange(): with microseconds and its offset. Laravel formats a DateTime binding with the
// grammar's 'Y-m-d H:i:s', which drops both: the window then starts at the whole second, read in the
// session's time zone.
function timestamp(DateTimeInterface|string $time): string
{
    return $time instanceof DateTimeInterface ? $time->format('Y-m-d\TH:i:s.uP') : $time;
}

function register(): void
{
    foreach (TYPES as $type) {
        // $table->addColumn('tbsl', 'id') asks the grammar for typeTbsl(); $table->tbsl('id') is short for it
        SchemaGrammar::macro('type' . ucfirst($type), fn (Fluent $column) => $type);
        Blueprint::macro($type, function (string $column) use ($type) {
            /** @var Blueprint $this */
            return $this->addColumn($type, $column);
        });
    }
    // where('id', '^@', $p) would not do: Laravel takes an operator it does not list for the value, and
    // writes `"id" = '^@'`
    Builder::macro('wherePrefix', function (string $column, string $prefix) {
        /** @var Builder $this */
        return $this->whereRaw($this->getGrammar()->wrap($column) . ' ^@ ?', [$prefix]);
    });
    Builder::macro('whereWithin', function (string $column, DateTimeInterface|string $from, DateTimeInterface|string $to) {
        /** @var Builder $this */
        return $this->whereRaw($this->getGrammar()->wrap($column) . ' <@ tstzrange(?, ?)', [timestamp($from), timestamp($to)]);
    });
    // one array parameter (whereIn writes one parameter per ID): an array literal, which the four formats'
    // alphabets never need to quote
    Builder::macro('whereAnyOf', function (string $column, array $ids) {
        /** @var Builder $this */
        return $this->whereRaw($this->getGrammar()->wrap($column) . ' = ANY(?)', ['{' . implode(',', $ids) . '}']);
    });
}

// For an Eloquent model keyed by an ID column whose DEFAULT is the generator: a model saved without a key
// gets the one the server made. Eloquent reads a new key back only for an incrementing model, through
// insertGetId, whose PostgreSQL processor turns a key PHP finds numeric into an int: a TBSL of decimal
// digits with at most one E among them, such as 27E01712345678901234, comes back as 0 (one in 1,845 of the
// TBSLs of 2026-11-27 and 28, which begin 27E0; up to one in 740 on a day whose TBSLs begin with four
// decimal digits). Here the key counts as incrementing only while the model has none, and is read back as
// the string RETURNING gives.
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
        $base = $query->getQuery();
        $sql = $base->getGrammar()->compileInsertGetId($base, $attributes, $keyName = $this->getKeyName());
        $row = $base->getConnection()->selectFromWriteConnection($sql, $base->cleanBindings($attributes))[0];
        $this->setAttribute($keyName, $row->{$keyName});
    }
}
