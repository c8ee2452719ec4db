"""Random input into ``adjudicate -``: exit 0 or 2, one JSON object, never a traceback.

The CLI turns any exception into ``{"error": "internal error: ..."}`` (the contract
forbids a traceback), which would hide a bug from a test that only checks the exit code;
so an "internal error" fails here too. Hands are built near the contract's shape (real
names, a legal-looking action list) with junk mixed into every field, so the rules are
reached and not only the parser. `CLI_FUZZ_EXAMPLES=2000` tries more.
"""

from __future__ import annotations

import io
import json
import os

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from tdsystem.engine import cli
from tests.engine._betting_helpers import REFERENCE_HAND, run_cli

EXAMPLES = int(os.environ.get("CLI_FUZZ_EXAMPLES", "300"))
FUZZ = settings(
    max_examples=EXAMPLES,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)

JUNK = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(),
        st.sampled_from([0, -1, 2**63, -(2**63), 10**40, 10**400]),
        st.floats(),
        st.text(max_size=12),
    ),
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=8,
)
NAMES = ["Ellen", "Bob", "Alice", "Dianne", "Carol", "Zoë", ""]
CHIPS = st.one_of(st.integers(-5, 1000), st.sampled_from([0, 1, 10**18, 10**30]))


def sometimes(strategy):
    """Mostly the field as the contract has it; now and then any JSON, or absent."""
    return st.one_of(strategy, strategy, strategy, JUNK)


PLAYER = st.fixed_dictionaries(
    {"name": sometimes(st.sampled_from(NAMES)), "stack": sometimes(CHIPS)},
    optional={"extra": JUNK},
)
ACTION = st.one_of(
    st.fixed_dictionaries(
        {
            "player": sometimes(st.sampled_from(NAMES)),
            "do": sometimes(
                st.sampled_from(["fold", "check", "call", "bet", "raise", "all-in", "shove"])
            ),
        },
        optional={"to": sometimes(CHIPS), "out_of_turn": sometimes(st.booleans())},
    ),
    # What a player put out and said (D12).
    st.fixed_dictionaries(
        {"player": sometimes(st.sampled_from(NAMES))},
        optional={
            "chips": sometimes(st.lists(st.sampled_from([1, 5, 25, 100, 500]), max_size=5)),
            "said": sometimes(st.one_of(st.sampled_from(["call", "raise", "pot", "check"]), CHIPS)),
            "to": sometimes(CHIPS),
            "out_of_turn": sometimes(st.booleans()),
        },
    ),
)
HAND = st.fixed_dictionaries(
    {
        "structure": sometimes(
            st.sampled_from(
                ["no-limit", "pot-limit", "fixed-limit", "spread-limit", "half-pot-limit"]
            )
        ),
        "blinds": sometimes(st.lists(st.integers(-2, 50), min_size=0, max_size=3)),
        "players": sometimes(st.lists(PLAYER, min_size=0, max_size=10)),
        "actions": sometimes(st.lists(ACTION, max_size=12)),
    },
    optional={
        "ante": sometimes(st.integers(-1, 20)),
        "ante_type": sometimes(st.sampled_from(["each", "big-blind", "button", "none"])),
        "bets": sometimes(st.lists(st.integers(-1, 40), max_size=3)),
        "raise_cap": sometimes(st.integers(-1, 5)),
        "incomplete_raise": sometimes(st.sampled_from(["full-bet", "half-bet", "x"])),
        "pot_limit_preflop": sometimes(st.sampled_from(["true-pot", "assumed-call", "x"])),
        "spread": sometimes(st.lists(st.integers(-1, 30), min_size=1, max_size=4)),
        "cap": sometimes(st.integers(-1, 500)),
        "rule_set": sometimes(st.sampled_from(["tda-2024", "tda-2026", "wsop-2026", "x"])),
        "silent_chips": sometimes(st.sampled_from(["fifty-percent", "full-amount", "x"])),
        "straddles": sometimes(st.lists(st.integers(-1, 100), max_size=3)),
        "kill": sometimes(
            st.fixed_dictionaries(
                {"player": st.sampled_from(NAMES), "kind": st.sampled_from(["full", "half", "x"])}
            )
        ),
        "missed_blinds": sometimes(
            st.dictionaries(
                st.sampled_from(NAMES), st.sampled_from(["big", "small", "both", "x"]), max_size=2
            )
        ),
    },
)
# Seven-card stud, checked field by field as the blind games are (the contract: a wrong field
# is exit 2 naming it, amounts are whole chips).
STUD_HAND = st.fixed_dictionaries(
    {
        "game": st.just("stud"),
        "structure": sometimes(st.just("fixed-limit")),
        "bets": sometimes(st.lists(st.integers(-1, 40), min_size=2, max_size=2)),
        "bring_in": sometimes(st.integers(-1, 12)),
        "bring_in_player": sometimes(st.sampled_from(NAMES)),
        "players": sometimes(st.lists(PLAYER, min_size=0, max_size=9)),
        "actions": sometimes(st.lists(ACTION, max_size=12)),
    },
    optional={
        "ante": sometimes(st.one_of(st.integers(-3, 20), st.sampled_from([0.5, "1", True]))),
        "raise_cap": sometimes(st.integers(-1, 5)),
        "incomplete_raise": sometimes(st.sampled_from(["full-bet", "half-bet", "quarter-bet"])),
        "bring_in_completes": sometimes(st.booleans()),
        "first_to_act": sometimes(st.fixed_dictionaries({"fourth": st.sampled_from(NAMES)})),
    },
)
TEXT_INPUT = st.one_of(
    HAND.map(json.dumps),
    JUNK.map(json.dumps),
    st.text(max_size=60),
    st.sampled_from(["", "{", "NaN", '{"players": Infinity}', "[" * 100_000, "1" * 5000]),
)


