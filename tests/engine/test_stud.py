"""Seven-card stud: the bring-in, completing it, the streets, and who opens them (D1, D5)."""

from __future__ import annotations

from typing import Any

import pytest

from tdsystem.engine.errors import RuleError
from tdsystem.engine.explain import Note
from tdsystem.engine.ruling import adjudicate, replay, rule_on
from tdsystem.engine.spec import Action, parse_hand
from tests.engine._betting_helpers import actions, players, pots

FOUR = ["Ann 500", "Bob 500", "Cat 500", "Dan 500"]
THIRD_CALLED = ["Cat call", "Dan call", "Ann call"]  # everyone calls Bob's bring-in of 3


def stud(seats: list[str], moves: list[str] | tuple[str, ...] = (), **settings: Any) -> dict:
    data: dict[str, Any] = {
        "game": "stud",
        "structure": "fixed-limit",
        "bets": [10, 20],
        "ante": 1,
        "bring_in": 3,
        "bring_in_player": "Bob",
        "players": players(*seats),
        "actions": actions(*moves),
    }
    data.update(settings)
    return data


def test_it_posts_the_antes_and_the_bring_in_and_starts_after_the_bring_in():
    out = adjudicate(stud(FOUR))

    assert out["street"] == "third"
    assert out["next"] == {
        "player": "Cat",
        "check": False,
        "call": 3,
        "min_raise_to": 10,
        "max_raise_to": 10,
    }
    assert pots(out) == [(7, ["Ann", "Bob", "Cat", "Dan"])]
    assert [p["committed"] for p in out["players"]] == [1, 4, 1, 1]


def test_it_ends_third_street_when_everyone_calls_the_bring_in():
    # The bring-in has no option, unlike a big blind.
    out = rule_on(stud(FOUR, THIRD_CALLED))

    assert out.street == "fourth"
    assert out.next is None
    assert out.notes[-1].rule == "D1"
    assert "fourth street: the best hand showing acts first" in out.notes[-1].text


def test_it_refuses_an_action_before_the_floor_names_who_opens_the_street():
    # Read for adjudicate (plain action tuples) and for the ruling page (Actions) alike.
    hand = stud(FOUR, [*THIRD_CALLED, "Dan check"])
    for rule in (adjudicate, rule_on):
        with pytest.raises(RuleError) as caught:
            rule(hand)
        assert str(caught.value) == (
            "action 3: Dan may not act yet: name the player who opens fourth street "
            "(first_to_act, the best hand showing) (D1)"
        )


def test_it_lets_the_floor_name_who_opens_each_later_street():
    out = adjudicate(stud(FOUR, THIRD_CALLED, first_to_act={"fourth": "Dan"}))

    assert out["street"] == "fourth"
    assert out["next"]["player"] == "Dan"
    assert (out["next"]["check"], out["next"]["min_raise_to"]) == (True, 10)


def test_it_counts_the_completion_as_the_bet_and_caps_after_three_raises():
    moves = ["Cat raise 10", "Dan raise 20", "Ann raise 30", "Bob raise 40"]

    out = rule_on(stud(FOUR, moves, raise_cap=3))

    assert out.next is not None and out.next.player == "Cat"
    assert (out.next.call, out.next.min_raise_to) == (30, None)
    assert out.next.reasons[-1].text == "the betting is capped at one bet and 3 raises"


def test_it_lets_a_player_who_called_the_bring_in_raise_the_completion():
    out = adjudicate(stud(FOUR, ["Cat call", "Dan raise 10", "Ann fold", "Bob call"]))

    assert out["next"]["player"] == "Cat"
    assert (out["next"]["call"], out["next"]["min_raise_to"]) == (7, 20)


def test_it_explains_the_completion():
    out = rule_on(stud(FOUR))

    assert out.next is not None
    assert out.next.reasons == (
        Note(
            "D5",
            "the bring-in of 3 may be called or completed to the small bet, 10: completing "
            "counts as the bet, not as a raise",
        ),
    )


def test_it_lets_the_bring_in_open_for_the_full_small_bet():
    out = adjudicate(stud(FOUR, bring_in_completes=True))

    assert out["next"] == {
        "player": "Cat",
        "check": False,
        "call": 10,
        "min_raise_to": 20,
        "max_raise_to": 20,
    }


def test_it_bets_the_small_bet_on_fourth_and_the_big_bet_from_fifth():
    moves = [*THIRD_CALLED, "Dan bet 10", "Ann call", "Bob call", "Cat call"]

    fourth = adjudicate(stud(FOUR, moves[:4], first_to_act={"fourth": "Dan"}))
    fifth = adjudicate(stud(FOUR, moves, first_to_act={"fourth": "Dan", "fifth": "Ann"}))

    assert fourth["next"]["min_raise_to"] == 20
    assert fifth["street"] == "fifth"
    assert fifth["next"]["player"] == "Ann"
    assert fifth["next"]["min_raise_to"] == 20


def test_it_lifts_the_cap_when_the_round_starts_heads_up():
    seats = ["Ann 500", "Bob 500"]
    moves = ["Ann raise 10", "Bob raise 20", "Ann raise 30", "Bob raise 40"]

    out = adjudicate(stud(seats, moves, raise_cap=3))

    assert out["next"]["player"] == "Ann" and out["next"]["min_raise_to"] == 50


