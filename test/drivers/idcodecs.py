"""What the Python client checks share: each type's binary codec (codecs.json), the ok/FAIL lines, and the
expected answers of the round's queries computed in Python from the IDs a table holds."""
import json
from datetime import datetime, timezone
from pathlib import Path

# Each type's text is its send format's bytes as one big-endian number, in a fixed width and alphabet.
CODECS = json.loads((Path(__file__).parent / "codecs.json").read_text())

# The one-day window of the `<@ tstzrange` checks: holds some of the samples (37 minutes apart), not all.
WINDOW = (datetime(2024, 1, 2, tzinfo=timezone.utc), datetime(2024, 1, 3, tzinfo=timezone.utc))


def decode(codec, data):
    if len(data) != codec["bytes"]:
        raise ValueError(f"{len(data)} bytes, expected {codec['bytes']}")
    alphabet, v, text = codec["alphabet"], int.from_bytes(data, "big"), ""
    for _ in range(codec["width"]):
        v, d = divmod(v, len(alphabet))
        text = alphabet[d] + text
    if v:
        raise ValueError(f"{data.hex()} does not fit {codec['width']} symbols")
    return text


def encode(codec, text):
    v = 0
    for c in text:
        v = v * len(codec["alphabet"]) + codec["alphabet"].index(c)
    return v.to_bytes(codec["bytes"], "big")


def missing(codec):
    """An ID of the type that is none of the samples (all the first symbol but the last)."""
    return codec["alphabet"][0] * (codec["width"] - 1) + codec["alphabet"][1]


def prefixes(codec, mid):
    """The prefixes the `^@` checks ask for: none, short ones, the whole ID."""
    return [mid[:k] for k in (0, 1, 2, 3, 4, 6, codec["width"])]


class Checks:
    """Runs named checks, printing `ok   CLIENT name: what` or `FAIL CLIENT name: why`."""

    def __init__(self, client):
        self.client, self.failed = client, False

    def line(self, ok, name, text):
        if not ok:
            self.failed = True
        print(f"{'ok  ' if ok else 'FAIL'} {self.client} {name}: {text}", flush=True)

    def __call__(self, name, fn):
        try:
            self.line(True, name, fn())
        except Exception as e:  # any failure is this check's, and the next checks still run
            self.line(False, name, f"{type(e).__name__}: {str(e)[:600]}")

    async def run_async(self, name, fn):
        try:
            self.line(True, name, await fn())
        except Exception as e:  # as above
            self.line(False, name, f"{type(e).__name__}: {str(e)[:600]}")


def same(what, got, want):
    if got != want:
        raise AssertionError(f"{what}: got {str(got)[:300]}, expected {str(want)[:300]}")