def adjudicate(raw: bytes) -> tuple[int, dict]:
    """The CLI's main function in-process, reading `raw` as its standard input."""
    stdin = io.TextIOWrapper(io.BytesIO(raw), encoding="utf-8")
    stdout = io.StringIO()
    code = cli.main(["adjudicate", "-"], stdin=stdin, stdout=stdout)
    text = stdout.getvalue()
    assert code in (0, 2), (code, text)
    assert text.endswith("\n") and text.count("\n") == 1, text
    out = json.loads(text)
    assert isinstance(out, dict)
    if code == 2:
        assert list(out) == ["error"] and isinstance(out["error"], str) and out["error"]
        assert "internal error" not in out["error"], (raw[:300], out)
        assert "Traceback" not in out["error"]
    return code, out


def check_answer(hand: dict, out: dict) -> None:
    """An answer keeps every chip: pots plus stacks are the starting stacks."""
    assert set(out) >= {"street", "next", "pots", "players"}
    start = sum(p["stack"] for p in hand["players"])
    assert sum(p["amount"] for p in out["pots"]) + sum(p["stack"] for p in out["players"]) == start
    assert all(p["stack"] >= 0 for p in out["players"])
    chips = [p["amount"] for p in out["pots"]] + [p["stack"] for p in out["players"]]
    assert all(type(c) is int and c >= 0 for c in chips), out  # whole chips, none from nothing


@FUZZ
@given(raw=st.binary(max_size=200))
def test_random_bytes_answer_an_error(raw):
    code, _ = adjudicate(raw)
    event(f"exit {code}")


@FUZZ
@given(text=TEXT_INPUT)
def test_random_json_answers_exit_0_or_2_with_one_object(text):
    code, _ = adjudicate(text.encode("utf-8", "surrogatepass"))
    event(f"exit {code}")


@FUZZ
@given(hand=HAND)
def test_near_legal_hands_keep_every_chip(hand):
    code, out = adjudicate(json.dumps(hand).encode())
    event(f"exit {code}")
    if code == 0:
        check_answer(hand, out)


