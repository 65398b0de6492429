"""Why a move: a short phrase from the rules on what it does on the table ("uncovers the
7♣", "empties column 3", "sends the 9♥ home; 2 more cards follow"), said with a hint's
move and each move of a shown winning line.

Each family's view reads what the move does from the position before and after it
(:func:`winnable.web.views.effect`: a code and what it names); here it is worded, as a
:class:`~winnable.web.pages.i18n.Message` shown in the reader's language. Cards are
written as the page writes them in messages: the rank's letter as players of the
language know it (the catalogue's "card rank" context, as ``cards.js``) and the suit's
symbol.

>>> from winnable.freecell import FreeCell
>>> phrase, code = why(FreeCell.deal(1), "2a")
>>> phrase, code, phrase.translate("fr"), phrase.translate("nl")
('moves the 9♣ to a free cell', 'to_cell', 'met le 9♣ dans une cellule libre', 'zet de 9♣ in een vrije cel')
"""

from __future__ import annotations

from typing import Any

from winnable.cards import Card, Suit
from winnable.errors import WinnableError
from winnable.game import Position
from winnable.web.pages.i18n import DEFAULT_LOCALE, N_, NP_, Message, translations
from winnable.web.views import effect
from winnable.web.views.moves import Effect

SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
LETTERS = {"A", "J", "Q", "K"}


class CardText(Message):
    """A card as a message names it: ``7♣``, ``K♥`` (``R♥`` in French, ``H♥`` in Dutch)."""

    def __new__(cls, code: str) -> CardText:
        card = Card.from_text(code)
        rank = "A23456789TJQK"[card.rank - 1]
        self = str.__new__(cls, _label(rank, card.suit, DEFAULT_LOCALE))
        self.msgid, self.plural, self.n, self.params = rank + card.suit.char, None, None, {}
        return self

    def translate(self, locale: str) -> str:  # type: ignore[override]  # as Message's
        return _label(self.msgid[0], Suit.from_char(self.msgid[1]), locale)


def _label(rank: str, suit: Suit, locale: str) -> str:
    if rank == "T":
        letter = "10"
    elif rank in LETTERS and locale != DEFAULT_LOCALE:
        letter = str(translations(locale).pgettext("card rank", rank))
    else:
        letter = rank
    return letter + SYMBOLS[suit.char]


def why(position: Position, text: str) -> tuple[Message, str] | None:
    """What the legal move ``text`` does in ``position``: its phrase and its code (see
    :class:`~winnable.web.views.moves.Effect`), or None when nothing is said of it."""
    try:
        move = position.parse_move(text)
        if not position.is_legal(move):
            return None
        found = effect(position, move)
    except (WinnableError, ValueError, LookupError):
        return None
    if found is None:
        return None
    phrase = worded(found, position)
    return None if phrase is None else (phrase, found["code"])


def named(code: str) -> Message:
    """A card with its article, as a phrase names it: "the 7♣" ("le 7♣", "la D♥", "l'A♠";
    "de 7♣"). Three messages that read alike in English, so that each language chooses
    its article by the rank."""
    card = CardText(code)
    rank = card.msgid[0]
    if rank == "Q":
        # Translators: a Queen with its article ("the Q♥"), inside a phrase on a move.
        return N_("the {queen}", queen=card)
    if rank == "A":
        # Translators: an Ace with its article ("the A♠"), inside a phrase on a move.
        return N_("the {ace}", ace=card)
    # Translators: a card with its article ("the 7♣", "the K♥"), inside a phrase on a move.
    return N_("the {card}", card=card)


def worded(found: Effect, position: Position) -> Message | None:
    """An effect as a phrase (English, translated when shown)."""
    code = found["code"]
    card: Any = named(found["card"]) if "card" in found else None
    follow = found.get("follow", 0)
    suit = SYMBOLS.get(found.get("suit", ""), "")
    column = found.get("column", 0)
    flipper = found.get("cell") == "flipper"
    if code == "to_foundation":
        if follow:
            return NP_("sends {card} home; {n} more card follows", "sends {card} home; {n} more cards follow", follow, card=card)
        return N_("sends {card} home", card=card)
    if code == "starts_foundation":
        if follow:
            return NP_(
                "starts the {suit} foundation; {n} more card follows",
                "starts the {suit} foundation; {n} more cards follow",
                follow,
                suit=suit,
            )
        return N_("starts the {suit} foundation", suit=suit)
    if code == "completes_suit":
        # A free-cell game's suit is whole on its foundation; a Spider run of a suit leaves the table.
        return (
            N_("completes the {suit} suit", suit=suit)
            if card is not None
            else N_("completes a {suit} run, which leaves the table", suit=suit)
        )
    if code == "empties_column":
        return N_("empties column {column}", column=column)
    if code == "frees_cell":
        return N_("frees a flipper") if flipper else N_("frees a free cell")
    if code == "uncovers":
        return N_("uncovers {card}", card=card)
    if code == "turns_over":
        return N_("turns over a face-down card in column {column}", column=column)
    if code == "builds":
        return N_("puts {card} on {onto}", card=card, onto=named(found["onto"]))
    if code == "to_empty_column":
        return N_("moves {card} to empty column {column}", card=card, column=column)
    if code == "to_cell":
        return N_("moves {card} to a flipper", card=card) if flipper else N_("moves {card} to a free cell", card=card)
    if code == "deals":
        return N_("deals a new row from the stock")
    if code == "to_hole":
        return N_("plays {card} into the hole", card=card)
    if code == "removes_pair" and len(found.get("cards", ())) == 2:
        first, second = (named(text) for text in found["cards"])
        return N_("takes out {first} and {second}: they add up to 14", first=first, second=second)
    return None