def test_it_goes_to_the_next_player_with_chips_when_the_named_player_is_all_in():
    seats = ["Ann 500", "Bob 500", "Cat 11", "Dan 500"]
    moves = ["Cat raise 10", "Dan call", "Ann call", "Bob call"]

    out = rule_on(stud(seats, moves, first_to_act={"fourth": "Cat"}))

    assert out.street == "fourth"
    assert out.next is not None and out.next.player == "Dan"
    assert out.notes[-1].text == "Cat, named to open fourth street, is all-in: Dan acts first"
    assert [(p.amount, p.eligible) for p in out.pots] == [(44, ("Ann", "Bob", "Cat", "Dan"))]


def test_it_refuses_an_action_before_the_street_has_a_first_player():
    with pytest.raises(RuleError) as err:
        adjudicate(stud(FOUR, [*THIRD_CALLED, "Dan check"]))

    assert err.value.action_index == 3 and err.value.rule == "D1"
    assert "name the player who opens fourth street" in str(err.value)


def test_it_refuses_a_folded_player_as_first_to_act():
    moves = ["Cat fold", "Dan call", "Ann call"]

    with pytest.raises(RuleError, match=r"first_to_act\.fourth: Cat is out of the hand"):
        adjudicate(stud(FOUR, moves, first_to_act={"fourth": "Cat"}))


def test_a_refused_action_leaves_the_hand_as_it_was():
    spec = parse_hand(stud(FOUR, ["Cat fold", "Dan call"], first_to_act={"fourth": "Cat"}))
    state = replay(spec)
    before = state.copy()

    with pytest.raises(RuleError):
        state.act(Action("Ann", "call"), 2)  # would open fourth street with Cat

    assert (state.round, state.bet, state.actor) == (before.round, before.bet, before.actor)


def test_a_short_bring_in_still_leaves_the_full_bring_in_owed():
    out = rule_on(stud(["Ann 500", "Bob 3", "Cat 500"]))

    assert out.next is not None and (out.next.player, out.next.call) == ("Cat", 3)
    assert out.notes[0].text == "Bob is all-in for 2 of the 3 bring-in: callers owe the full 3"


def test_a_partial_ante_makes_the_main_pot():
    out = adjudicate(stud(["Ann 500", "Bob 500", "Cat 1"], ante=2, bring_in_player="Ann"))

    assert pots(out)[0] == (3, ["Ann", "Bob", "Cat"])


def test_it_plays_five_streets_to_the_showdown():
    moves = list(THIRD_CALLED)
    named = {}
    for street in ("fourth", "fifth", "sixth", "seventh"):
        named[street] = "Ann"
        moves += ["Ann check", "Bob check", "Cat check", "Dan check"]

    out = adjudicate(stud(FOUR, moves, first_to_act=named))

    assert out["street"] == "showdown" and out["next"] is None
    assert pots(out) == [(16, ["Ann", "Bob", "Cat", "Dan"])]


def test_it_ends_when_everyone_else_folds():
    out = adjudicate(stud(FOUR, ["Cat raise 10", "Dan fold", "Ann fold", "Bob fold"]))

    assert out["street"] == "complete"
    assert pots(out) == [(17, ["Cat"])]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"blinds": [1, 2]}, "blinds: a stud hand has no blinds"),
        ({"structure": "no-limit"}, "seven-card stud is played fixed limit"),
        ({"bring_in": 10}, "bring_in: a whole number of chips, more than 0 and less than"),
        ({"bring_in": 0}, "bring_in:"),
        ({"bring_in_player": "Zed"}, "bring_in_player: the name of the player"),
        ({"bets": None}, "bets: a stud hand needs the small and big bet"),
        ({"ante_type": "button"}, 'in stud every player antes ("each")'),
        ({"first_to_act": {"third": "Ann"}}, "'third' is not a later street"),
        ({"first_to_act": {"fourth": "Zed"}}, "first_to_act.fourth: unknown player 'Zed'"),
        ({"first_to_act": ["Ann"]}, "first_to_act: an object"),
        ({"dead_button": True}, "dead_button: a stud hand has no blinds and no button"),
        ({"game": "razz"}, "game: must be one of flop, stud"),
    ],
)
def test_it_refuses_bad_stud_input(change, message):
    data = stud(FOUR)
    data.update(change)
    data = {k: v for k, v in data.items() if v is not None}

    with pytest.raises(RuleError) as err:
        adjudicate(data)

    assert message in str(err.value)


def test_it_refuses_nine_players_at_stud():
    seats = [f"P{i} 100" for i in range(9)]

    with pytest.raises(RuleError, match="seven-card stud deals 8 players at most"):
        adjudicate(stud(seats, bring_in_player="P0"))


def test_it_refuses_a_bring_in_in_a_blind_game():
    data = {"structure": "fixed-limit", "blinds": [5, 10], "players": players(*FOUR)}

    with pytest.raises(RuleError, match="only a stud hand"):
        adjudicate({**data, "bring_in": 3})
