import sys
from pathlib import Path

# Test helpers (reference solvers) live beside the tests.
sys.path.insert(0, str(Path(__file__).parent))

SHARED = Path(__file__).resolve().parents[2] / "shared"
