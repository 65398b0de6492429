"""The Daily's draw made predictable for the tests."""

from __future__ import annotations

import random

from winnable import Budget, solve
from winnable.blackhole import BlackHole
from winnable.games import game_class
from winnable.web.players.daily import draw_layout


def seeded_draws(app, seed=3):
    """The Daily's draw as the server makes it (a deck order the solver wins), from a
    seeded generator instead of the system's, so the test knows the cards:
    ``app.state.decks[game]`` and ``app.state.line`` (Black Hole's winning line)."""
    decks = {}

    def draw(game):
        decks[game] = draw_layout(game_class(game), random.Random(f"{seed}:{game}"))
        return decks[game]

    app.state.services.daily.draw = draw
    app.state.decks = decks
    deck = draw("black-hole")
    app.state.line = [str(move) for move in solve(BlackHole.from_deck(deck), Budget(seconds=10)).line]
    return app
