"""The command line: ``python -m tdsystem.engine adjudicate HAND.json`` (or ``-``).

One JSON object on standard output. Exit 0 with the answer; exit 2 with
``{"error": "..."}`` on one line for anything else (bad input, a broken rule, a usage
mistake, even a bug): callers parse standard output and never see a traceback.
``explain`` prints the same answer with the notes and reasons of the ruling page.
"""

from __future__ import annotations

import json
import sys
from typing import Any, TextIO

USAGE = (
    "usage: python -m tdsystem.engine adjudicate HAND.json  (or - for standard input); "
    "python -m tdsystem.engine explain HAND.json adds the notes behind the ruling"
)
COMMANDS = ("adjudicate", "explain")


class _InputError(Exception):
    pass


def _reject_constant(name: str) -> Any:
    raise _InputError(f"not valid JSON: {name} is not a number")


def _read(source: str, stdin: TextIO) -> Any:
    try:
        if source == "-":
            text = stdin.read()
        else:
            with open(source, encoding="utf-8") as handle:
                text = handle.read()
    except (OSError, UnicodeDecodeError) as exc:
        where = "standard input" if source == "-" else source
        raise _InputError(f"cannot read {where}: {exc}") from exc
    try:
        return json.loads(text, parse_constant=_reject_constant)
    except ValueError as exc:  # JSONDecodeError, or a number too long to read
        raise _InputError(f"not valid JSON: {exc}") from exc


def _answer(argv: list[str], stdin: TextIO) -> dict[str, Any]:
    if len(argv) != 2 or argv[0] not in COMMANDS:
        raise _InputError(USAGE)
    data = _read(argv[1], stdin)
    # Imported here so that a usage mistake answers without loading the rules.
    from tdsystem.engine.ruling import adjudicate, rule_on

    if argv[0] == "explain":
        return rule_on(data).as_explained_dict()
    return adjudicate(data)


def main(
    argv: list[str] | None = None, stdin: TextIO | None = None, stdout: TextIO | None = None
) -> int:
    from tdsystem.engine.errors import RuleError

    argv = sys.argv[1:] if argv is None else argv
    stdin = sys.stdin if stdin is None else stdin
    stdout = sys.stdout if stdout is None else stdout
    if argv in (["-h"], ["--help"]):
        stdout.write(USAGE + "\n")
        return 0
    try:
        out, code = _answer(argv, stdin), 0
    except (_InputError, RuleError) as exc:
        out, code = {"error": str(exc)}, 2
    except RecursionError:
        out, code = {"error": "not valid input: nested too deeply"}, 2
    except BaseException as exc:  # the contract: a JSON line and exit 2, never a traceback
        out, code = {"error": f"internal error: {type(exc).__name__}: {exc}"}, 2
    try:
        stdout.write(json.dumps(out) + "\n")
        stdout.flush()
    except BrokenPipeError:
        pass
    return code
