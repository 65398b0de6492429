"""What players' features cost the server, in CPU time of this one process (start-up
excluded), on a temporary SQLite file, through the app in process (FastAPI's TestClient):

1. a sign-in: argon2id hash and verify at the server's parameters (64 MiB, 3 passes);
2. a request that reads the session (GET a game's state, GET /api/auth/me) with and
   without a session cookie: what the session lookup adds to every request;
3. the Daily's leaderboard and overview with ``--attempts`` attempts on one day.

    .venv/bin/python bench/players.py
    .venv/bin/python bench/players.py --attempts 5000 --requests 1000
"""

from __future__ import annotations

import argparse
import datetime as dt
import statistics
import sys
import tempfile
import time
import warnings
from pathlib import Path

warnings.filterwarnings("ignore")


def cpu_ms(action, repeat: int) -> tuple[float, float]:
    """Median and p90 CPU milliseconds of ``action()`` over ``repeat`` runs."""
    samples = []
    for _ in range(repeat):
        started = time.process_time()
        action()
        samples.append((time.process_time() - started) * 1000)
    samples.sort()
    return statistics.median(samples), samples[int(0.9 * (len(samples) - 1))]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--attempts", type=int, default=1000, help="Daily attempts on the leaderboard")
    parser.add_argument("--requests", type=int, default=500, help="requests per measured call")
    args = parser.parse_args(argv)

    from fastapi.testclient import TestClient
    from sqlalchemy.orm import Session

    from winnable.decks import Deck
    from winnable.storage.engine import utcnow, write_lock
    from winnable.storage.tables import DailyAttempt, DailyDeal, GameRow, User
    from winnable.web.app import create_app
    from winnable.web.play.pool import Found
    from winnable.web.players.accounts import AccountService
    from winnable.web.players.daily import name_digest

    folder = Path(tempfile.mkdtemp(prefix="winnable-bench-players-"))
    app = create_app(
        f"sqlite:///{folder / 'games.db'}", pool_size=0, pool_background=False, rate_limits=False, allowed_hosts=["testserver"]
    )
    print(f"winnable bench/players.py  (CPU time of this process; python {sys.version.split()[0]})")

    accounts = AccountService(app.state.services.engine)  # the server's default argon2id parameters
    accounts.signup("bencher", "correct horse battery")
    median, p90 = cpu_ms(lambda: accounts.hasher.hash("correct horse battery"), 10)
    print(f"argon2id hash (64 MiB, t=3)            median {median:7.2f} ms   p90 {p90:7.2f} ms")
    median, p90 = cpu_ms(lambda: accounts.login("bencher", "correct horse battery"), 10)
    print(f"sign-in (verify + new session)         median {median:7.2f} ms   p90 {p90:7.2f} ms")
    _, token = accounts.login("bencher", "correct horse battery")
    median, p90 = cpu_ms(lambda: [accounts.viewer(token) for _ in range(100)], max(5, args.requests // 50))
    print(f"session lookup (any request w/ cookie) median {median / 100:7.3f} ms   p90 {p90 / 100:7.3f} ms")

    site = {"Origin": "http://testserver"}
    with TestClient(app, headers=site) as guest, TestClient(app, headers=site) as player:
        game = guest.post("/api/games", json={"game": "black-hole", "deal": 2}).json()["id"]
        anonymous = TestClient(app, headers=site)
        player.post("/api/auth/signup", json={"name": "player", "password": "correct horse battery"})
        own = player.post("/api/games", json={"game": "black-hole", "deal": 2}).json()["id"]
        for label, client, path in [
            ("GET state, no cookie", anonymous, f"/api/games/{game}"),
            ("GET state, guest session", guest, f"/api/games/{game}"),
            ("GET state, signed in", player, f"/api/games/{own}"),
            ("GET /api/auth/me, signed in", player, "/api/auth/me"),
        ]:
            for _ in range(20):
                client.get(path)
            median, p90 = cpu_ms(lambda: client.get(path), args.requests)
            print(f"{label:38} median {median:7.2f} ms   p90 {p90:7.2f} ms")

        engine = app.state.services.engine
        app.state.services.pool.add(Found("black-hole", 3, ()))
        day = utcnow().date()
        with write_lock(engine), Session(engine) as session, session.begin():
            layout = str(Deck.of_deal(3))  # a Daily is a deck order (here deal 3's, known to win)
            session.add(DailyDeal(game="black-hole", day=day, layout=layout, created_at=utcnow()))
            now = utcnow()
            for index in range(args.attempts):
                user = User(name=f"p{index}", name_key=f"p{index}", password_hash="x", created_at=now)
                session.add(user)
                session.flush()
                won = index % 3 == 0
                row = GameRow(
                    id=f"bench{index}",
                    game="black-hole",
                    layout=layout,
                    undo_mode="unlimited",
                    undo_used=index % 4,
                    moves=["x"] * (51 if won else index % 40),
                    winnable_deal=True,
                    restarts=0,
                    created_at=now,
                    started_at=now,
                    updated_at=now,
                    finished_at=now + dt.timedelta(seconds=60 + index) if won else None,
                    status="won" if won else "playing",
                    user_id=user.id,
                    hints_used=0,
                    move_count=51 if won else index % 40,
                    cards_left=0 if won else 51 - index % 40,
                    daily_day=day,
                )
                session.add(row)
                session.add(
                    DailyAttempt(
                        game="black-hole", day=day, user_id=user.id, game_id=row.id, created_at=now, name_key=name_digest(user.name)
                    )
                )
        repeat = max(10, args.requests // 20)
        median, p90 = cpu_ms(lambda: player.get("/api/daily/black-hole/leaderboard"), repeat)
        print(f"leaderboard, {args.attempts} attempts{'':14} median {median:7.2f} ms   p90 {p90:7.2f} ms")
        median, p90 = cpu_ms(lambda: player.get("/api/daily"), repeat)
        print(f"Daily overview (no attempt of its own)  median {median:7.2f} ms   p90 {p90:7.2f} ms")
        anonymous.close()


if __name__ == "__main__":
    main()
