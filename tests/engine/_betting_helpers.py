"""Small builders so that betting tests read like the hand they describe.

    hand(["Ellen 500", "Bob 500", "Alice 8"], ["Dianne call", "Carol raise 16"], ante=1)

Players are listed from the button clockwise, as on the command line.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[2]


def players(*entries: str) -> list[dict[str, Any]]:
    out = []
    for entry in entries:
        name, stack = entry.rsplit(" ", 1)
        out.append({"name": name, "stack": int(stack)})
    return out


def actions(*entries: str) -> list[dict[str, Any]]:
    """ "Carol raise 16" -> {"player": "Carol", "do": "raise", "to": 16}."""
    out = []
    for entry in entries:
        words = entry.split()
        item: dict[str, Any] = {"player": words[0], "do": words[1]}
        if len(words) == 3:
            item["to"] = int(words[2])
        out.append(item)
    return out


def folds(*names: str) -> list[str]:
    return [f"{name} fold" for name in names]


def hand(
    seats: list[str],
    moves: list[str] | tuple[str, ...] = (),
    *,
    structure: str = "no-limit",
    blinds: list[int] | tuple[int, ...] = (4, 8),
    **settings: Any,
) -> dict[str, Any]:
    data: dict[str, Any] = {
        "structure": structure,
        "blinds": list(blinds),
        "players": players(*seats),
        "actions": actions(*moves),
    }
    data.update(settings)
    return data


def pots(result: dict[str, Any]) -> list[tuple[int, list[str]]]:
    return [(p["amount"], p["eligible"]) for p in result["pots"]]


def player(result: dict[str, Any], name: str) -> dict[str, Any]:
    return next(p for p in result["players"] if p["name"] == name)


def run_cli(
    data: Any, *args: str, raw: str | None = None, bare: bool = False
) -> subprocess.CompletedProcess:
    """``python -m tdsystem.engine adjudicate -`` (or ``args``; none at all with ``bare``)
    with ``data`` as JSON (or ``raw`` text) on standard input."""
    text = raw if raw is not None else json.dumps(data)
    if not bare:
        args = args or ("adjudicate", "-")
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    env.pop("DJANGO_SETTINGS_MODULE", None)
    return subprocess.run(
        [sys.executable, "-m", "tdsystem.engine", *args],
        input=text,
        capture_output=True,
        text=True,
        cwd=REPO,
        env=env,
        timeout=60,
    )


# The reference case (D8): ten players, ante 1, blinds 4/8, Alice in the big blind with 8.
REFERENCE_HAND = hand(
    [
        "Ellen 500",
        "Bob 500",
        "Alice 8",
        "Dianne 500",
        "Carol 500",
        "Joan 500",
        "P7 500",
        "P8 500",
        "P9 500",
        "P10 500",
    ],
    [
        "Dianne call",
        "Carol raise 16",
        *folds("Joan", "P7", "P8", "P9", "P10", "Ellen", "Bob"),
        "Dianne fold",
    ],
    blinds=(4, 8),
    ante=1,
    ante_type="each",
)
REFERENCE_POTS = [(35, ["Alice", "Carol"]), (10, ["Carol"])]
