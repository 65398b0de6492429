"""Where the tests' data lives: ``tests/data/``, in the repository.

The files there are copies of the project's shared vectors (``../shared/vectors`` beside
a developer's checkout). Tests read only the copies; when the shared folder is present
too, ``test_deals.py`` checks that the copies are still the same.
"""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
"""The checkout: the repository's root."""

DATA = ROOT / "tests" / "data"
"""The test vectors: ``black-hole-1-1000.csv`` (black-hole-solver's verdicts and
positions for deals 1-1000) and ``penguin-deals.txt`` (PySolFC's Penguin layouts)."""

CHECKOUT = ROOT
SHARED_VECTORS = next(
    (folder / "shared" / "vectors" for folder in CHECKOUT.parents if (folder / "shared" / "vectors").is_dir()),
    CHECKOUT.parent / "shared" / "vectors",
)
"""The shared originals, if a ``shared/vectors`` folder sits beside this checkout or one
of the folders above it (optional: nothing else reads it)."""
