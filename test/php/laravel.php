<?php
// Laravel with clients/php/Laravel.php, beyond round.php: a read/write connection with 'sticky' (the read
// side a schema whose tables are empty) finds a model right after create(); route keys by
// \Idtypes\pattern(): a malformed key is a 404 from the router (a NUL byte too), a well-formed absent one
// ModelNotFoundException (404), and without the pattern the query's 22P02 (a 500); the pattern accepts
// exactly the canonical texts the server reads back the same; foreignTbslFor() etc. make a foreign key of
// the referenced type without a DEFAULT; collections in the database's order (sortById, maxId, minId)
// beside sortBy and max, which compare all-digit TBSLs as numbers. Connects with PGHOST etc.
declare(strict_types=1);

require __DIR__ . '/common.php';
foreach (['Database', 'Container', 'Events', 'Http', 'Routing'] as $part) {
    require "/usr/share/php/Illuminate/$part/autoload.php";
}
require __DIR__ . '/../../clients/php/Laravel.php';

use Illuminate\Database\Capsule\Manager as DB;
use Illuminate\Database\Eloquent\Model;
use Illuminate\Database\Eloquent\ModelNotFoundException;
use Illuminate\Database\QueryException;
use Illuminate\Database\Schema\Blueprint;
use Illuminate\Http\Request;
use Illuminate\Routing\Middleware\SubstituteBindings;
use Illuminate\Routing\Router;
use Symfony\Component\HttpKernel\Exception\NotFoundHttpException;

$base = ['driver' => 'pgsql', 'host' => getenv('PGHOST'), 'port' => getenv('PGPORT'), 'database' => getenv('PGDATABASE'),
    'username' => getenv('PGUSER'), 'password' => ''];
$capsule = new DB();
$capsule->addConnection($base);
// the replica: the same database, its search_path first a schema whose tables stay empty
$capsule->addConnection($base + ['read' => ['schema' => ['replica', 'public']], 'write' => ['schema' => 'public'], 'sticky' => true], 'split');
$capsule->setAsGlobal();
$capsule->bootEloquent();
Idtypes\Laravel\register();
$db = $capsule->getConnection();

foreach (Idtypes\TYPES as $type) {
    $capsule->schema()->create("{$type}_posts", function (Blueprint $t) use ($type) {
        $t->{$type}('id')->primary()->default(DB::raw("{$type}_generate()"));
        $t->text('body')->default('');
    });
}
$db->unprepared('CREATE SCHEMA replica; CREATE TABLE replica.tbsl_posts (LIKE public.tbsl_posts INCLUDING ALL)');
eval('class Post extends Illuminate\Database\Eloquent\Model {
    use Idtypes\Laravel\GeneratedKey;
    protected $table = "tbsl_posts";
    protected $keyType = "string";
    public $incrementing = false;
    public $timestamps = false;
    protected $guarded = [];
}
class SplitPost extends Post { protected $connection = "split"; }
class OtherPost extends Post { protected $connection = "split"; }');

// sticky connections
$existing = Post::create(['body' => 'on the writer']);
$unseen = OtherPost::find($existing->id);
$made = SplitPost::create(['body' => 'written']);
$found = SplitPost::find($made->id);
check($unseen === null && $found !== null && $found->id === $made->id,
    "laravel: with 'sticky' => true, find() right after create() reads the writer (GeneratedKey calls recordsHaveBeenModified); before any write the replica", var_export([$unseen, $found?->id], true));

