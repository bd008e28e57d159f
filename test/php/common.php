<?php
// Shared by test/php/round.php and docs_snippets.php: the check lines, and each format's time read from
// its text in PHP as its spec says (independently of the server), to compare with what the server says.
declare(strict_types=1);

const ID_TYPES = ['timeid', 'tbsl', 'uid11', 'scru160'];
const CANONICAL = [
    'timeid' => '/^[2-7a-j][2-7a-z]{12}\z/',
    'tbsl' => '/^[0-9A-F]{20}\z/',
    'uid11' => '/^[1-9A-HJ-NP-Za-km-z]{11}\z/',
    'scru160' => '/^[0-9A-V]{32}\z/',
];
ini_set('memory_limit', '512M'); // Debian's php-cli has none: a runaway fails, not the machine
$GLOBALS['failed'] = 0;
$GLOBALS['checks'] = 0;

function check(bool $good, string $what, string $why = ''): bool
{
    $GLOBALS['checks']++;
    if ($good) {
        echo "ok   $what\n";
    } else {
        $GLOBALS['failed']++;
        echo "FAIL $what" . ($why === '' ? '' : ": $why") . "\n";
    }
    return $good;
}

// Runs FN; the SQLSTATE the layer's exception carries as GET reads it, or 'none' if nothing was thrown.
function sqlstate_of(callable $fn, callable $get): string
{
    try {
        $fn();
    } catch (Throwable $e) {
        return (string) $get($e);
    }
    return 'none';
}

// The ID's time as 'seconds.micros' (Unix time), from its text alone.
function id_time(string $type, string $id): string
{
    switch ($type) {
        case 'tbsl': // tbsl.txt: the first 15 hex digits are the decimal SSSSSSSSSSUUUUUUMM
            $d = str_pad((string) hexdec(substr($id, 0, 15)), 18, '0', STR_PAD_LEFT);
            return ltrim(substr($d, 0, 10), '0') . '.' . substr($d, 10, 6);
        case 'timeid': // 53 bits of microseconds, then 10 of clock id, in base32 of 234567a-z
            $micros = intdiv(digits($id, '234567abcdefghijklmnopqrstuvwxyz'), 1024);
            return intdiv($micros, 1000000) . '.' . sprintf('%06d', $micros % 1000000);
        case 'uid11': // xid: 42 bits of milliseconds since 2011-11-11T11:11:11.111Z, then 22 random
            $ms = (digits($id, '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz') >> 22) + 1321009871111;
            return intdiv($ms, 1000) . '.' . sprintf('%03d000', $ms % 1000);
        case 'scru160': // the first 48 of 160 bits: Unix milliseconds; 10 base32hex symbols hold 50 bits
            $ms = digits(substr($id, 0, 10), '0123456789ABCDEFGHIJKLMNOPQRSTUV') >> 2;
            return intdiv($ms, 1000) . '.' . sprintf('%03d000', $ms % 1000);
    }
    throw new LogicException($type);
}

// TEXT read in ALPHABET as one number (below 2^63, which the IDs of these years are)
function digits(string $text, string $alphabet): int
{
    $base = strlen($alphabet);
    $v = 0;
    foreach (str_split($text) as $c) {
        $v = $v * $base + strpos($alphabet, $c);
    }
    return $v;
}

// A timestamptz as the server writes it, as 'seconds.micros'
function pg_time(string $text): string
{
    return (new DateTimeImmutable($text))->format('U.u');
}

// The IDs whose time is in [FROM, TO), FROM and TO 'seconds.micros' strings of the same width
function in_window(array $ids, string $type, DateTimeInterface $from, DateTimeInterface $to): array
{
    $f = $from->format('U.u');
    $t = $to->format('U.u');
    return array_values(array_filter($ids, fn ($id) => strcmp(id_time($type, $id), $f) >= 0 && strcmp(id_time($type, $id), $t) < 0));
}

// A prefix of one of IDS (sorted) that some but not all of them start with, as long as possible
function some_prefix(array $ids): string
{
    $middle = $ids[intdiv(count($ids), 2)];
    for ($n = strlen($middle) - 1; $n > 0; $n--) {
        $p = substr($middle, 0, $n);
        $hits = count(array_filter($ids, fn ($id) => str_starts_with($id, $p)));
        if ($hits >= 3 && $hits < count($ids)) {
            return $p;
        }
    }
    return substr($middle, 0, 1);
}

function finish(): never
{
    if ($GLOBALS['checks'] === 0) {
        echo "FAIL no check ran\n";
    }
    exit($GLOBALS['failed'] > 0 || $GLOBALS['checks'] === 0 ? 1 : 0);
}
