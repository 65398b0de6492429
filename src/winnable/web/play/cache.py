"""A least-recently-used map bounded by the bytes it holds, not by its number of entries.

Every entry is put with its cost in bytes (an estimate: keys and values are Python
objects); the oldest entries go as soon as the total is over the budget, and an entry
larger than the whole budget is not kept at all. So a cache that holds positions of
10,000-move games costs what its budget says, however long the games.

>>> cache = ByteLRU(1000)          # each entry costs its size + ENTRY_OVERHEAD (200)
>>> cache.put("a", 1, 300); cache.put("b", 2, 200)
>>> cache.get("a"), len(cache), cache.bytes
(1, 2, 900)
>>> cache.put("c", 3, 200)         # over budget: "b", the least recently used, goes
>>> cache.get("b"), sorted(cache.keys()), cache.bytes
(None, ['a', 'c'], 900)
>>> cache.put("huge", 4, 1000)     # never kept
>>> cache.get("huge"), cache.bytes
(None, 900)
>>> cache.pop("a"), cache.pop("a"), cache.bytes
(1, None, 400)
"""

from __future__ import annotations

import sys
import threading
from collections import OrderedDict
from typing import Any, Hashable, Iterator

ENTRY_OVERHEAD = 200
"""Bytes an entry costs besides its key and value (dict slot, tuple, ints)."""


class ByteLRU:
    """A thread-safe LRU map holding at most ``budget`` bytes (as estimated by callers)."""

    def __init__(self, budget: int) -> None:
        self.budget = int(budget)
        self._items: OrderedDict[Hashable, tuple[Any, int]] = OrderedDict()
        self._lock = threading.Lock()
        self.bytes = 0
        self.hits = self.misses = self.evictions = 0

    def get(self, key: Hashable) -> Any | None:
        with self._lock:
            item = self._items.get(key)
            if item is None:
                self.misses += 1
                return None
            self._items.move_to_end(key)
            self.hits += 1
            return item[0]

    def put(self, key: Hashable, value: Any, cost: int) -> None:
        cost = int(cost) + ENTRY_OVERHEAD
        with self._lock:
            old = self._items.pop(key, None)
            if old is not None:
                self.bytes -= old[1]
            if cost > self.budget:
                return
            self._items[key] = (value, cost)
            self.bytes += cost
            while self.bytes > self.budget:
                _, (_, freed) = self._items.popitem(last=False)
                self.bytes -= freed
                self.evictions += 1

    def pop(self, key: Hashable) -> Any | None:
        """Forget ``key``; its value, if it was there."""
        with self._lock:
            item = self._items.pop(key, None)
            if item is None:
                return None
            self.bytes -= item[1]
            return item[0]

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self.bytes = 0

    def keys(self) -> Iterator[Hashable]:
        with self._lock:
            return iter(list(self._items))

    def __len__(self) -> int:
        return len(self._items)


def deep_size(value: Any, seen: set[int] | None = None, limit: int = 100_000) -> int:
    """Bytes held by ``value`` and what it refers to (containers, dataclass slots),
    counting shared objects once; a one-off measure, not for every request.

    >>> deep_size(("ab", "ab")) < deep_size(("ab", "cd"))
    True
    """
    seen = set() if seen is None else seen
    stack = [value]
    total = 0
    while stack and len(seen) < limit:
        item = stack.pop()
        if id(item) in seen or item is None or isinstance(item, (bool, type)):
            continue
        seen.add(id(item))
        total += sys.getsizeof(item)
        if isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, (list, tuple, set, frozenset)):
            stack.extend(item)
        elif not isinstance(item, (str, bytes, int, float)):
            slots = [name for cls in type(item).__mro__ for name in getattr(cls, "__slots__", ())]
            stack.extend(getattr(item, name) for name in slots if hasattr(item, name))
            if hasattr(item, "__dict__"):
                stack.append(vars(item))
    return total


_class_sizes: dict[type, int] = {}


def position_size(position: Any) -> int:
    """The bytes one position of this game costs, measured once per game and doubled
    for safety (positions of one game hold the same cards, so their sizes are close)."""
    cls = type(position)
    size = _class_sizes.get(cls)
    if size is None:
        size = _class_sizes[cls] = 2 * deep_size(position)
    return size