// route keys
$container = new Illuminate\Container\Container();
Illuminate\Container\Container::setInstance($container);
$router = new Router(new Illuminate\Events\Dispatcher($container), $container);
$container->instance(Router::class, $router);
$container->instance(Illuminate\Contracts\Routing\Registrar::class, $router);
$router->pattern('post', Idtypes\pattern('tbsl'));
$router->get('posts/{post}', ['middleware' => SubstituteBindings::class, 'uses' => fn (Post $post) => $post->id]);
$router->get('raw/{post}', ['middleware' => SubstituteBindings::class, 'uses' => fn (Post $post) => $post->id]);
$get = function (string $uri) use ($router): string {
    try {
        return 'ok ' . $router->dispatch(Request::create($uri))->getContent();
    } catch (Throwable $e) {
        return $e instanceof QueryException ? 'QueryException ' . $e->getCode() : get_class($e);
    }
};
// 'raw' takes any key: Route::pattern('post') applies to every {post}, so the raw route names it otherwise
$router->getRoutes()->getRoutes()[1]->setWheres(['post' => '.*']);
$missing = substr($existing->id, 0, 15) . '00000';
$results = [
    $get("posts/{$existing->id}"), $get('posts/' . strtolower($existing->id)), $get("posts/{$existing->id}%00"),
    $get("posts/$missing"), $get('posts/FFFFFFFFFFFFFFFFFFFF'), $get('raw/' . strtolower($existing->id)),
];
check($results === ["ok {$existing->id}", NotFoundHttpException::class, NotFoundHttpException::class, ModelNotFoundException::class,
    NotFoundHttpException::class, 'QueryException 22P02'],
    "laravel: Route::pattern('post', pattern('tbsl')): the ID binds; lower case, a NUL byte, an overflowing TBSL: 404 from the router; a well-formed absent ID: ModelNotFoundException (404); without the pattern: 22P02 (a 500)",
    json_encode($results));

// what the router decodes before matching: a newline (%0A; its regex ends at $ with D), spaces, a full-width
// digit, a double-encoded newline: 404; a trailing slash or a query string: the ID
$decoded = array_map($get, ["posts/{$existing->id}%0A", "posts/%20{$existing->id}", "posts/{$existing->id}%20", 'posts/%EF%BC%92' . substr($existing->id, 1),
    "posts/{$existing->id}%250A", "posts/{$existing->id}/", "posts/{$existing->id}?x=1"]);
check($decoded === array_merge(array_fill(0, 5, NotFoundHttpException::class), array_fill(0, 2, "ok {$existing->id}")),
    'laravel: the route pattern refuses a key with a newline, spaces, a full-width digit or %250A (404); a trailing slash or a query string binds the ID', json_encode($decoded));

