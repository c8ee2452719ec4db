"""``python -m tdsystem.engine adjudicate``: JSON out, exit 0; one JSON error line, exit 2."""

from __future__ import annotations

import io
import json

import pytest

from tdsystem.engine import cli
from tests.engine._betting_helpers import REFERENCE_HAND, REFERENCE_POTS, hand, run_cli

FOUR = ["E 500", "B 500", "A 500", "D 500"]


def assert_error(done, *parts):
    """Exit 2, one JSON line naming the fault, nothing on standard error."""
    assert done.returncode == 2, done.stdout + done.stderr
    assert done.stderr == ""
    assert done.stdout.endswith("\n") and done.stdout.count("\n") == 1
    out = json.loads(done.stdout)
    assert list(out) == ["error"]
    for part in parts:
        assert part in out["error"], out["error"]
    return out["error"]


def test_it_reads_the_hand_from_a_file(tmp_path):
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(REFERENCE_HAND), encoding="utf-8")

    done = run_cli(None, "adjudicate", str(path), raw="")

    assert done.returncode == 0, done.stdout
    assert [(p["amount"], p["eligible"]) for p in json.loads(done.stdout)["pots"]] == REFERENCE_POTS


def test_it_reads_the_hand_from_standard_input():
    done = run_cli(REFERENCE_HAND)

    assert done.returncode == 0
    assert json.loads(done.stdout)["street"] == "showdown"
    assert done.stdout.count("\n") == 1


def test_it_explains_the_ruling_on_request():
    done = run_cli(dict(REFERENCE_HAND, actions=[]), "explain", "-")

    out = json.loads(done.stdout)
    assert done.returncode == 0
    assert {
        "rule": "D8",
        "text": "Alice is all-in for 7 of the 8 big blind: callers owe the full 8",
    } in out["notes"]
    assert out["next"]["reasons"][0]["rule"] == "D8"


def test_it_escapes_names_outside_ascii():
    done = run_cli(hand(["Zoë 100", "Søren 100"]))

    assert done.returncode == 0
    assert json.loads(done.stdout)["next"]["player"] == "Zoë"


@pytest.mark.parametrize(
    "args",
    [(), ("adjudicate",), ("judge", "-"), ("adjudicate", "-", "extra")],
)
def test_it_answers_a_usage_mistake_with_a_json_error(args):
    done = run_cli(None, *args, raw="", bare=True)

    assert_error(done, "usage: python -m tdsystem.engine adjudicate")


def test_it_prints_the_usage_on_request():
    out = io.StringIO()

    assert cli.main(["--help"], io.StringIO(), out) == 0
    assert out.getvalue().startswith("usage:")


def test_it_reports_a_file_it_cannot_read(tmp_path):
    assert_error(run_cli(None, "adjudicate", str(tmp_path / "nope.json"), raw=""), "cannot read")
    assert_error(run_cli(None, "adjudicate", str(tmp_path), raw=""), "cannot read")


def test_it_reports_a_file_that_is_not_text(tmp_path):
    path = tmp_path / "hand.json"
    path.write_bytes(b"\xff\xfe\x00garbage")

    assert_error(run_cli(None, "adjudicate", str(path), raw=""), "cannot read")


@pytest.mark.parametrize(
    ("raw", "part"),
    [
        ("{", "not valid JSON"),
        ("", "not valid JSON"),
        ('{"structure": NaN}', "NaN is not a number"),
        ("[1, 2]", "the hand must be a JSON object"),
        ('"hand"', "the hand must be a JSON object"),
        ("[" * 50000, "nested too deeply"),
        ('{"ante": ' + "9" * 5000 + "}", "not valid JSON"),
    ],
)
def test_it_reports_input_that_is_not_a_hand(raw, part):
    assert_error(run_cli(None, raw=raw), part)


@pytest.mark.parametrize(
    ("change", "parts"),
    [
        ({"players": None}, ["players: must be a list"]),
        ({"structure": 3}, ["structure: must be one of"]),
        ({"blinds": "4/8"}, ["blinds:"]),
        ({"ante": "1"}, ["ante: must be a whole number"]),
    ],
)
def test_it_reports_fields_of_the_wrong_type(change, parts):
    assert_error(run_cli({**hand(FOUR), **change}), *parts)


def test_it_reports_a_missing_field():
    data = hand(FOUR)
    del data["players"]

    assert_error(run_cli(data), "missing field 'players'")


def test_it_reports_a_negative_stack():
    assert_error(run_cli(hand(["A -5", "B 100"])), "players[0].stack: must be a positive")


def test_it_reports_reversed_blinds():
    assert_error(run_cli(hand(FOUR, blinds=(8, 4))), "larger than the big blind", "(D7)")


def test_it_reports_an_unknown_player():
    assert_error(run_cli(hand(FOUR, ["Zed call"])), "action 0: unknown player 'Zed'")


def test_it_reports_a_duplicate_player():
    assert_error(run_cli(hand(["A 100", "A 200"])), "players: A is listed twice")


def test_it_reports_an_action_out_of_turn():
    error = assert_error(run_cli(hand(FOUR, ["D call", "B call"])))

    assert error == "action 1: B may not act: it is E's turn (D1)"


def test_it_reports_an_action_after_the_hand_ended():
    error = assert_error(run_cli(hand(FOUR, ["D fold", "E fold", "B fold", "A check"])))

    assert error == "action 3: the hand is over (complete): no more actions (D2)"


def test_it_reports_a_check_facing_a_bet():
    assert_error(run_cli(hand(FOUR, ["D check"])), "action 0: D may not check", "(D2)")


def test_it_reports_a_bet_over_a_bet():
    assert_error(run_cli(hand(FOUR, ["D bet 16"])), "action 0: D may not bet", "(D2)")


def test_it_reports_a_raise_below_the_minimum():
    error = assert_error(run_cli(hand(FOUR, ["D raise 10"])))

    assert error == "action 0: D may not raise to 10: the minimum raise is to 16 (D3)"


def test_it_reports_a_raise_above_the_pot():
    error = assert_error(run_cli(hand(FOUR, ["D raise 29"], structure="pot-limit")))

    assert error == "action 0: D may not raise to 29: the pot-limit maximum is 28 (D4)"


def test_it_reports_a_non_integer_amount():
    data = hand(FOUR)
    data["actions"] = [{"player": "D", "do": "raise", "to": 16.5}]

    assert_error(run_cli(data), "action 0: 'to' must be a positive whole number")


def test_it_answers_an_unexpected_failure_with_a_json_error(monkeypatch):
    def broken(data):
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr("tdsystem.engine.ruling.adjudicate", broken)
    out = io.StringIO()

    code = cli.main(["adjudicate", "-"], io.StringIO(json.dumps(REFERENCE_HAND)), out)

    assert code == 2
    assert json.loads(out.getvalue()) == {
        "error": "internal error: ZeroDivisionError: division by zero"
    }
