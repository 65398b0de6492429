import sys
from pathlib import Path

# Test helpers (reference solvers, shared data paths, the browser tests' server helpers)
# live beside the tests; with --import-mode=importlib their folders must be on the path.
HERE = Path(__file__).parent
for folder in (HERE, HERE / "browser"):
    sys.path.insert(0, str(folder))