// the patterns against the server: canonical texts it reads back the same, and nothing else
foreach (Idtypes\TYPES as $type) {
    $alphabet = ['timeid' => '234567abcdefghijklmnopqrstuvwxyz', 'tbsl' => '0123456789ABCDEF',
        'uid11' => '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz', 'scru160' => '0123456789ABCDEFGHIJKLMNOPQRSTUV'][$type];
    $n = ['timeid' => 13, 'tbsl' => 20, 'uid11' => 11, 'scru160' => 32][$type];
    $texts = array_merge(
        array_column(array_map(fn ($r) => (array) $r, $db->select("SELECT {$type}_generate()::text AS t FROM generate_series(1, 20)")), 't'),
        [str_repeat($alphabet[0], $n), str_repeat(substr($alphabet, -1), $n), strtolower(str_repeat('A', $n)), str_repeat($alphabet[0], $n - 1),
            str_repeat($alphabet[0], $n + 1), 'DE0B6B3A763FFFF00000', 'DE0B6B3A7640000FFFFF', 'jpXCZedGfVQ', 'jpXCZedGfVR', 'k222222222222', 'j222222222222']
    );
    mt_srand(crc32($type)); // the same strings on every run
    for ($i = 0; $i < 300; $i++) {
        $s = '';
        for ($j = 0; $j < $n; $j++) {
            $s .= $alphabet[mt_rand(0, strlen($alphabet) - 1)];
        }
        $texts[] = $s;
        // one symbol changed to any printable byte: mostly outside the alphabet
        $texts[] = substr_replace($s, chr(mt_rand(33, 126)), mt_rand(0, $n - 1), 1);
    }
    // the edges: every first and first two symbols before the largest and the smallest tails; the bound
    // (TBSL's first 15 digits, uid11's 2^64-1) with each symbol one below and above; padding, signs,
    // spaces, a newline, non-ASCII digits
    [$low, $high] = [$alphabet[0], substr($alphabet, -1)];
    foreach (str_split($alphabet) as $a) {
        $texts[] = str_pad($a, $n, $high);
        $texts[] = str_pad($a, $n, $low);
        foreach (str_split($alphabet) as $b) {
            $texts[] = str_pad($a . $b, $n, $high);
        }
    }
    $bound = ['tbsl' => 'DE0B6B3A763FFFF', 'uid11' => 'jpXCZedGfVQ'][$type] ?? '';
    for ($k = 0; $k < strlen($bound); $k++) {
        foreach ([-1, 0, 1] as $d) {
            $symbol = $alphabet[strpos($alphabet, $bound[$k]) + $d] ?? '';
            if ($symbol !== '') {
                $texts[] = str_pad(substr($bound, 0, $k) . $symbol, $n, $high);
                $texts[] = str_pad(substr($bound, 0, $k) . $symbol, $n, $low);
            }
        }
    }
    $v = $texts[0];
    array_push($texts, "$v\n", "\n$v", " $v", "$v ", "+$v", "-$v", "0$v", "٣" . substr($v, 2), "１" . substr($v, 3), strtoupper($v), strtolower($v));
    $texts = array_values(array_unique($texts));
    $server = $db->select("SELECT t, {$type}_or_null(t)::text = t AS same FROM unnest(?::text[]) t",
        ['{' . implode(',', array_map(fn ($t) => '"' . addcslashes($t, '"\\') . '"', $texts)) . '}']);
    $differ = array_filter($server, fn ($r) => Idtypes\is_id($type, $r->t) !== ($r->same === true));
    $valid = count(array_filter($server, fn ($r) => $r->same === true));
    check(count($server) === count($texts) && $differ === [] && $valid > 20 && $valid < count($texts),
        "ids: pattern('$type') accepts exactly the texts {$type}_in reads back unchanged (" . count($texts) . " texts, $valid valid)",
        json_encode(array_slice(array_values($differ), 0, 3)));
}

