"""What a test needs from outside the repository, and what happens when it is missing.

Some checks depend on a program or a package that ``make system-deps`` or the ``test``
extra installs: the independent solver fc-solve and Microsoft's board generator (Debian's
``freecell-solver-bin``), Chromium and Playwright for the browser tests, PostgreSQL and
psycopg for the database tests. On a developer's machine a test whose tool is missing is
skipped with the reason. Under ``CI=true`` (what ``.ci/run`` sets, as CI services do) it
fails instead: a cross-check that silently does not run proves nothing.
"""

from __future__ import annotations

import importlib
import os
import shutil
from types import ModuleType
from typing import NoReturn

import pytest


def strict() -> bool:
    """Whether a missing tool fails the test (``CI=true``) rather than skipping it."""
    return os.environ.get("CI", "").strip().lower() in {"1", "true", "yes"}


def unavailable(reason: str) -> NoReturn:
    """Skip the test (or the module, at module level) with ``reason``; fail it under CI."""
    if strict():
        pytest.fail(f"{reason}; CI=true, where every independent check must run", pytrace=False)
    pytest.skip(reason, allow_module_level=True)


def require_tool(name: str, package: str = "freecell-solver-bin") -> str:
    """The path of the program ``name``, or :func:`unavailable` (Debian's ``package`` has it)."""
    path = shutil.which(name)
    if path is None:
        unavailable(f"{name} is not installed (Debian: apt-get install {package}; make system-deps does)")
    return path


def require_module(name: str, install: str) -> ModuleType:
    """The Python module ``name``, or :func:`unavailable` (``install`` says how to get it)."""
    try:
        return importlib.import_module(name)
    except ImportError:
        unavailable(f"the Python module {name} is not installed ({install})")
