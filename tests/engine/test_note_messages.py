"""Each note of a ruling is a message id and its parameters, so that the ruling page can say
it in the reader's language; the English the command line prints is made from the same
message, so the sentence is stated once."""

from __future__ import annotations

import ast
import random
from pathlib import Path
from typing import Any

from tdsystem.engine.errors import RuleError
from tdsystem.engine.explain import Commas, Note, Phrase, english, note, phrase
from tdsystem.engine.ruling import rule_on

ENGINE = Path(__file__).resolve().parents[2] / "tdsystem" / "engine"


def marked_messages() -> set[str]:
    """Every string the engine passes to ``gettext_noop``: what makemessages extracts."""
    found = set()
    for path in ENGINE.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "gettext_noop"
            ):
                (arg,) = node.args
                assert isinstance(arg, ast.Constant) and isinstance(arg.value, str)
                found.add(arg.value)
    return found


def random_table(rng: random.Random) -> dict[str, Any]:
    big = rng.choice([2, 4, 10, 50])
    count = rng.randint(2, 8)
    stacks = [
        rng.choice([rng.randint(1, 3 * big), rng.randint(3 * big, 60 * big)]) for _ in range(count)
    ]
    hand: dict[str, Any] = {
        "structure": rng.choice(["no-limit", "pot-limit", "fixed-limit"]),
        "players": [{"name": f"P{i}", "stack": s} for i, s in enumerate(stacks)],
        "ante": rng.choice([0, 0, 1, big // 2, big]),
    }
    if rng.random() < 0.25:
        hand.update(game="stud", ante=rng.choice([0, 1, big // 2]), bets=[big, 2 * big])
        hand.update(bring_in=rng.randint(1, big), bring_in_player=f"P{rng.randrange(count)}")
        hand["bring_in_completes"] = rng.random() < 0.2
        if rng.random() < 0.5:
            streets = ("fourth", "fifth", "sixth", "seventh")
            hand["first_to_act"] = {s: f"P{rng.randrange(count)}" for s in streets}
    else:
        small = rng.randint(1, big)
        hand["blinds"] = rng.choice([[small, big], [small, big], [big]])
        hand["ante_type"] = rng.choice(["each", "big-blind", "button", "big-blind-ante-first"])
        hand["pot_limit_preflop"] = rng.choice(["true-pot", "assumed-call"])
        hand["bb_must_cover_sb"] = rng.random() < 0.5
        if hand["structure"] == "fixed-limit":
            hand["bets"] = [big, 2 * big]
        if len(hand["blinds"]) == 2 and count > 2:
            hand["dead_small_blind"] = rng.random() < 0.2
            hand["dead_button"] = rng.random() < 0.2
    if hand["structure"] == "fixed-limit":
        hand["raise_cap"] = rng.choice([None, 0, 1, 3])
        hand["incomplete_raise"] = rng.choice(["full-bet", "half-bet"])
    return hand


def rulings(seed: int, hands: int):
    """The rulings after every action of random hands played by the rules."""
    rng = random.Random(seed)
    for _ in range(hands):
        hand = {**random_table(rng), "actions": []}
        while len(hand["actions"]) < 40:
            try:
                ruling = rule_on(hand)
            except RuleError:  # a named opener of a later street who has folded
                break
            yield ruling
            nxt = ruling.next
            if nxt is None:
                break
            menu = [{"player": nxt.player, "do": "check" if nxt.check else "call"}]
            menu.append({"player": nxt.player, "do": "all-in"})
            if rng.random() < 0.2:
                menu.append({"player": nxt.player, "do": "fold"})
            if nxt.min_raise_to is not None:
                low, high = nxt.min_raise_to, nxt.max_raise_to
                for to in (low, high, rng.randint(low, high)):
                    menu.append({"player": nxt.player, "do": "raise", "to": to})
            hand = {**hand, "actions": [*hand["actions"], rng.choice(menu)]}


def notes_of(ruling) -> list[Note]:
    return [*ruling.notes, *(ruling.next.reasons if ruling.next else ())]


def messages_in(msgid: str, params) -> set[str]:
    found = {msgid}
    for _, value in params:
        for item in value if isinstance(value, tuple) else (value,):
            if isinstance(item, Phrase):
                found |= messages_in(item.msgid, item.params)
    return found


def test_every_note_is_its_message_in_english_and_every_message_is_marked():
    marked, used, count = marked_messages(), set(), 0
    for ruling in rulings(seed=7, hands=600):
        for n in notes_of(ruling):
            count += 1
            assert n.msgid, n
            assert n.text == english(n.msgid, n.params)
            hash(n)  # frozen and hashable, parameters too
            used |= messages_in(n.msgid, n.params)
    assert count > 5000
    assert used <= marked
    assert len(used) > 50  # the random hands reach nearly every kind of note


def test_the_command_line_still_prints_rule_and_text_only():
    ruling = rule_on(
        {
            "structure": "no-limit",
            "blinds": [4, 8],
            "players": [
                {"name": "Ann", "stack": 100},
                {"name": "Bo", "stack": 100},
                {"name": "Alice", "stack": 7},
            ],
        }
    )
    out = ruling.as_explained_dict()
    assert out["notes"] == [
        {"rule": "D8", "text": "Alice is all-in for 7 of the 8 big blind: callers owe the full 8"}
    ]
    assert all(set(r) == {"rule", "text"} for r in out["next"]["reasons"])


def test_the_page_gets_each_message_and_its_parameters_as_plain_values():
    ruling = rule_on(
        {
            "structure": "no-limit",
            "blinds": [50, 100],
            "players": [
                {"name": "Ann", "stack": 1000},
                {"name": "Bo", "stack": 1000},
                {"name": "Cy", "stack": 250},
                {"name": "Di", "stack": 1000},
            ],
            "actions": [
                {"player": "Di", "do": "raise", "to": 200},
                {"player": "Ann", "do": "call"},
                {"player": "Bo", "do": "call"},
                {"player": "Cy", "do": "all-in"},
            ],
        }
    )
    (short,) = ruling.as_explained_dict(messages=True)["notes"]
    assert short["text"] == (
        "Cy's all-in for 250 is not a full raise (that is to 300): betting is not reopened "
        "for Ann, Bo, Di"
    )
    assert short["msgid"] == "%(sentence)s: %(why)s"
    assert short["params"] == {
        "sentence": {
            "msgid": "%(name)s's all-in for %(to)s is not a full raise (that is to %(full)s)",
            "params": {"name": "Cy", "to": 250, "full": 300},
        },
        "why": {
            "msgid": "betting is not reopened for %(names)s",
            "params": {"names": {"commas": ["Ann", "Bo", "Di"]}},
        },
    }


def test_lists_read_the_english_way():
    listed = note("D2", "%(names)s and %(more)s", names=["A", "B", "C"], more=Commas(("D", "E")))
    assert listed.text == "A, B and C and D, E"
    assert listed.params == (("names", ("A", "B", "C")), ("more", ("D", "E")))
    nested = note("D10", "%(who)s", who=Commas(phrase("%(n)s (%(c)s)", n=x, c=1) for x in "AB"))
    assert nested.text == "A (1), B (1)"


def test_notes_are_equal_by_rule_and_text():
    assert note("D3", "the minimum bet is the big blind, %(to)s", to=8) == Note(
        "D3", "the minimum bet is the big blind, 8"
    )
