"""A family's capabilities are data in the registry (winnable/games.py, its `Traits`),
read by the web app's Python and, through /api/catalog, by the game page: no module of
the web app tests a family's name, except the family's own modules (its view, its
renderer, its rules page)."""

from __future__ import annotations

import re
from pathlib import Path

from fastapi.testclient import TestClient

from winnable.games import FAMILIES, game_ids, traits_of
from winnable.web.app import create_app

WEB = Path(__file__).resolve().parents[2] / "src" / "winnable" / "web"
FAMILY_IDS = [family.id for family in FAMILIES]
NAME = "|".join(map(re.escape, FAMILY_IDS))
TESTS = [
    # a family's name in quotes: compared, listed in a set, a default
    re.compile(rf"""["'`]({NAME})["'`]"""),
    # a family compared with a text: family == "x", "x" !== state.family, family in ("x", ...)
    re.compile(r"""\bfamily\s*(?:[!=]==?|(?:not\s+)?in\b)\s*[(\[{]?\s*["'`]"""),
    re.compile(r"""["'`]\s*[!=]==?\s*[\w.?]*\bfamily\b"""),
]


def own_module(path: Path) -> bool:
    """A family's own modules: views/<family>.py, static/js/<family>.js, rules/<family>.html."""
    return path.stem in FAMILY_IDS


def offences(root: Path) -> list[str]:
    found = []
    for path in sorted([*root.rglob("*.py"), *root.rglob("*.js")]):
        if own_module(path):
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if any(test.search(line) for test in TESTS):
                found.append(f"{path.relative_to(root)}:{number}: {line.strip()}")
    return found


def test_no_family_name_is_tested_outside_the_registry():
    assert offences(WEB) == []


def test_the_check_finds_a_family_test(tmp_path):
    (tmp_path / "page.js").write_text('if (state.family === "fourteen") go();\nconst s = new Set(["spider"]);\n')
    (tmp_path / "stats.py").write_text('penguin = cls.family == PENGUIN\nok = lookup(game).family == family\nx = family in ("a", "b")\n')
    (tmp_path / "spider.js").write_text('export const name = "spider";\n')  # its own module
    assert [line.split(":")[0:2] for line in offences(tmp_path)] == [["page.js", "1"], ["page.js", "2"], ["stats.py", "3"]]


def test_the_catalog_serves_each_games_traits():
    client = TestClient(create_app("sqlite://", pool_size=0, allowed_hosts=["testserver"]))
    catalog = {entry["id"]: entry for entry in client.get("/api/catalog").json()}
    assert list(catalog) == game_ids()
    for game, entry in catalog.items():
        assert entry["traits"] == traits_of(game).as_json()
        assert set(entry) >= {"id", "title", "family", "variant_of", "picture", "summary", "undo_modes", "hidden_cards", "links"}
    assert catalog["penguin-6"]["traits"]["ranking"] == "speed"
    assert catalog["penguin-6"]["traits"]["safe_moves"] is True
    assert catalog["spider-2"]["traits"]["click_move"] is True
    assert catalog["penguin-6"]["traits"]["cells"] == "flippers" and catalog["freecell"]["traits"]["cells"] == "cells"
    assert catalog["black-hole"]["traits"] == {
        "view": "blackhole",
        "score": "none",
        "ranking": "time",
        "timed_play": True,
        "one_tap": True,
        "click_move": False,
        "safe_moves": False,
        "times_by_undo": True,
        "cells": "cells",
    }
    assert catalog["fourteen-out"]["traits"]["score"] == "taken-out"