@FUZZ
@given(hand=STUD_HAND)
def test_near_legal_stud_hands_keep_every_chip_or_name_the_field(hand):
    code, out = adjudicate(json.dumps(hand).encode())
    event(f"exit {code}")
    if code == 0:
        check_answer(hand, out)


def legal_next(data, out: dict, structure: str) -> dict:
    """One of the moves the answer's `next` allows, drawn."""
    nxt = out["next"]
    stack = next(p["stack"] for p in out["players"] if p["name"] == nxt["player"])
    options = ["fold", "call" if nxt["call"] else "check"]
    if nxt["min_raise_to"] is not None:
        options.append("raise")
    # All-in is a call for a short stack; for more, a raise, so only where any size goes.
    if stack <= nxt["call"] or (structure == "no-limit" and nxt["min_raise_to"] is not None):
        options.append("all-in")
    do = data.draw(st.sampled_from(options), label="do")
    action = {"player": nxt["player"], "do": do}
    if do == "raise":
        action["to"] = data.draw(st.integers(nxt["min_raise_to"], nxt["max_raise_to"]))
    return action


@settings(FUZZ, max_examples=max(EXAMPLES // 3, 10))
@given(data=st.data())
def test_hands_played_by_the_rules_keep_every_chip_and_a_wrong_move_names_its_action(data):
    """Each step takes a move the last answer allowed; then one move the rules refuse."""
    structure = data.draw(st.sampled_from(["no-limit", "pot-limit", "fixed-limit"]))
    count = data.draw(st.integers(2, 9), label="players")
    hand = {
        "structure": structure,
        "blinds": data.draw(st.sampled_from([[1, 2], [4, 8], [5, 10], [10]])),
        "ante": data.draw(st.sampled_from([0, 0, 1, 3])),
        "ante_type": data.draw(st.sampled_from(["each", "big-blind", "button"])),
        "players": [
            {"name": f"P{i}", "stack": data.draw(st.integers(1, 400), label=f"stack {i}")}
            for i in range(count)
        ],
        "actions": [],
    }
    if structure == "fixed-limit":
        hand["bets"] = [hand["blinds"][-1], 2 * hand["blinds"][-1]]
    for _ in range(60):
        code, out = adjudicate(json.dumps(hand).encode())
        if code == 2 and hand["actions"] and hand["actions"][-1]["do"] == "raise":
            # A raise with no wager in the round is a bet: the caller says which.
            hand["actions"][-1]["do"] = "bet"
            code, out = adjudicate(json.dumps(hand).encode())
        assert code == 0, (hand, out)
        check_answer(hand, out)
        if out["next"] is None:
            break
        hand["actions"].append(legal_next(data, out, structure))
    event(f"ended on {out['street']}")
    wrong = {"player": data.draw(st.sampled_from(["Nobody", "P0", "P1"])), "do": "check"}
    hand["actions"].append(wrong)
    code, wrong_out = adjudicate(json.dumps(hand).encode())
    if code == 2:
        assert wrong_out["error"].startswith(f"action {len(hand['actions']) - 1}:"), wrong_out


@settings(FUZZ, max_examples=5)
@given(text=TEXT_INPUT)
def test_through_a_real_process_there_is_no_traceback(text):
    done = run_cli(None, raw=text.encode("utf-8", "replace").decode("utf-8"))
    assert done.returncode in (0, 2), done
    assert done.stderr == "" and "Traceback" not in done.stdout
    assert isinstance(json.loads(done.stdout), dict)


def test_a_process_given_bytes_that_are_not_utf8_answers_an_error():
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "tdsystem.engine", "adjudicate", "-"],
        input=b"\xff\xfe{" + json.dumps(REFERENCE_HAND).encode(),
        capture_output=True,
        timeout=60,
        cwd=os.path.dirname(os.path.dirname(os.path.dirname(__file__))),
    )
    assert done.returncode == 2 and done.stderr == b""
    assert "error" in json.loads(done.stdout)
