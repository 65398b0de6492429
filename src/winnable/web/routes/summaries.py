""" "Your games": what a browser needs to list the games it has played.

The browser keeps the ids of its games (localStorage); a game id is a capability, so
the list is asked for with the ids in a POST body, never in an address. Unknown ids are
left out (a game made on another server, or a mistyped id).

>>> from fastapi.testclient import TestClient
>>> from winnable.web.app import create_app
>>> client = TestClient(create_app("sqlite://", pool_size=0, allowed_hosts=["testserver"]),
...                     headers={"Origin": "http://testserver"})
>>> game = client.post("/api/games", json={"game": "black-hole", "deal": 2}).json()
>>> listed = client.post("/api/games/summaries", json={"ids": [game["id"], "nope"]}).json()
>>> [(g["game"], g["deal"], g["moves"], g["status"]) for g in listed["games"]]
[('black-hole', 2, 0, 'playing')]
"""

from __future__ import annotations

from typing import Literal, TypedDict

import sqlalchemy as sa
from fastapi import APIRouter, Request
from pydantic import BaseModel, Field

from winnable.errors import UnknownGameError
from winnable.games import game_class
from winnable.storage.engine import utcnow
from winnable.storage.tables import GameRow
from winnable.web.deps import ServicesDep, ViewerDep, database
from winnable.web.pages.i18n import locale_of, titled
from winnable.web.play.lookup import valid_id
from winnable.web.play.store import iso

MAX_IDS = 100


class SummariesRequest(BaseModel):
    ids: list[str] = Field(max_length=MAX_IDS, description="Game ids this browser remembers (at most 100).")


class Summary(BaseModel):
    id: str
    game: str
    title: str
    deal: int | None = Field(description="The deal number; null for a Daily (dealt from a secret deck order).")
    moves: int = Field(description="Moves played.")
    status: Literal["playing", "won", "lost"]
    created_at: str | None
    updated_at: str | None
    finished_at: str | None
    links: dict[str, str]


class Summaries(BaseModel):
    games: list[Summary] = Field(description="The games found, the most recently played first.")


class SummaryEntry(TypedDict):
    """A :class:`Summary` as :func:`summaries` makes it (a dict: the route titles it in place)."""

    id: str
    game: str
    title: str
    deal: int | None
    moves: int
    status: str
    created_at: str | None
    updated_at: str | None
    finished_at: str | None
    links: dict[str, str]


class SummariesAnswer(TypedDict):
    games: list[SummaryEntry]


def summaries(engine: sa.Engine, ids: list[str], user_id: int | None = None) -> list[SummaryEntry]:
    """The games of ``ids`` this browser may see: a signed-in player's games only to that
    player (``user_id``), a guest's to anyone who has the id."""
    wanted = sorted({game_id for game_id in ids if valid_id(game_id)})  # no NUL bytes for PostgreSQL
    if not wanted:
        return []
    table = GameRow.__table__
    query = sa.select(
        table.c.id,
        table.c.game,
        table.c.deal,
        table.c.moves,
        table.c.status,
        table.c.created_at,
        table.c.updated_at,
        table.c.finished_at,
        table.c.daily_day,
    ).where(table.c.id.in_(wanted))
    # A guest's game to whoever has its id; an account's to the account; a Daily or
    # ranked challenge attempt whose account was deleted to nobody.
    query = query.where(
        sa.or_(sa.and_(table.c.user_id.is_(None), table.c.daily_day.is_(None), table.c.challenge.is_(None)), table.c.user_id == user_id)
    )
    with engine.connect() as connection:
        rows = connection.execute(query).all()
    out: list[SummaryEntry] = []
    today = utcnow().date()
    for row in sorted(rows, key=lambda r: iso(r.updated_at) or "", reverse=True):
        try:
            title = game_class(row.game).title
        except UnknownGameError:
            continue
        out.append(
            {
                "id": row.id,
                "game": row.game,
                "title": title,
                # A Daily's layout has no number (one from before deck orders keeps it to itself until its day ends)
                "deal": None if row.deal is None or (row.daily_day is not None and row.daily_day >= today) else int(row.deal),
                "moves": len(row.moves or []),
                "status": row.status if row.status in ("playing", "won", "lost") else "playing",
                "created_at": iso(row.created_at),
                "updated_at": iso(row.updated_at),
                "finished_at": iso(row.finished_at),
                "links": {"resume": f"/play/{row.game}?id={row.id}"}
                | ({} if row.deal is None or row.daily_day is not None else {"deal": f"/play/{row.game}?deal={int(row.deal)}"}),
            }
        )
    return out


router = APIRouter(tags=["games"])


@router.post("/api/games/summaries", response_model=Summaries)
async def post_summaries(body: SummariesRequest, app: ServicesDep, viewer: ViewerDep, request: Request) -> SummariesAnswer:
    """Summaries (game, deal, moves, status, when) of the games whose ids are given (a
    signed-in player's games are listed to that player only), titles in the request's language."""
    games = await database(app.settings, summaries, app.engine, body.ids, viewer.user_id)
    return {"games": titled(games, locale_of(request))}
