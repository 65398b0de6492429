"""What a database round trip costs the event loop while a solver thread runs Python: the
loop's thread lets the GIL go for each round trip, and waits up to Python's switch
interval to get it back. Times ``--trips`` round trips (``SELECT 1`` on a throwaway
PostgreSQL on loopback) alone, then beside one thread busy with Python code (as the
solver's threads are while they replay a line by the rules), with the switch interval at
Python's default (5 ms) and at the server's (``WINNABLE_GIL_SWITCH_MS``, 0.5 ms).

    .venv/bin/python bench/gil_roundtrips.py
"""

from __future__ import annotations

import argparse
import statistics
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def busy(stop: threading.Event) -> None:
    total = 0
    while not stop.is_set():
        for k in range(1000):
            total += k * k


def trips(connection, count: int) -> list[float]:
    times = []
    for _ in range(count):
        started = time.perf_counter()
        connection.execute("SELECT 1").fetchone()
        times.append(time.perf_counter() - started)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--trips", type=int, default=2000)
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT / "tests"))
    import psycopg

    from postgres_server import postgres_server

    with postgres_server() as url:
        with psycopg.connect(url.replace("postgresql+psycopg://", "postgresql://"), autocommit=True) as connection:
            trips(connection, 200)  # warm
            print(f"{args.trips} round trips (SELECT 1, loopback); ms per round trip: median, p99")
            for label, interval, threads in (
                ("alone", 0.005, 0),
                ("beside a busy thread, switch 5 ms", 0.005, 1),
                ("beside a busy thread, switch 0.5 ms", 0.0005, 1),
            ):
                sys.setswitchinterval(interval)
                stop = threading.Event()
                workers = [threading.Thread(target=busy, args=(stop,)) for _ in range(threads)]
                for worker in workers:
                    worker.start()
                try:
                    times = sorted(trips(connection, args.trips))
                finally:
                    stop.set()
                    for worker in workers:
                        worker.join()
                print(f"  {label:36} {statistics.median(times) * 1e3:7.3f} {times[int(len(times) * 0.99)] * 1e3:7.3f}")


if __name__ == "__main__":
    main()
