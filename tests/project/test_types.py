"""The types. ``make test`` runs ``mypy`` (strict, on ``src/``: ``[tool.mypy]`` in
pyproject.toml) after ``lint-imports``; here, what that check rests on: the hand-written
stub of the Rust engine (``src/winnable/_engine.pyi``) names exactly what the extension
exports, with the same parameters, and mypy reads it (and the package's ``py.typed``)
when code outside ``src/`` uses Winnable."""

from __future__ import annotations

import ast
import inspect
import tomllib
from pathlib import Path
from typing import Any

from required import require_module
from winnable import _engine

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "src" / "winnable"
STUB = PACKAGE / "_engine.pyi"


def stub_items() -> dict[str, ast.FunctionDef | ast.ClassDef]:
    """The stub's public functions and classes, by name."""
    tree = ast.parse(STUB.read_text())
    return {node.name: node for node in tree.body if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and not node.name.startswith("_")}


def stub_parameters(function: ast.FunctionDef) -> list[tuple[str, str, Any]]:
    """``(name, kind, default)`` of each parameter (``self`` left out), as inspect names kinds."""
    args = function.args
    positional = args.posonlyargs + args.args
    defaults: list[Any] = [inspect.Parameter.empty] * (len(positional) - len(args.defaults))
    defaults += [ast.literal_eval(value) for value in args.defaults]
    out = [(arg.arg, "POSITIONAL_OR_KEYWORD", default) for arg, default in zip(positional, defaults)]
    out += [
        (arg.arg, "KEYWORD_ONLY", inspect.Parameter.empty if value is None else ast.literal_eval(value))
        for arg, value in zip(args.kwonlyargs, args.kw_defaults)
    ]
    return [item for item in out if item[0] != "self"]


def engine_parameters(function: Any) -> list[tuple[str, str, Any]]:
    return [(p.name, p.kind.name, p.default) for p in inspect.signature(function).parameters.values()]


def test_the_stub_names_every_function_and_class_the_engine_exports():
    exported = {name for name in dir(_engine) if not name.startswith("_")}
    assert set(stub_items()) == exported
    assert "__version__" in STUB.read_text()


def test_each_engine_function_takes_the_parameters_its_stub_gives():
    for name, node in stub_items().items():
        if isinstance(node, ast.FunctionDef):
            assert stub_parameters(node) == engine_parameters(getattr(_engine, name)), name


def test_the_free_cell_rules_class_is_described_as_the_engine_makes_it():
    node = stub_items()["FreeCellRules"]
    assert isinstance(node, ast.ClassDef)
    methods = {item.name: item for item in node.body if isinstance(item, ast.FunctionDef)}
    assert stub_parameters(methods["__init__"]) == engine_parameters(_engine.FreeCellRules)
    properties = {
        name for name, item in methods.items() if any(isinstance(d, ast.Name) and d.id == "property" for d in item.decorator_list)
    }
    rules = _engine.FreeCellRules(columns=8, cells=4, build="alternate", wrap="none", empty_column="any", runs="supermove", auto_beak=False)
    public = {name for name in dir(rules) if not name.startswith("_")}
    assert properties == public
    assert type(rules).__hash__ is None  # unhashable, as the stub says (__eq__ without __hash__)


def test_the_package_is_marked_typed_and_checked_strictly():
    assert (PACKAGE / "py.typed").is_file()
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]
    assert config["strict"] is True and config["files"] == ["src/winnable"]


def test_mypy_reads_the_engine_stub_from_the_installed_package(tmp_path):
    api = require_module("mypy.api", "pip install -e '.[test]'")
    program = (
        "from winnable import _engine\n"
        "verdict, line, positions = _engine.black_hole_solve([[0]], 1)\n"
        "reveal_type(verdict)\n"
        "_engine.fourteen_solve([[0]], max_nodes='many')\n"
    )
    # Without the project's own configuration (its "files" are src/): as a user of the package.
    out, _, status = api.run(["--config-file", "", "--strict", "--cache-dir", str(tmp_path / "cache"), "-c", program])
    assert status == 1, out
    assert "Literal['won'] | Literal['lost'] | Literal['unknown']" in out
    assert 'Argument "max_nodes" to "fourteen_solve" has incompatible type "str"; expected "int | None"' in out
    assert out.count("error:") == 1, out
