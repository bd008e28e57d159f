#!/usr/bin/env python3
"""The tickets behind fullrand uid11 values (uid11_generate_random), for test/concurrency/restart.sh.

Usage: fullrand_tickets.py MARK_FILE < values. MARK_FILE is the server's pg_idtypes_high_water, which holds
the fullrand key (layouts 2 and 3: on its line "key <k0> <k1>"; layout 1: after the mark); each input line is one value as a decimal number (uid11::numeric). Prints,
per value, its ticket (the inverse of src/core/uid11.cpp's Feistel permutation) as a decimal number. A
ticket's high 52 bits are the Unix microsecond it was issued in: a wrong key gives tickets far from now.
"""
import sys

MASK64 = (1 << 64) - 1
ROUNDS = 6


def mix64(x):
    x ^= x >> 30
    x = (x * 0xBF58476D1CE4E5B9) & MASK64
    x ^= x >> 27
    x = (x * 0x94D049BB133111EB) & MASK64
    return x ^ (x >> 31)


def round_function(k0, k1, rnd, half):
    round_key = mix64((k0 + rnd * 0x9E3779B97F4A7C15) & MASK64) ^ k1
    return mix64(((half << 32) | rnd) ^ round_key) >> 32


def ticket_of(value, k0, k1):
    left, right = value >> 32, value & 0xFFFFFFFF
    for rnd in reversed(range(ROUNDS)):
        left, right = right ^ round_function(k0, k1, rnd, left), left
    return (left << 32) | right


def key_of(text):
    """The key (k0, k1) a mark file holds, or None."""
    lines = text.splitlines()
    if lines and lines[0].startswith("idtypes high-water mark layout "):
        keys = [line.split()[1:3] for line in lines if line.startswith("key ")]
        return tuple(int(k, 16) for k in keys[0]) if keys else None
    fields = text.split()
    return (int(fields[1], 16), int(fields[2], 16)) if len(fields) == 3 else None


def main():
    text = open(sys.argv[1]).read()
    key = key_of(text)
    if key is None:
        sys.exit("the mark file holds no fullrand key: " + text.replace("\n", " | "))
    for line in sys.stdin:
        if line.strip():
            print(ticket_of(int(line), *key))


if __name__ == "__main__":
    main()
