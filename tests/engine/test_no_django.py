"""The engine is pure Python: no module under tdsystem/engine may import Django or Celery,
so ``python -m tdsystem.engine`` and the tests of the rules run without a project set up."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
ENGINE = REPO / "tdsystem" / "engine"
FORBIDDEN = ("django", "celery", "kombu")

IMPORT_ALL = """
import importlib, json, pkgutil, sys
import tdsystem.engine as engine
names = sorted(m.name for m in pkgutil.walk_packages(engine.__path__, "tdsystem.engine.")
               if m.name != "tdsystem.engine.__main__")
for name in names:
    importlib.import_module(name)
loaded = sorted(m for m in sys.modules if m.split(".")[0] in {forbidden!r})
print(json.dumps({{"modules": names, "loaded": loaded}}))
"""

RUN_COMMAND_LINE = """
import io, json, runpy, sys
sys.argv = ["tdsystem.engine", "adjudicate", "-"]
sys.stdin = io.StringIO(json.dumps({hand!r}))
out, sys.stdout = sys.stdout, io.StringIO()
try:
    runpy.run_module("tdsystem.engine", run_name="__main__")
except SystemExit as done:
    code = done.code
answer, sys.stdout = sys.stdout.getvalue(), out
loaded = sorted(m for m in sys.modules if m.split(".")[0] in {forbidden!r})
print(json.dumps({{"code": code, "answer": json.loads(answer), "loaded": loaded}}))
"""


def run_python(code: str) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    env["PYTHONPATH"] = str(REPO)
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, env=env, timeout=60
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_it_imports_every_engine_module_without_django_or_celery():
    found = run_python(IMPORT_ALL.format(forbidden=FORBIDDEN))

    assert "tdsystem.engine.betting" in found["modules"]
    assert "tdsystem.engine.cli" in found["modules"]
    assert found["loaded"] == []


def test_it_runs_the_command_line_without_django_or_celery():
    hand = {
        "structure": "no-limit",
        "blinds": [1, 2],
        "players": [{"name": "A", "stack": 100}, {"name": "B", "stack": 100}],
    }

    found = run_python(RUN_COMMAND_LINE.format(hand=hand, forbidden=FORBIDDEN))

    assert found["code"] == 0
    assert found["answer"]["next"]["player"] == "A"
    assert found["loaded"] == []


def _imported_names(tree: ast.AST):
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            yield node.module
        elif (
            isinstance(node, ast.Call)
            and getattr(node.func, "attr", getattr(node.func, "id", ""))
            in ("import_module", "__import__")
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            yield node.args[0].value


def test_it_finds_no_django_or_celery_import_in_the_engine_source():
    offenders = []
    files = sorted(ENGINE.rglob("*.py"))
    for path in files:
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for name in _imported_names(tree):
            if name.split(".")[0] in FORBIDDEN:
                offenders.append(f"{path.relative_to(REPO)}: {name}")

    assert len(files) >= 8
    assert offenders == []


def test_it_would_notice_an_import_of_django():
    tree = ast.parse("import os\nfrom django.db import models\nimportlib.import_module('celery')")

    assert list(_imported_names(tree)) == ["os", "django.db", "celery"]
