"""A proof of loss can be re-run without the engine (issue 35).

The engine's exhaustive search (``_engine.spider_exhaust``, ``engine/src/spider/exhaust.rs``)
says "lost" only when it has walked every canonical position reachable from the root by
the rules' moves; it returns how many it reached and the wrapping sum of their digests (a
function of the cards alone). Here the Python rules walk the same small lost position
(two runs left, no stock) on their own, compute the same digests, and must reach the
same positions: the same count, the same checksum, and no win.
"""

from __future__ import annotations

from winnable import _engine
from winnable.cards import Card, Suit
from winnable.spider import COLUMNS, Column, Spider4

MASK = (1 << 64) - 1
SEEDS = (0x5350_4944_4552_0001, 0x5350_4944_4552_0002)

# The engine's card indices (suit * 13 + rank - 1): spades 0-12 and hearts 13-25 of its
# own numbering, six runs removed. Found by walking random positions of this kind.
SMALL_LOST = [
    ([20, 14, 11], [23]),
    ([3, 17, 7, 9, 12], [2]),
    ([24], [10]),
    ([21], [8]),
    ([13], [15]),
    ([], [0]),
    ([18], [25]),
    ([5], [19]),
    ([4, 6], [22]),
    ([1], [16]),
]
POSITIONS, CHECKSUM = 18, 5_774_298_681_177_068_447


def mix(x: int) -> int:
    """splitmix64's finaliser, as ``engine/src/spider/position.rs`` (``mix``)."""
    x = (x + 0x9E37_79B9_7F4A_7C15) & MASK
    x = ((x ^ (x >> 30)) * 0xBF58_476D_1CE4_E5B9) & MASK
    x = ((x ^ (x >> 27)) * 0x94D0_49BB_1331_11EB) & MASK
    return x ^ (x >> 31)


def column_digest(column: Column) -> int:
    h = mix(SEEDS[0] ^ len(column.down))
    for card in column.down + column.up:
        h = mix(h ^ (card.index + 1))
    return h


def digest(position: Spider4, root_stock: int) -> int:
    dealt = (root_stock - len(position.stock)) // COLUMNS
    h = mix(dealt << 8 | len(position.foundations))
    for index, column in enumerate(position.columns):
        salt = index + 1 if position.stock else 0
        h = (h + mix((column_digest(column) + salt) & MASK)) & MASK
    return h


def canonical(position: Spider4) -> tuple[object, ...]:
    columns = [str(column) for column in position.columns]
    return (tuple(columns if position.stock else sorted(columns)), len(position.stock), len(position.foundations))


def small_lost() -> Spider4:
    by_index = {card.index: card for card in (Card.from_text(rank + suit) for rank in "A23456789TJQK" for suit in "CDHS")}
    columns = tuple(Column(tuple(by_index[i] for i in down), tuple(by_index[i] for i in up)) for down, up in SMALL_LOST)
    used = {by_index[i].suit for column in SMALL_LOST for i in column[0] + column[1]}
    # Each suit twice in the deck: the two suits in play once more, the others twice.
    removed = tuple(sorted(used, key=lambda s: s.value)) + tuple(s for s in Suit if s not in used) * 2
    return Spider4(columns, (), removed)


def walk(root: Spider4) -> tuple[int, int, bool]:
    """Every position reachable by the Python rules: (count, checksum, any won)."""
    seen = {canonical(root)}
    checksum, won, todo = digest(root, len(root.stock)), root.is_won(), [root]
    while todo:
        position = todo.pop()
        for move in position.legal_moves():
            child = position.apply(move)
            key = canonical(child)
            if key in seen:
                continue
            seen.add(key)
            checksum = (checksum + digest(child, len(root.stock))) & MASK
            won = won or child.is_won()
            todo.append(child)
    return len(seen), checksum, won


def test_the_engine_proves_the_small_position_lost_with_its_count_and_checksum() -> None:
    assert _engine.spider_exhaust(SMALL_LOST, [], 6, True) == ("lost", POSITIONS, CHECKSUM, 8)


def test_the_python_rules_reach_the_same_positions_and_no_win() -> None:
    root = small_lost()
    assert [[card.index for card in column.down] for column in root.columns] == [down for down, _ in SMALL_LOST]
    assert walk(root) == (POSITIONS, CHECKSUM, False)
