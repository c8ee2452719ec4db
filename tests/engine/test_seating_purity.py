import ast
import sys
from pathlib import Path

import tdsystem.engine.seating

PACKAGE = Path(tdsystem.engine.seating.__file__).parent
MODULES = sorted(PACKAGE.glob("*.py"))


def imported_roots(path: Path) -> set[str]:
    roots = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            roots.add(node.module.split(".")[0])
    return roots


def test_it_finds_the_seating_modules():
    assert {path.name for path in MODULES} >= {
        "__init__.py",
        "model.py",
        "draw.py",
        "balance.py",
        "buttons.py",
    }


def test_it_imports_the_standard_library_only():
    for path in MODULES:
        outside = imported_roots(path) - sys.stdlib_module_names - {"__future__"}
        assert not outside, f"{path.name} imports {sorted(outside)}"
