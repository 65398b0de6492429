import sys
from pathlib import Path

# Test helpers (reference solvers, shared data paths) live beside the tests.
sys.path.insert(0, str(Path(__file__).parent))
