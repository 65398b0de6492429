"""A survey's won / lost verdicts as one bit a deal: small enough to keep in the repository
when the survey's JSON lines are not (Fourteen Out's million deals: 125,000 bytes).

    .venv/bin/python docs/surveys/verdict_bits.py data/fourteen-out-1-1000000.jsonl.gz \\
        fourteen-out-1-1000000.won.bits

Bit ``d - first`` (byte ``(d - first) // 8``, bit ``(d - first) % 8`` from the least
significant) is 1 when deal ``d`` was won, 0 when it was proved lost. A survey with any
``unknown`` verdict is refused: two values a deal would not say it. :func:`read_bits`
reads the file back.
"""

from __future__ import annotations

import sys
from pathlib import Path

from winnable.report import read_records


def verdict_bits(records: list[dict], first: int, last: int) -> bytes:
    """The won bits of deals ``first``-``last``; every deal there once, won or lost."""
    bits = bytearray((last - first + 8) // 8)
    seen = 0
    for entry in records:
        offset = entry["deal"] - first
        if not 0 <= offset <= last - first:
            raise SystemExit(f"deal {entry['deal']} is outside {first}-{last}")
        if entry["verdict"] not in ("won", "lost"):
            raise SystemExit(f"deal {entry['deal']} is {entry['verdict']}: the bits hold won or lost only")
        seen += 1
        if entry["verdict"] == "won":
            bits[offset // 8] |= 1 << (offset % 8)
    if seen != last - first + 1:
        raise SystemExit(f"{seen:,} deals in the survey, not {last - first + 1:,}")
    return bytes(bits)


def read_bits(data: bytes, first: int, deal: int) -> bool:
    """Was ``deal`` won, in bits that start at deal ``first``?"""
    offset = deal - first
    return bool(data[offset // 8] >> (offset % 8) & 1)


def main() -> None:
    source, target = Path(sys.argv[1]), Path(sys.argv[2])
    records = read_records(source)
    deals = [entry["deal"] for entry in records]
    first, last = min(deals), max(deals)
    data = verdict_bits(records, first, last)
    target.write_bytes(data)
    won = sum(bin(byte).count("1") for byte in data)
    print(f"{target}: deals {first}-{last}, {won:,} won, {len(deals) - won:,} lost, {len(data):,} bytes")


if __name__ == "__main__":
    main()
