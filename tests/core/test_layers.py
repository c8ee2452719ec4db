"""The layer order in .importlinter holds, and a wrong import breaks it.

`make lint` runs the same contracts on the real tree; here a copy of the package gets one
import that points the wrong way, and the check must name it.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


def lint(tree: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(LINT_IMPORTS), "--config", str(tree / ".importlinter"), "--no-cache"],
        cwd=tree,
        env={"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    shutil.copytree(
        ROOT / "tdsystem", tmp_path / "tdsystem", ignore=shutil.ignore_patterns("__pycache__")
    )
    shutil.copy(ROOT / ".importlinter", tmp_path / ".importlinter")
    return tmp_path


def test_the_tree_keeps_every_contract(tree: Path) -> None:
    done = lint(tree)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "broken" not in done.stdout.lower().replace("0 broken", "")


@pytest.mark.parametrize(
    ("module", "line", "contract"),
    [
        ("tdsystem/engine/wrong.py", "import django.db\n", "The engine imports nothing"),
        ("tdsystem/engine/wrong.py", "from tdsystem.core import models\n", "The engine imports"),
        ("tdsystem/core/wrong.py", "from tdsystem.events import models\n", "Core imports no"),
        ("tdsystem/events/wrong.py", "from tdsystem.seating import models\n", "in their order"),
        ("tdsystem/seating/wrong.py", "from tdsystem.results import models\n", "in their order"),
        ("tdsystem/results/wrong.py", "from tdsystem.venue import apps\n", "in their order"),
        ("tdsystem/results/wrong.py", "from tdsystem.rulings import selectors\n", "in their order"),
        (
            "tdsystem/results/wrong.py",
            "from tdsystem.seating.views_console import entry_panel\n",
            "not its views, forms or test helpers",
        ),
        (
            "tdsystem/results/services/wrong.py",
            "from tdsystem.seating.forms import ENTRY_MAX\n",
            "not its views, forms or test helpers",
        ),
        ("tdsystem/results/wrong.py", "from tdsystem.simulation import seatings\n", "the harness"),
        ("tdsystem/seating/wrong.py", "from tdsystem.simulation import seatings\n", "the harness"),
        ("tdsystem/api/wrong.py", "from tdsystem.simulation.event import ACTOR\n", "the harness"),
    ],
)
def test_a_wrong_import_breaks_its_contract(tree: Path, module: str, line: str, contract: str):
    (tree / module).write_text(line)
    done = lint(tree)
    assert done.returncode != 0
    broken = done.stdout.split("Broken contracts", 1)[-1]
    assert contract in broken
    assert module.removesuffix(".py").replace("/", ".") in broken
