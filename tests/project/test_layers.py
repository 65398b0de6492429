"""The import contract (``[tool.importlinter]`` in pyproject.toml, checked by
``lint-imports`` in ``make test``) names every module of ``winnable``: a new module
is either in a layer or in the rules core, so no module escapes the contract by being
new."""

from __future__ import annotations

import tomllib
from pathlib import Path

import grimp  # import-linter's graph (the test extras install it)

ROOT = Path(__file__).resolve().parents[2]


def contracts() -> list[dict]:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]


def named_modules() -> set[str]:
    named: set[str] = set()
    for contract in contracts():
        if contract["type"] == "layers":
            for container in contract["containers"]:
                for layer in contract["layers"]:
                    named |= {f"{container}.{part.strip()}" for part in layer.replace(":", "|").split("|")}
        elif contract["type"] == "forbidden":
            named |= set(contract["source_modules"])
    return named


def test_every_module_of_winnable_is_named_in_the_import_contract():
    graph = grimp.build_graph("winnable", include_external_packages=False)
    children = graph.find_children("winnable") - {"winnable._engine"}
    assert children, "grimp found no module"
    assert sorted(children - named_modules()) == []


def test_the_contract_forbids_the_core_the_web_app_and_checks_for_cycles():
    kinds = {contract["type"] for contract in contracts()}
    assert {"layers", "forbidden", "acyclic_siblings"} <= kinds
    core = next(c for c in contracts() if c["type"] == "forbidden" and "winnable.solver" in c["source_modules"])
    assert {"winnable.web", "winnable.storage", "winnable.surveys", "winnable.cli"} <= set(core["forbidden_modules"])