// foreign keys
foreach (Idtypes\TYPES as $type) {
    eval("class {$type}Post extends Illuminate\\Database\\Eloquent\\Model { protected \$table = '{$type}_posts'; }");
    $capsule->schema()->create("{$type}_comments", function (Blueprint $t) use ($type) {
        $t->id();
        $t->{'foreign' . ucfirst($type) . 'For'}("{$type}Post", 'post_id')->constrained();
        $t->{'foreign' . ucfirst($type)}('parent_id')->nullable()->constrained("{$type}_posts");
    });
}
$uuid = sqlstate_of(fn () => $capsule->schema()->create('uuid_comments', function (Blueprint $t) {
    $t->foreignIdFor('timeidPost', 'post_id')->constrained('timeid_posts');
}), fn ($e) => $e instanceof QueryException ? $e->getCode() : get_class($e));
check($uuid === '42804', "laravel: foreignIdFor() of a model keyed by a string makes a uuid column, which cannot reference a timeid (42804)", $uuid);
$fks = array_map(fn ($r) => (array) $r, $db->select("SELECT c.conrelid::regclass::text AS t, pg_get_constraintdef(c.oid) AS def,
    format_type(a.atttypid, -1) AS type, d.adbin IS NOT NULL AS has_default
    FROM pg_constraint c JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
    LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
    WHERE c.contype = 'f' AND c.conrelid::regclass::text LIKE '%_comments' ORDER BY 1, 2"));
$want = [];
foreach (['scru160', 'tbsl', 'timeid', 'uid11'] as $type) {
    $want[] = ['t' => "{$type}_comments", 'def' => "FOREIGN KEY (parent_id) REFERENCES {$type}_posts(id)", 'type' => $type, 'has_default' => false];
    $want[] = ['t' => "{$type}_comments", 'def' => "FOREIGN KEY (post_id) REFERENCES {$type}_posts(id)", 'type' => $type, 'has_default' => false];
}
check($fks === $want, "laravel: foreign{Type}For(Model::class)->constrained() and foreign{Type}('parent_id')->constrained(table): columns of the key's type, no DEFAULT, referencing the model's table", json_encode($fks));

// collections: two TBSLs of 2026-11 (27E4...: exponent notation to PHP) and one of 2027-02 (all digits)
$ids = ['28000000000000000001', '27E40123456789012345', '27E00000000000000000'];
$db->table('tbsl_posts')->insert(array_map(fn ($id) => ['id' => $id], $ids));
$ordered = $db->table('tbsl_posts')->whereIn('id', $ids)->orderBy('id')->pluck('id')->all();
$posts = Post::whereIn('id', $ids)->get()->shuffle();
$byId = $posts->sortById()->pluck('id')->values()->all();
$desc = $posts->sortById('id', true)->pluck('id')->values()->all();
$bySortBy = $posts->sortBy('id')->pluck('id')->values()->all();
check($ordered === ['27E00000000000000000', '27E40123456789012345', '28000000000000000001'] && $byId === $ordered && $desc === array_reverse($ordered)
    && $posts->maxId() === '28000000000000000001' && $posts->minId() === '27E00000000000000000' && collect($ids)->sortById(null)->values()->all() === $ordered && collect($ids)->maxId(null) === '28000000000000000001',
    'laravel: sortById(), sortById(key, true), maxId(), minId() give ORDER BY id\'s order', json_encode([$byId, $desc]));
check($bySortBy[2] === '27E40123456789012345' && $posts->max('id') === '27E40123456789012345',
    "laravel: sortBy('id') and max('id') compare them as numbers: 27E4... (about 2.7e41) after 2800... (2.8e19)", json_encode($bySortBy));
// every type has IDs PHP reads as numbers (digits and at most one e or E): the helpers keep ORDER BY's order
$numeric = ['timeid' => ['2345672345672', '2e34567234567', '3e22222222222', '22222222222e2', 'a222222222222'],
    'tbsl' => ['28000000000000000001', '27E40123456789012345', '1000000000000000E003', '01000000000000000000', '0000000000000000000A'],
    'uid11' => ['12345678912', '1E345678912', '1e345678912', '9E999999999', '111111111E2'],
    'scru160' => ['00000000000000000000000000000000', '0000000000000000000000000000E001', '9E000000000000000000000000000000', '10000000000000000000000000000000', 'A0000000000000000000000000000000']];
$order = [];
foreach ($numeric as $type => $texts) {
    $ordered = array_column($db->select("SELECT x::text AS x FROM unnest(?::{$type}[]) x ORDER BY x", [Idtypes\array_literal($texts)]), 'x');
    $rows = collect(array_map(fn ($id) => ['id' => $id], $texts));
    $order[$type] = [$rows->sortById()->pluck('id')->values()->all() === $ordered, $rows->sortById('id', true)->pluck('id')->values()->all() === array_reverse($ordered),
        $rows->maxId() === end($ordered), $rows->minId() === $ordered[0], Idtypes\sort_by_id($texts) === $ordered];
}
check($order === array_fill_keys(ID_TYPES, array_fill(0, 5, true)),
    'laravel: for all four types, IDs PHP reads as numbers: sortById (both ways), maxId, minId, sort_by_id give ORDER BY id\'s order', json_encode($order));

// two TBSLs of 2027-02-01, one all digits, one with an E: PHP's == reads both as 2.8001234567890121e19
$twins = ['28001234567890121E03', '28001234567890121000'];
$db->table('tbsl_posts')->insert(array_map(fn ($id) => ['id' => $id], $twins));
$pair = Post::whereIn('id', $twins)->orderByDesc('id')->get();
$distinct = (int) $db->selectOne('SELECT count(DISTINCT id) AS n FROM unnest(?::tbsl[]) id', [Idtypes\array_literal($twins)])->n;
check($distinct === 2 && $twins[0] == $twins[1] && $pair->find($twins[1])->id === $twins[0] && $pair->firstWhere('id', '===', $twins[1])->id === $twins[1]
    && $pair->keyBy('id')->get($twins[1])->id === $twins[1],
    "laravel: two distinct TBSLs compare == in PHP, so a collection's find() returns the other model; firstWhere('id', '===', ...) and keyBy('id') do not",
    json_encode([$distinct, $pair->find($twins[1])?->id]));

// whereAnyOf() quotes each element: one text from input is one ID or a 22P02, never several rows
[$a, $b] = $db->table('tbsl_posts')->orderBy('id')->limit(2)->pluck('id')->all();
$anyOf = array_map(fn ($text) => sqlstate_of(fn () => $db->table('tbsl_posts')->whereAnyOf('id', [$text])->count(), fn ($e) => $e->getCode()),
    ["$a,$b", "{{$a},{$b}}", 'NULL', " $a ", "\"$a\""]);
check($anyOf === array_fill(0, 5, '22P02') && $db->table('tbsl_posts')->whereAnyOf('id', [$a, $b])->count() === 2,
    "laravel: whereAnyOf() with one element 'a,b', '{a,b}', 'NULL', ' a ' or '\"a\"' is 22P02 (unquoted: 2, 2, 0, 1, 1 rows); with [a, b] 2 rows", json_encode($anyOf));
// insertGetId() of TBSLs of 2027-02 PHP reads as numbers: each the same int, PHP_INT_MAX (GeneratedKey reads the string)
$ints = array_map(fn ($id) => $db->table('tbsl_posts')->insertGetId(['id' => $id]), ['28000000000000000009', '2800123456789012E005']);
check($ints === [PHP_INT_MAX, PHP_INT_MAX], 'laravel: insertGetId() returns 28000000000000000009 and 2800123456789012E005 as the same int, PHP_INT_MAX', json_encode($ints));
// GeneratedKey: a key given as null is no key (it sent NULL: 23502)
$nullKey = null;
$made = sqlstate_of(function () use (&$nullKey) {
    $nullKey = Post::create(['id' => null, 'body' => 'a null key']);
}, fn ($e) => $e instanceof QueryException ? $e->getCode() : get_class($e));
check($made === 'none' && $nullKey->id === $db->table('tbsl_posts')->where('body', 'a null key')->value('id'),
    "laravel: GeneratedKey: create(['id' => null, ...]) stores the row with the DEFAULT's ID and reads it back", $made);

// planted operators: a schema named like the role ("$user", first on the search_path), as a database owner can
// make, with ^@ and <@ that are always true; the macros write the extension's by its schema
$user = '"' . getenv('PGUSER') . '"';
$db->unprepared("CREATE SCHEMA $user;
    CREATE FUNCTION $user.yes(tbsl, text) RETURNS bool LANGUAGE sql AS 'SELECT true'; CREATE OPERATOR $user.^@ (LEFTARG = tbsl, RIGHTARG = text, FUNCTION = $user.yes);
    CREATE FUNCTION $user.yes(tbsl, tstzrange) RETURNS bool LANGUAGE sql AS 'SELECT true'; CREATE OPERATOR $user.<@ (LEFTARG = tbsl, RIGHTARG = tstzrange, FUNCTION = $user.yes)");
$found = [Post::wherePrefix('id', '1')->count(), Post::whereWithin('id', '1990-01-01', '1990-01-02')->count(), count($db->select("SELECT id FROM tbsl_posts WHERE id ^@ '1'"))];
$db->unprepared("DROP SCHEMA $user CASCADE");
check($found[0] === 0 && $found[1] === 0 && $found[2] > 0, "laravel: with planted $user.^@ and <@ first on the search_path, wherePrefix('id', '1') and whereWithin over a day of 1990 find no post (id ^@ '1' by name: all {$found[2]})", json_encode($found));
$nul = sqlstate_of(fn () => Post::wherePrefix('id', "27E\0")->get(), fn ($e) => get_class($e));
check($nul === 'InvalidArgumentException', 'laravel: wherePrefix() with a NUL byte is refused before the server', $nul);
finish();
