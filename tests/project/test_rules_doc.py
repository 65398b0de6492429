"""The rules document, ``docs/RULES.md``, and what cites it.

The code, the docs and the tests cite the rules as ``docs/RULES.md`` or
``docs/RULES.md#section`` (the section's anchor as GitHub makes it from its heading).
Every such citation must resolve: the path is the document's, the anchor one of its
headings; and every file the document names as where its rules live must exist.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "docs" / "RULES.md"
SEARCHED = ["README.md", "Makefile", "src", "engine/src", "engine/examples", "tests", "bench", "docs"]
SUFFIXES = {".py", ".rs", ".md", ".txt", ".js", ".html", ".po", ".pot", ".toml", ""}
CITATION = re.compile(r"(?P<path>[\w./-]*RULES\.md)(?:#(?P<anchor>[\w-]+))?")


def anchor(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation dropped, spaces to hyphens.

    >>> anchor("Relatives named in the seeds"), anchor("Baker's Game — seed 004")
    ('relatives-named-in-the-seeds', 'bakers-game--seed-004')
    """
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def sections() -> set[str]:
    return {anchor(line.lstrip("#")) for line in RULES.read_text().splitlines() if line.startswith("#")}


def citing_files():
    for name in SEARCHED:
        path = ROOT / name
        files = [path] if path.is_file() else sorted(p for p in path.rglob("*") if p.is_file())
        for file in files:
            if file.suffix in SUFFIXES and "__pycache__" not in file.parts and file != Path(__file__).resolve():
                yield file


def citations() -> list[tuple[str, str, str | None]]:
    found = []
    for file in citing_files():
        try:
            text = file.read_text()
        except UnicodeDecodeError:
            continue
        for match in CITATION.finditer(text):
            found.append((str(file.relative_to(ROOT)), match["path"], match["anchor"]))
    return found


def test_the_rules_document_has_a_section_per_game():
    assert {"deal-numbers", "black-hole", "black-widow", "penguin", "relatives-named-in-the-seeds"} <= sections()


def test_the_code_cites_the_rules_of_every_family():
    cited = {(file, anchor) for file, _, anchor in citations()}
    for module, section in [
        ("deals.py", "deal-numbers"),
        ("blackhole.py", "black-hole"),
        ("spider.py", "black-widow"),
        ("freecell/__init__.py", "penguin"),
        ("freecell/__init__.py", "relatives-named-in-the-seeds"),
    ]:
        assert (f"src/winnable/{module}", section) in cited, (module, section)


@pytest.mark.parametrize("file, path, section", citations())
def test_every_citation_of_the_rules_resolves(file, path, section):
    assert path == "docs/RULES.md", f"{file} cites {path}: write docs/RULES.md (the path from the repository's top)"
    assert section is None or section in sections(), f"{file} cites a section {section!r} that docs/RULES.md does not have"


def test_every_file_the_rules_name_exists():
    named = re.findall(r"`((?:src|engine|tests)/[\w./-]+)`", RULES.read_text())
    assert len(named) >= 8
    for path in named:
        assert (ROOT / path).exists(), path
