"""Where the project's shared data lives: ../shared beside the checkout."""

from pathlib import Path

SHARED = Path(__file__).resolve().parents[2] / "shared"
