#!/usr/bin/env python3
"""The chance that several servers generating IDs at once issue the same ID: prints the Markdown table of
docs/failover.md's "How likely is a duplicate" (scripts/collision_table.py > table.md; test/sharding/run.sh
checks that docs/failover.md holds exactly this output). Standard library only.

Inside one server no generator repeats (one shared state: src/pg/generate/generators.cpp), so a duplicate needs two
servers that issue in the same time unit with the same identity field and draw the same random bits. The
bit budgets (src/core, src/pg/generate/generators.cpp):

  timeid   1 µs units, 10-bit clock id, no random bits: a server's microseconds strictly increase, so two
           servers with the same clock id collide whenever both issue in the same µs. The clock id is
           drawn once per server start (idtypes.timeid_clock_id = -1) or set per server.
  tbsl     1 µs units, machine id 0..99, 20-bit suffix: random mode draws it uniformly for the first TBSL
           of a (machine, µs) and adds 1..16 for each later one; sequenced mode counts 0, 1, 2, ...
  xid      uid11_generate(): 1 ms units, 22 bits: uniform for the first xid of a ms, then + 1..16 (past
           2^22 the next ms); no identity field.
  uid11    uid11_generate_random(): 64 bits, a keyed permutation of a server-wide counter (never a repeat
           inside one server); each server draws its own key, so two servers' values meet like random ones.
  scru160  1 ms units, 16-bit counter started at a 15-bit random value then + 1, and 96 random bits drawn
           for every ID; no identity field.

Model: each of N servers issues R IDs per second spread evenly (c = R x unit IDs per time unit; below one,
a fraction c of the units holds one ID), independently of the others. For a pair of servers with the same
identity, the expected number of time units in which they issue an equal ID is, per second,
(1/unit) x E|A - B| / 2^bits, where A and B are the sets of random fields each issues in one unit (the two
first values are uniform, so the sets meet for exactly |A - B| of the 2^bits relative offsets). For single
draws that is c^2 / 2^bits, the birthday bound; for fields that grow by 1..16 within a unit, many pairs of
IDs meet at the same offset, so E|A - B| (computed below by simulation) is much smaller than c^2. Pairs
are taken as independent: P(duplicate) = 1 - exp(-pairs x rate x time), computed with expm1. Edge effects
(a field that runs past 2^bits and borrows the next unit) are ignored; they are below 0.1 % at these rates.
"""
import functools
import math
import random

YEAR = 365.25 * 86400
NODES = (1, 10, 100, 1000)
RATES = (1_000, 100_000, 1_000_000)
PERIODS = (1.0, YEAR)


@functools.lru_cache(maxsize=None)
def distinct_differences(c, step_max=16, samples=200, seed=1):
    """E|A - B| for two sets of c values that start at 0 and grow by uniform steps 1..step_max."""
    if c <= 1:
        return 1.0
    rng = random.Random(seed)
    total = 0
    for _ in range(samples):
        a = b = 0
        bits_a, positions_b = 0, []
        for i in range(c):
            if i:
                a += rng.randint(1, step_max)
                b += rng.randint(1, step_max)
            bits_a |= 1 << a
            positions_b.append(b)
        diffs = 0
        for p in positions_b:  # bit (x - p + b) is set for every difference x - p
            diffs |= bits_a << (b - p)
        total += bin(diffs).count("1")
    return total / samples


def meeting_rate(rate, unit, bits, stepped):
    """Expected units per second in which one pair of servers (same identity) issues an equal ID."""
    c = rate * unit
    if c < 1:  # a fraction c of the units holds one ID
        meets = c * c
    else:
        c = round(c)
        meets = distinct_differences(c) if stepped else c * c
    return meets * 2.0**-bits / unit


def p_from(expected):
    return -math.expm1(-expected)


def pairs(n):
    return n * (n - 1) / 2


def clock_id_sharing(n, ids=1024):
    """-log P(no two of n servers draw the same of `ids` random clock ids): the birthday problem."""
    if n > ids:
        return math.inf
    return -sum(math.log1p(-i / ids) for i in range(1, n))


def timeid_random_clock(n, rate, t):
    # Given a pair that shares a clock id, its microseconds meet rate^2 x 1e-6 times a second: at least
    # one of them with probability 1 - exp(-that x t). The pairs that share a clock id are about Poisson.
    meet = -math.expm1(-rate * rate * 1e-6 * t)
    return -math.expm1(-clock_id_sharing(n) * meet)


def tbsl_groups(n, rate, t, sequenced, machine_ids):
    """TBSL with n servers spread evenly over `machine_ids` machine ids."""
    if n == 1:
        return 0.0
    per_id, extra = divmod(n, machine_ids)
    same_id_pairs = extra * pairs(per_id + 1) + (machine_ids - extra) * pairs(per_id)
    if sequenced:  # both start each µs at suffix 0: every shared µs is a duplicate
        meets = meeting_rate(rate, 1e-6, 0, False)
    else:
        meets = meeting_rate(rate, 1e-6, 20, True)
    return p_from(same_id_pairs * meets * t)


def no_identity(n, rate, t, unit, bits, stepped):
    return p_from(pairs(n) * meeting_rate(rate, unit, bits, stepped) * t)


def uid11_random(n, rate, t):
    # never inside one server; a value of one server equals a value of another with probability 2^-64
    ids = rate * t
    return -math.expm1(-pairs(n) * ids * ids * 2.0**-64)


def scru160(n, rate, t):
    # counters equal with probability 2^-15 (the seed), then 96 random bits: 2^-111 per pair of IDs
    return p_from(pairs(n) * meeting_rate(rate, 1e-3, 15 + 96, False) * t)


ROWS = [
    ("`timeid_generate()`, clock id drawn at random per server (the default)",
     lambda n, r, t: timeid_random_clock(n, r, t)),
    ("`timeid_generate()`, `idtypes.timeid_clock_id` distinct per server (at most 1024)", None),
    ("`tbsl_generate()`, the same machine id everywhere (the default 0)",
     lambda n, r, t: tbsl_groups(n, r, t, False, 1)),
    ("`tbsl_generate(m, true)` (sequenced), the same machine id everywhere",
     lambda n, r, t: tbsl_groups(n, r, t, True, 1)),
    ("`tbsl_generate()`, `idtypes.tbsl_machine_id` distinct per server (at most 100; with 1000 servers, "
     "10 share each id)",
     lambda n, r, t: 0.0 if n <= 100 else tbsl_groups(n, r, t, False, 100)),
    ("`uid11_generate()` (xid)", lambda n, r, t: no_identity(n, r, t, 1e-3, 22, True)),
    ("`uid11_generate_random()` (fullrand: 64 bits, a keyed permutation per server)", uid11_random),
    ("`scru160_generate()`", scru160),
]


def show(p):
    if p == 0:
        return "0"
    if p > 0.999:
        return "≈1"
    text = f"{p:.2g}"
    if "e" in text:
        mantissa, exponent = text.split("e")
        text = f"{mantissa}e{int(exponent)}"
    return text


def main():
    print("| generator, identity | IDs/s per server | " + " | ".join(f"{n} server{'s' if n > 1 else ''}"
                                                           for n in NODES) + " |")
    print("|---|---|" + "---|" * len(NODES))
    for name, chance in ROWS:
        if chance is None:
            print(f"| {name} | any | " + " | ".join("0" for _ in NODES) + " |")
            continue
        for rate in RATES:
            cells = [" / ".join(show(chance(n, rate, t)) for t in PERIODS) for n in NODES]
            print(f"| {name if rate == RATES[0] else ''} | {rate:,} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
