"""Typed errors: every failure a player or a script can cause has its own class."""


class WinnableError(Exception):
    """Base class of every error Winnable raises on purpose."""


class ParseError(WinnableError, ValueError):
    """Text that is not a card, a move, a position or a deal number."""


class IllegalMoveError(WinnableError, ValueError):
    """A well-formed move that the rules do not allow in this position."""


class UnknownGameError(WinnableError, KeyError):
    """A game id that Winnable does not play."""

    def __str__(self) -> str:  # KeyError quotes its argument; keep the message plain
        return str(self.args[0]) if self.args else "unknown game"


class BudgetError(WinnableError, ValueError):
    """A search budget that is not a positive number of positions or seconds, or a memory
    bound out of range."""


class EngineError(WinnableError, RuntimeError):
    """The engine claimed something the Python rules refuse (a bug, never shown as a win)."""


class SurveyError(WinnableError):
    """A survey cannot start or go on: a bad ``--out`` file to resume, a lost cluster."""


class NotGradable(WinnableError):
    """A position with no grade: its bounded search did not prove it winnable (``winnable.grading``)."""
