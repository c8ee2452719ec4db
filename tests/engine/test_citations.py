"""A hand that names its rule set is answered in that set's rule numbers (the notes' and
reasons' ``cite``, the refusals' number); a hand that names none is answered as before."""

from __future__ import annotations

import json

import pytest

from tdsystem.engine import explain, rulesets
from tdsystem.engine.errors import RuleError
from tdsystem.engine.ruling import adjudicate, rule_on
from tests.engine._betting_helpers import hand, run_cli

# Blinds 4/8: Dianne raises to 20, Carol calls, Joan is all-in for 27 (a 7 raise, short of
# 12); the blinds fold and Dianne may only call (D9).
SHORT = hand(
    ["Ellen 500", "Bob 500", "Alice 500", "Dianne 500", "Carol 500", "Joan 27"],
    ["Dianne raise 20", "Carol call", "Joan all-in", "Ellen fold", "Bob fold", "Alice fold"],
)


def reasons(table) -> list[dict]:
    return rule_on(table).as_explained_dict()["next"]["reasons"]


@pytest.mark.parametrize(
    ("code", "cited"), [("tda-2024", "TDA 47"), ("tda-2026", "TDA 49"), ("wsop-2026", None)]
)
def test_a_reason_cites_its_number_in_the_hands_rule_set(code, cited):
    (reason,) = reasons({**SHORT, "rule_set": code})

    assert reason["rule"] == "D9" and reason.get("cite") == cited
    assert reason["text"].startswith("Dianne has already acted")


def test_a_hand_without_a_rule_set_is_explained_as_before():
    (reason,) = reasons(SHORT)

    assert reason == {
        "rule": "D9",
        "text": "Dianne has already acted and the all-ins since add up to less than a full "
        "raise (7 of 12): the betting is not reopened",
    }


def test_a_refusal_ends_with_the_sets_number():
    wrong = {
        **SHORT,
        "actions": [*SHORT["actions"][:1], {"player": "Carol", "do": "raise", "to": 25}],
    }

    with pytest.raises(RuleError) as plain:
        adjudicate(wrong)
    with pytest.raises(RuleError) as cited:
        adjudicate({**wrong, "rule_set": "tda-2026"})

    assert (
        str(plain.value) == "action 1: Carol may not raise to 25: the minimum raise is to 32 (D3)"
    )
    assert str(cited.value) == (
        "action 1: Carol may not raise to 25: the minimum raise is to 32 (TDA 45)"
    )
    assert (cited.value.rule, cited.value.cite) == ("TDA 45", "raise_amounts")


def test_a_refusal_the_set_gives_no_number_keeps_the_digests():
    wrong = {**SHORT, "actions": [{"player": "Carol", "do": "check"}], "rule_set": "tda-2024"}

    with pytest.raises(RuleError) as refused:
        adjudicate(wrong)

    assert str(refused.value) == "action 0: Carol may not act: it is Dianne's turn (TDA 50)"
    with pytest.raises(RuleError) as wsop:
        adjudicate({**wrong, "rule_set": "wsop-2026"})
    assert str(wsop.value).endswith("(D1)")


def test_the_command_line_explains_with_the_sets_numbers():
    done = run_cli({**SHORT, "rule_set": "tda-2024"}, "explain", "-")

    answer = json.loads(done.stdout)
    assert done.returncode == 0
    assert answer["next"]["reasons"][0]["cite"] == "TDA 47"
    assert [n.get("cite") for n in answer["notes"]] == ["TDA 47"]


def test_every_note_concept_is_one_of_the_rule_sets():
    assert set(explain._CONCEPT_OF.values()) <= set(rulesets.CONCEPTS)
    numbered = {c for c in explain._CONCEPT_OF.values()}
    tda = rulesets.rule_set(rulesets.TDA_2024)
    assert all(tda.citations.get(c) for c in numbered), numbered - set(tda.citations)


def test_the_2026_set_cites_only_the_reported_betting_numbers():
    tda26 = rulesets.rule_set(rulesets.TDA_2026)

    assert [tda26.cite(c) for c in ("raise_amounts", "oversized_chip", "reopening")] == [
        "TDA 45",
        "TDA 46",
        "TDA 49",
    ]
    # Rule 50 of 2026 is the raise cap (48 in 2024): acting in turn (50 in 2024) has no
    # number known, and is not cited as 50.
    assert tda26.cite("raise_cap") == "TDA 50" and tda26.cite("acting_in_turn") == "TDA 2026"
