"""The benchmarks are scripts run from their folder (benchmarks/), not a package: their
modules are imported as those scripts import each other."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
