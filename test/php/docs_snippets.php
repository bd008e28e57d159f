<?php
// The PHP snippets of docs/clients.md as the page shows them: each ```php block after a line
// `<!-- run by test/php/docs_snippets.php -->` runs, in page order, in one scope (a later block may use an
// earlier one's variables), from the repository's root (the blocks require clients/php/...); then what
// each block left is checked: the IDs it got, what its queries returned, the error it caught, the schema
// comparison. Connects with PGHOST etc. Prints `ok` / `FAIL` lines.
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

chdir(__DIR__ . '/../..');
$blocks = snippets('docs/clients.md');
check(count($blocks) === 3, 'docs/clients.md: 3 php blocks marked for test/php/docs_snippets.php', (string) count($blocks));
$col = fn (PDOStatement $s) => $s->fetchAll(PDO::FETCH_COLUMN);
foreach (run_blocks($blocks) as $line => $v) {
    $where = "docs/clients.md:$line";
    if ($v instanceof Throwable) {
        check(false, "$where: the block runs", get_class($v) . ': ' . $v->getMessage() . ' at line ' . $v->getLine());
        continue;
    }
    if (isset($v['pdo'], $v['insert']) && !isset($v['conn'])) {
        $id = $v['id'];
        check(preg_match(CANONICAL['tbsl'], $id) === 1 && $col($v['prefix']) === [$id] && $col($v['window']) === [$id]
            && $col($v['any']) === [$id] && $col($v['page']) === [] && ($v['error'] ?? '') === 'not an ID',
            "$where: the PDO block: an ID by RETURNING, ^@, <@ tstzrange from Asia/Dhaka, = ANY(array literal), a page, 22P02 caught");
    } elseif (isset($v['conn']) && !isset($v['order'])) {
        check(preg_match(CANONICAL['scru160'], $v['id']) === 1 && $v['unchanged'] === true && $v['found'] === [$v['id']]
            && $v['recent'] === [$v['id']] && ($v['error'] ?? '') === 'not an ID',
            "$where: the Doctrine block: the schema tool's table compares unchanged, an ID by RETURNING, ^@, <@, 22P02 caught");
    } elseif (isset($v['order'])) {
        $id = $v['order']->id;
        check(is_string($id) && preg_match(CANONICAL['tbsl'], $id) === 1 && $v['same']->id === $id
            && $v['prefixed']->pluck('id')->all() === [$id] && $v['recent']->pluck('id')->all() === [$id]
            && $v['listed']->pluck('id')->all() === [$id] && $v['next']->all() === [] && ($v['error'] ?? '') === 'not an ID',
            "$where: the Laravel block: a migration by the macro, a model's ID from the DEFAULT, find, wherePrefix, whereWithin from Asia/Dhaka, whereAnyOf, a page, 22P02 caught");
    } else {
        check(false, "$where: a block the test does not know", implode(', ', array_keys($v)));
    }
}
finish();
