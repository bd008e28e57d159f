<?php
// The PHP snippets of docs/clients.md as the page shows them: each ```php block after a line
// `<!-- run by test/php/docs_snippets.php -->` runs, in page order, in one scope (a later block may use an
// earlier one's variables), from the repository's root (the blocks require clients/php/...); then what
// each block left is checked: the IDs it got, what its queries returned, the error it caught, the schema
// comparison, the routes it declared (an application's router behind Laravel's Route facade, set up here).
// Connects with PGHOST etc. Prints `ok` / `FAIL` lines.
declare(strict_types=1);

require __DIR__ . '/common.php';

const MARK = '<!-- run by test/php/docs_snippets.php';

function snippets(string $page): array
{
    $lines = explode("\n", file_get_contents($page));
    $out = [];
    foreach ($lines as $i => $line) {
        if (str_starts_with($line, MARK) && trim($lines[$i + 1] ?? '') === '```php') {
            for ($j = $i + 2; trim($lines[$j]) !== '```'; $j++);
            $out[$i + 3] = implode("\n", array_slice($lines, $i + 2, $j - $i - 2));
        }
    }
    return $out;
}

// Runs the blocks in one scope; returns that scope's variables after each block
function run_blocks(array $blocks): Generator
{
    foreach ($blocks as $line => $code) {
        try {
            eval($code);
            yield $line => get_defined_vars();
        } catch (Throwable $e) {
            yield $line => $e;
        }
    }
}

// what a Laravel application has: a router behind the Route facade
foreach (['Database', 'Container', 'Events', 'Http', 'Routing'] as $part) {
    require_once "/usr/share/php/Illuminate/$part/autoload.php";
}
$app = new Illuminate\Container\Container();
Illuminate\Container\Container::setInstance($app);
$router = new Illuminate\Routing\Router(new Illuminate\Events\Dispatcher($app), $app);
$app->instance('router', $router);
$app->instance(Illuminate\Contracts\Routing\Registrar::class, $router);
Illuminate\Support\Facades\Facade::setFacadeApplication($app);
$get = function (string $uri) use ($router): string {
    try {
        return 'ok ' . $router->dispatch(Illuminate\Http\Request::create($uri))->getContent();
    } catch (Throwable $e) {
        return get_class($e);
    }
};

chdir(__DIR__ . '/../..');
$blocks = snippets('docs/clients.md');
check(count($blocks) === 5, 'docs/clients.md: 5 php blocks marked for test/php/docs_snippets.php', (string) count($blocks));
$col = fn (PDOStatement $s) => $s->fetchAll(PDO::FETCH_COLUMN);
foreach (run_blocks($blocks) as $line => $v) {
    $where = "docs/clients.md:$line";
    if ($v instanceof Throwable) {
        check(false, "$where: the block runs", get_class($v) . ': ' . $v->getMessage() . ' at line ' . $v->getLine());
        continue;
    }
    if (isset($v['largest'])) {
        $id = $v['order']->id;
        $routes = [$get("/orders/$id"), $get('/orders/' . strtolower($id)), $get('/orders/' . substr($id, 0, 15) . '00000')];
        $line = $v['db']->getConnection()->selectOne("SELECT format_type(a.atttypid, -1) AS type, pg_get_constraintdef(c.oid) AS fk
            FROM pg_constraint c JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
            WHERE c.conrelid = 'order_lines'::regclass AND c.contype = 'f'");
        check($routes === ['ok hello', Symfony\Component\HttpKernel\Exception\NotFoundHttpException::class, Illuminate\Database\Eloquent\ModelNotFoundException::class]
            && $line->type === 'tbsl' && $line->fk === 'FOREIGN KEY (order_id) REFERENCES orders(id)'
            && $v['sorted'] === ['27E40123456789012345', '28000000000000000001'] && $v['largest'] === '28000000000000000001' && $v['newest']->id === $id,
            "$where: the Laravel block: a route key bound, a malformed one 404, an absent one ModelNotFoundException; foreignTbslFor; sortById, maxId",
            json_encode([$routes, $line, $v['sorted'], $v['largest']]));
    } elseif (isset($v['order'])) {
        $id = $v['order']->id;
        check(is_string($id) && preg_match(CANONICAL['tbsl'], $id) === 1 && $v['same']->id === $id
            && $v['prefixed']->pluck('id')->all() === [$id] && $v['recent']->pluck('id')->all() === [$id]
            && $v['listed']->pluck('id')->all() === [$id] && $v['next']->all() === [] && ($v['error'] ?? '') === 'not an ID',
            "$where: the Laravel block: a migration by the macro, a model's ID from the DEFAULT, find, wherePrefix, whereWithin from Asia/Dhaka, whereAnyOf, a page, 22P02 caught");
    } elseif (isset($v['em'])) {
        $ids = [$v['first']->id, $v['reply']->id];
        $stored = $v['conn']->fetchAllAssociative('SELECT id, parent_id FROM notes ORDER BY id');
        $prefix = substr($ids[0], 0, 6);
        check(count(array_filter($ids, fn ($id) => is_string($id) && preg_match(CANONICAL['timeid'], $id) === 1)) === 2
            && $stored === [['id' => $ids[0], 'parent_id' => null], ['id' => $ids[1], 'parent_id' => $ids[0]]]
            && array_column($v['prefixed'], 'id') === array_values(array_filter($ids, fn ($id) => str_starts_with($id, $prefix)))
            && array_column($v['recent'], 'id') === $ids && !in_array('idtypes_internal', $v['schemas'], true),
            "$where: the Doctrine ORM block: two entities keyed by the generator, the foreign key, ID_PREFIX, ID_WITHIN, no idtypes_internal listed",
            json_encode([$ids, $stored, $v['prefixed'], $v['schemas']]));
    } elseif (isset($v['conn'])) {
        check(preg_match(CANONICAL['scru160'], $v['id']) === 1 && $v['unchanged'] === true && $v['found'] === [$v['id']]
            && $v['recent'] === [$v['id']] && ($v['error'] ?? '') === 'not an ID',
            "$where: the Doctrine block: the schema tool's table compares unchanged, an ID by RETURNING, ^@, <@, 22P02 caught");
    } elseif (isset($v['pdo'], $v['insert'])) {
        $id = $v['id'];
        check(preg_match(CANONICAL['tbsl'], $id) === 1 && $col($v['prefix']) === [$id] && $col($v['window']) === [$id]
            && $col($v['any']) === [$id] && $col($v['page']) === [] && ($v['error'] ?? '') === 'not an ID',
            "$where: the PDO block: an ID by RETURNING, ^@, <@ tstzrange from Asia/Dhaka, = ANY(array literal), a page, 22P02 caught");
    } else {
        check(false, "$where: a block the test does not know", implode(', ', array_keys($v)));
    }
}
finish();
