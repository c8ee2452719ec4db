"""The command line's answer is built straight from the replay, and a note's English only
when read: both must say exactly what the full ruling says."""

from __future__ import annotations

import pickle
import random

import pytest

from tdsystem.engine.explain import Note, english, note
from tdsystem.engine.ruling import adjudicate, answer_of, replay, rule_on, ruling_of
from tdsystem.engine.spec import Action, HandSpec, PlayerSpec
from tests.engine._betting_oracle import played_spec


def test_it_answers_the_command_line_exactly_as_the_full_ruling_does():
    rng = random.Random(11)
    for _ in range(400):
        spec = played_spec(rng)
        state = replay(spec)
        assert answer_of(state) == ruling_of(state).as_dict(), spec
        assert adjudicate(spec) == rule_on(spec).as_dict()


def test_a_note_reads_its_english_only_when_asked_and_says_what_the_message_says():
    made = note("D3", "the minimum raise is to %(to)s: %(names)s", to=16, names=["A", "B"])

    assert made._text is None
    assert made.text == english(made.msgid, made.params) == "the minimum raise is to 16: A and B"
    assert made == Note("D3", "the minimum raise is to 16: A and B")
    assert hash(made) == hash(Note("D3", "the minimum raise is to 16: A and B"))
    assert pickle.loads(pickle.dumps(made)) == made
    with pytest.raises(AttributeError):
        made.rule = "D4"  # type: ignore[misc]


def test_an_empty_list_given_to_a_message_that_does_not_use_it_reads_as_nothing():
    # Every other player can only call and none is all-in: the message without the
    # all-in players is chosen, and the empty list it is still given must not break it.
    made = note("D9", "nobody left could call a raise (%(callers)s)", callers=["Bo"], all_in=[])

    assert made.text == "nobody left could call a raise (Bo)"


def test_a_refused_raise_still_says_why_in_the_order_the_rules_are_checked():
    spec = HandSpec(
        structure="no-limit",
        blinds=(1, 2),
        players=(PlayerSpec("A", 100), PlayerSpec("B", 100), PlayerSpec("C", 100)),
        actions=(Action("A", "raise", 3),),
    )

    with pytest.raises(ValueError, match=r"action 0: A may not raise to 3: the minimum raise"):
        replay(spec)
