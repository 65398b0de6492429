"""Winnable: patience games with a solver behind every deal.

>>> import winnable
>>> position = winnable.deal("black-hole", 2)
>>> verdict = winnable.solve(position)
>>> verdict.won and position.play_line(verdict.line).is_won()
True
"""

from winnable.cards import Card, Rank, Suit
from winnable.errors import EngineError, IllegalMoveError, ParseError, UnknownGameError, WinnableError
from winnable.game import Move, Position
from winnable.games import deal, game_class, game_ids
from winnable.guide import Guide, Hint, Line
from winnable.solver import Budget, Status, Verdict, solve

__all__ = [
    "Budget",
    "Card",
    "EngineError",
    "Guide",
    "Hint",
    "IllegalMoveError",
    "Line",
    "Move",
    "ParseError",
    "Position",
    "Rank",
    "Status",
    "Suit",
    "UnknownGameError",
    "Verdict",
    "WinnableError",
    "deal",
    "game_class",
    "game_ids",
    "solve",
]
