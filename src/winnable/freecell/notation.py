"""The free-cell family's positions written out: Winnable's text notation, fc-solve's
board (``fcs``) and JSON, each read back where it can be.

>>> from winnable.freecell import FreeCell
>>> position = FreeCell.deal(1)
>>> print(position.to_text().splitlines()[1])
Foundations: - - - -
>>> FreeCell.from_fcs(position.to_fcs()) == position == FreeCell.from_text(position.to_text())
True
"""

from __future__ import annotations

from typing import Any, ClassVar, Self

from winnable.cards import Card, Rank, Suit, parse_cards
from winnable.errors import ParseError
from winnable.freecell.table import FreeCellTable


class FreeCellNotation(FreeCellTable):
    """The notations of :class:`~winnable.freecell.FreeCellFamily` (a base class of it)."""

    FCS_OPTIONS: ClassVar[str] = "-g freecell"
    """fc-solve's options for this game (its board from :meth:`to_fcs`)."""

    # -- Winnable's notation -----------------------------------------------------------
    def to_text(self) -> str:
        """Winnable's notation: the base rank, the foundations' top cards (C D H S, ``-``
        when empty), the cells, then one line a column, deepest card first."""
        lines = [
            f"Base: {self.base_rank.char}",
            "Foundations: " + " ".join(str(top) for top in self.foundation_tops()),
            "Cells: " + (" ".join(str(card) if card else "-" for card in self.cells) or "none"),
        ]
        lines += [f"{i + 1}: " + (" ".join(str(card) for card in column) or "-") for i, column in enumerate(self.columns)]
        return "\n".join(lines) + "\n"

    @classmethod
    def from_text(cls, text: str) -> Self:
        header: dict[str, str] = {}
        columns: list[tuple[Card, ...]] = []
        for raw in text.strip().splitlines():
            line = raw.strip()
            if not line:
                continue
            label, sep, rest = line.partition(":")
            key = label.strip().lower()
            if sep and key in ("base", "foundations", "cells"):
                header[key] = rest.strip()
                continue
            body = rest if sep and label.strip().isdigit() else line
            body = body.strip()
            columns.append(() if body in ("-", "") else tuple(parse_cards(body)))
        if "base" in header:
            base = Rank.from_char(header["base"])
        elif cls.BASE_RANK is not None:
            base = cls.BASE_RANK
        else:
            raise ParseError("a Penguin position names its base rank: 'Base: J'")
        foundations = [0, 0, 0, 0]
        tops = header.get("foundations", "").split()
        if len(tops) not in (0, 4):
            raise ParseError("the Foundations line lists four top cards (C D H S), '-' for an empty one")
        for suit, word in zip(Suit, tops):
            if word == "-":
                continue
            card = Card.from_text(word)
            if card.suit != suit:
                raise ParseError(f"foundation {suit.char} cannot hold {card} (order C D H S)")
            foundations[suit] = (card.rank - base) % 13 + 1
        cells_text = header.get("cells", "")
        cells = [None if word == "-" else Card.from_text(word) for word in cells_text.split() if word != "none"]
        cells += [None] * (cls.CELLS - len(cells))
        position = cls(tuple(columns), tuple(cells), tuple(foundations), base)
        return position._normalised()

    # -- fc-solve's board: ranks shifted so that the base rank is the Ace ----------------
    def to_fcs(self) -> str:
        """fc-solve's board format, ranks shifted so that the base rank reads as an Ace
        (as PySolFC does for Penguin); play it with :attr:`FCS_OPTIONS`."""

        def shifted(card: Card) -> str:
            return Rank(self.shifted(card.rank) + 1).char + card.suit.char

        found = " ".join(
            f"{suit.char}-{'0' if not self.foundations[suit] else Rank(self.foundations[suit]).char}"
            for suit in (Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS, Suit.SPADES)
        )
        lines = [f"Foundations: {found}"]
        if self.CELLS:
            lines.append("Freecells: " + " ".join(shifted(card) if card else "-" for card in self.cells))
        lines += [": " + " ".join(shifted(card) for card in column) for column in self.columns]
        return "\n".join(lines) + "\n"

    @classmethod
    def from_fcs(cls, text: str, base_rank: Rank | None = None) -> Self:
        """Read fc-solve's board. Its ranks count from the base rank, which the board
        does not record: a Penguin board is read with ``base_rank`` (the Ace unless
        given, so the cards keep the ranks fc-solve sees), or the base named by a
        comment line ``# base J`` (which fc-solve itself does not accept)."""
        base = base_rank or cls.BASE_RANK or Rank.ACE
        columns: list[tuple[Card, ...]] = []
        cells: list[Card | None] = []
        foundations = [0, 0, 0, 0]
        rows = []
        for raw in text.splitlines():
            line = raw.strip()
            if line.startswith("#"):
                words = line[1:].split()
                if len(words) == 2 and words[0].lower() == "base":
                    base = Rank.from_char(words[1])
                continue
            rows.append(line)

        def unshift(word: str) -> Card:
            card = Card.from_text(word)
            return Card(Rank((card.rank - 1 + base - 1) % 13 + 1), card.suit)

        for line in rows:
            if not line:
                continue
            lower = line.lower()
            if lower.startswith("foundations:"):
                for word in line.split(":", 1)[1].split():
                    suit_char, _, rank_char = word.partition("-")
                    suit = Suit.from_char(suit_char)
                    foundations[suit] = 0 if rank_char == "0" else Rank.from_char(rank_char)
            elif lower.startswith("freecells:"):
                cells = [None if word == "-" else unshift(word) for word in line.split(":", 1)[1].split()]
            else:
                body = line[1:] if line.startswith(":") else line
                columns.append(tuple(unshift(word) for word in body.split()))
        if len(cells) > cls.CELLS:
            raise ParseError(f"{cls.title} has {cls.CELLS} free cells, the board {len(cells)}")
        cells += [None] * (cls.CELLS - len(cells))
        columns += [()] * max(0, cls.COLUMNS - len(columns))
        return cls(tuple(columns), tuple(cells), tuple(foundations), base)._normalised()

    # -- JSON -------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game_id,
            "deal": self.deal_number,
            "family": self.family,
            "columns": [[str(card) for card in column] for column in self.columns],
            "cells": [str(card) if card else None for card in self.cells],
            "foundations": [
                {"suit": suit.char, "cards": [str(card) for card in self.foundation_cards() if card.suit == suit]} for suit in Suit
            ],
            "base_rank": self.base_rank.char,
            "cards_left": self.cards_left(),
            "score": self.score(),
            "won": self.is_won(),
            "lost": self.is_lost(),
            "auto": [{"card": str(card), "from": where, "to": "foundation"} for card, where in self.auto],
            "run_limit": self.run_limit(False),
            "run_limit_to_empty": self.run_limit(True),
            "rules": {
                "columns": self.COLUMNS,
                "cells": self.CELLS,
                "build": self.BUILD,
                "wrap": self.WRAP,
                "empty_column": self.EMPTY_COLUMN,
                "runs": self.RUNS,
            },
        }


def penguin_fcs_options(cls: type[FreeCellTable]) -> str:
    """fc-solve's options for a Penguin preset, once its ranks are shifted so that the
    base rank is the Ace (PySolFC's own Penguin options, with this preset's cells,
    empty-column rule and run moves)."""
    empty = "any" if cls.EMPTY_COLUMN == "any" else "kings"
    sequence = "unlimited" if cls.RUNS == "unlimited" else "limited"
    return (
        f"--freecells-num {cls.CELLS} --stacks-num {cls.COLUMNS} --decks-num 1 --sequences-are-built-by suit "
        f"--empty-stacks-filled-by {empty} --sequence-move {sequence}"
    )
