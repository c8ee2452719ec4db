"""Order of action, the betting round, forced bets and the house rule (D1, D2, D6-D8)."""

from __future__ import annotations

import pytest

from tdsystem.engine.betting import HandState, Note
from tdsystem.engine.errors import RuleError
from tdsystem.engine.ruling import adjudicate, replay, rule_on, ruling_of
from tdsystem.engine.spec import Action, HandSpec, PlayerSpec
from tests.engine._betting_helpers import REFERENCE_HAND, hand, player, pots

FOUR = ["E 500", "B 500", "A 500", "D 500"]  # E button, B small blind, A big blind, D


def chips_in_play(result):
    return sum(p["amount"] for p in result["pots"]) + sum(p["stack"] for p in result["players"])


# -- D1: order of action ---------------------------------------------------------------


def test_it_starts_preflop_left_of_the_big_blind():
    assert adjudicate(hand(FOUR))["next"]["player"] == "D"


def test_it_starts_three_handed_preflop_with_the_button():
    assert adjudicate(hand(["E 500", "B 500", "A 500"]))["next"]["player"] == "E"


def test_it_starts_after_the_flop_left_of_the_button():
    result = adjudicate(hand(FOUR, ["D call", "E call", "B call", "A check"]))

    assert (result["street"], result["next"]["player"]) == ("flop", "B")


def test_it_has_the_button_post_the_small_blind_and_act_first_heads_up():
    result = adjudicate(hand(["Btn 500", "Other 500"]))

    assert player(result, "Btn")["committed"] == 4
    assert player(result, "Other")["committed"] == 8
    assert result["next"] == {
        "player": "Btn",
        "check": False,
        "call": 4,
        "min_raise_to": 16,
        "max_raise_to": 500,
    }


def test_it_has_the_button_act_last_after_the_flop_heads_up():
    result = adjudicate(hand(["Btn 500", "Other 500"], ["Btn call", "Other check", "Other check"]))

    assert (result["street"], result["next"]["player"]) == ("flop", "Btn")


def test_it_posts_a_single_blind_left_of_the_button():
    result = adjudicate(hand(["E 500", "B 500", "A 500"], blinds=[10]))

    assert [p["committed"] for p in result["players"]] == [0, 10, 0]
    assert result["next"]["player"] == "A"
    assert result["next"]["call"] == 10


def test_it_rejects_an_action_out_of_turn():
    with pytest.raises(RuleError) as caught:
        adjudicate(hand(FOUR, ["E call"]))

    assert str(caught.value) == "action 0: E may not act: it is D's turn (D1)"


def test_it_rejects_an_action_from_a_folded_player():
    with pytest.raises(RuleError) as caught:
        adjudicate(hand(FOUR, ["D fold", "D call"]))

    assert str(caught.value) == "action 1: D may not act: D is out of the hand (D1)"


# -- D2: the betting round -------------------------------------------------------------


def test_it_gives_the_big_blind_the_option():
    nxt = adjudicate(hand(FOUR, ["D call", "E call", "B call"]))["next"]

    assert nxt == {"player": "A", "check": True, "call": 0, "min_raise_to": 16, "max_raise_to": 500}


def test_it_rejects_a_check_facing_a_bet():
    with pytest.raises(RuleError) as caught:
        adjudicate(hand(FOUR, ["D check"]))

    assert str(caught.value) == (
        "action 0: D may not check: facing a bet of 8, call 8, raise or fold (D2)"
    )


def test_it_rejects_a_call_with_nothing_to_call():
    with pytest.raises(RuleError) as caught:
        adjudicate(hand(FOUR, ["D call", "E call", "B call", "A call"]))

    assert caught.value.rule == "D2"
    assert caught.value.action_index == 3


def test_it_rejects_a_bet_when_there_is_a_wager():
    with pytest.raises(RuleError) as caught:
        adjudicate(hand(FOUR, ["D bet 20"]))

    assert str(caught.value) == (
        "action 0: D may not bet: there is already a bet of 8 this round; raise instead (D2)"
    )


def test_it_rejects_a_raise_when_nobody_has_bet():
    with pytest.raises(RuleError) as caught:
        adjudicate(hand(FOUR, ["D call", "E call", "B call", "A check", "B raise 20"]))

    assert caught.value.rule == "D2"


def test_it_walks_the_streets_to_the_showdown():
    streets = []
    moves = ["D call", "E call", "B call", "A check"]
    for _ in range(4):
        streets.append(adjudicate(hand(FOUR, moves))["street"])
        moves = [*moves, "B check", "A check", "D check", "E check"]
    result = adjudicate(hand(FOUR, moves[:-4]))

    assert streets == ["flop", "turn", "river", "showdown"]
    assert result["next"] is None
    assert pots(result) == [(32, ["E", "B", "A", "D"])]


def test_it_completes_the_hand_when_one_player_remains():
    result = adjudicate(hand(FOUR, ["D fold", "E fold", "B fold"]))

    assert result["street"] == "complete"
    assert result["next"] is None
    assert pots(result) == [(12, ["A"])]


def test_it_rejects_an_action_after_the_hand_is_over():
    with pytest.raises(RuleError) as caught:
        adjudicate(hand(FOUR, ["D fold", "E fold", "B fold", "A check"]))

    assert str(caught.value) == "action 3: the hand is over (complete): no more actions (D2)"


def test_it_allows_a_fold_when_a_check_was_possible():
    result = adjudicate(hand(FOUR, ["D call", "E call", "B call", "A fold"]))

    assert player(result, "A")["status"] == "folded"


def test_it_makes_a_short_call_all_in():
    result = adjudicate(hand(["E 500", "B 500", "A 500", "D 5"], ["D call"]))

    assert player(result, "D") == {"name": "D", "stack": 0, "committed": 5, "status": "all-in"}


def test_it_treats_an_all_in_below_the_bet_as_a_call():
    result = adjudicate(hand(["E 500", "B 500", "A 500", "D 5"], ["D all-in", "E call"]))

    assert result["next"]["player"] == "B"
    # D's 5 from each player (the small blind's 4 so far: B may still call).
    assert pots(result)[0] == (5 + 5 + 4 + 5, ["E", "B", "A", "D"])


# -- D6: antes -------------------------------------------------------------------------


def test_it_does_not_count_antes_toward_the_bet():
    result = adjudicate(hand(FOUR, ante=2))

    assert [p["committed"] for p in result["players"]] == [2, 6, 10, 2]
    assert result["next"]["call"] == 8


def test_it_has_the_button_post_the_button_ante_as_dead_money():
    result = adjudicate(hand(FOUR, ["D call", "E call"], ante=8, ante_type="button"))

    assert player(result, "E")["committed"] == 16
    assert result["next"]["player"] == "B"
    assert sum(p["amount"] for p in result["pots"]) == 8 + 4 + 8 + 8 + 8


def test_it_posts_the_big_blind_before_the_big_blind_ante():
    result = adjudicate(hand(["E 500", "B 500", "A 10", "D 500"], ante=8, ante_type="big-blind"))

    assert player(result, "A")["committed"] == 10
    assert result["next"]["call"] == 8
    notes = rule_on(hand(["E 500", "B 500", "A 10", "D 500"], ante=8, ante_type="big-blind")).notes
    assert any(n.rule == "D6" and "only 2 of the 8" in n.text for n in notes)


def test_it_can_post_the_big_blind_ante_first():
    table = hand(["E 500", "B 500", "A 10", "D 500"], ante=8, ante_type="big-blind-ante-first")

    result = adjudicate(table)

    assert player(result, "A")["status"] == "all-in"
    assert result["next"]["call"] == 8  # A's blind is 2 of 8: callers owe the full 8 (D8)


def test_it_lets_an_all_in_button_ante_win_only_the_antes():
    table = hand(["E 5", "B 500", "A 500", "D 500"], ["D call", "B call", "A check"])
    table.update(ante=8, ante_type="button")

    result = adjudicate(table)

    assert pots(result) == [(5, ["E", "B", "A", "D"]), (24, ["B", "A", "D"])]


# -- D8: short stacks ------------------------------------------------------------------


def test_it_posts_a_short_small_blind_all_in():
    result = adjudicate(hand(["E 500", "B 3", "A 500", "D 500"]))

    assert player(result, "B")["status"] == "all-in"
    assert result["next"]["call"] == 8


def test_it_asks_no_more_than_a_short_big_blind_can_match_heads_up():
    result = adjudicate(hand(["Btn 500", "Other 5"]))

    assert result["next"] == {
        "player": "Btn",
        "check": False,
        "call": 1,
        "min_raise_to": None,
        "max_raise_to": None,
    }


def test_it_asks_nothing_of_a_small_blind_that_covers_a_short_big_blind():
    result = adjudicate(hand(["E 500", "B 500", "A 3", "D 500"], ["D fold", "E fold"]))

    assert (result["street"], result["next"]) == ("showdown", None)
    assert pots(result) == [(6, ["B", "A"]), (1, ["B"])]


def test_it_lets_the_button_act_first_heads_up_with_equal_blinds():
    table = hand(["Btn 500", "Other 500"], ["Btn check", "Other check"], blinds=(8, 8))

    assert adjudicate(dict(table, actions=[]))["next"]["player"] == "Btn"
    assert adjudicate(table)["street"] == "flop"


def test_it_explains_the_short_big_blind_of_the_reference_case():
    ruling = rule_on(dict(REFERENCE_HAND, actions=[]))

    assert ("D8", "Alice is all-in for 7 of the 8 big blind: callers owe the full 8") in [
        (n.rule, n.text) for n in ruling.notes
    ]
    assert ruling.next.reasons[0].rule == "D8"
    assert ruling.next.reasons[1].rule == "D3"


def test_it_explains_why_a_short_all_in_does_not_reopen_the_betting():
    seats = ["D 1000", "A 1000", "B 35", "C 1000"]
    moves = ["C call", "D call", "A call", "B check", "A bet 20", "B all-in", "C call", "D fold"]

    ruling = rule_on(hand(seats, moves, blinds=(2, 5)))

    assert (
        "D9",
        "B's all-in for 30 is not a full raise (that is to 40): betting is not reopened for A",
    ) in [(n.rule, n.text) for n in ruling.notes]
    assert [n.rule for n in ruling.next.reasons] == ["D9"]
    assert "not reopened" in ruling.next.reasons[0].text


def test_it_explains_when_short_all_ins_add_up_to_a_full_raise():
    seats = ["E 50", "A 1000", "B 1000", "C 35", "D 45"]
    moves = ["C call", "D call", "E call", "A call", "B check"]
    moves += ["A bet 20", "B call", "C all-in", "D all-in"]

    ruling = rule_on(hand(seats, moves, blinds=(2, 5)))

    assert (
        Note(
            "D9",
            "D's all-in for 40 is not a full raise (that is to 50): with the all-ins before it, "
            "A, B now face a full raise, so the betting is reopened for them",
        )
        in ruling.notes
    )


def test_it_gives_the_pot_limit_reason_for_the_maximum():
    ruling = rule_on(hand(FOUR, structure="pot-limit"))

    assert ruling.next.max_raise_to == 28
    assert ruling.next.reasons[-1].rule == "D4"
    assert ruling.next.reasons[-1].text.startswith("the pot-limit maximum is to 28")


# -- the house rule: the big blind must cover the small blind (D8) ---------------------


def test_it_eliminates_a_big_blind_who_cannot_cover_the_small_blind():
    table = hand(["E 500", "B 500", "A 3", "D 500"], ante=1, bb_must_cover_sb=True)

    result = adjudicate(table)

    assert player(result, "A") == {"name": "A", "stack": 0, "committed": 0, "status": "eliminated"}
    assert result["removed_from_play"] == [{"name": "A", "amount": 3}]
    assert result["next"]["player"] == "D"
    assert result["next"]["call"] == 8
    assert chips_in_play(result) + 3 == 1503
    assert all("A" not in eligible for _, eligible in pots(result))


def test_it_says_why_the_big_blind_was_eliminated():
    table = hand(["E 500", "B 500", "A 3", "D 500"], ante=1, bb_must_cover_sb=True)

    ruling = rule_on(table)

    assert ruling.notes[0].rule == "D8"
    assert ruling.notes[0].text.startswith(
        "house rule: A cannot cover the small blind and the ante"
    )
    assert ruling.next.reasons[0] == Note(
        "D8", "A was eliminated before posting: callers owe the full 8"
    )
    assert ruling.removed_from_play == (("A", 3),)


def test_it_keeps_a_big_blind_who_covers_the_small_blind():
    table = hand(["E 500", "B 500", "A 5", "D 500"], ante=1, bb_must_cover_sb=True)

    result = adjudicate(table)

    assert player(result, "A")["status"] == "all-in"
    assert "removed_from_play" not in result


def test_it_ends_a_heads_up_hand_when_the_big_blind_is_eliminated():
    result = adjudicate(hand(["Btn 500", "Other 3"], bb_must_cover_sb=True))

    assert result["street"] == "complete"
    assert pots(result) == [(4, ["Btn"])]


def test_it_leaves_the_short_big_blind_in_play_without_the_house_rule():
    result = adjudicate(hand(["E 500", "B 500", "A 3", "D 500"], ante=1))

    assert player(result, "A")["status"] == "all-in"
    assert chips_in_play(result) == 1503


# -- input the engine refuses ----------------------------------------------------------


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"structure": "table-limit"}, "structure: must be one of"),
        ({"blinds": [8, 4]}, "blinds: the small blind 8 is larger than the big blind 4 (D7)"),
        ({"blinds": []}, "blinds: one, two or three positive"),
        ({"blinds": [4, 8, 16, 32]}, "blinds: one, two or three positive"),
        ({"blinds": [4, 8.5]}, "blinds: one, two or three positive"),
        ({"blinds": [8, 4, 16]}, "blinds: the button's 8, the small 4 and the big 16 blind"),
        ({"ante": -1}, "ante: must be a whole number"),
        ({"ante_type": "table"}, "ante_type: must be one of"),
        ({"bets": [8, 16]}, "bets: only a fixed-limit game"),
        ({"raise_cap": 3}, "raise_cap: only a fixed-limit game"),
        (
            {"incomplete_raise": "half-bet"},
            "incomplete_raise: the half-bet rule is for fixed-limit",
        ),
        ({"pot_limit_preflop": "guess"}, "pot_limit_preflop: must be one of"),
        ({"bb_must_cover_sb": "yes"}, "bb_must_cover_sb: must be true or false"),
        ({"stakes": 1}, "unknown field 'stakes'"),
    ],
)
def test_it_rejects_bad_settings(change, message):
    with pytest.raises(RuleError) as caught:
        adjudicate({**hand(FOUR), **change})

    assert str(caught.value).startswith(message)


@pytest.mark.parametrize("missing", ["structure", "blinds", "players"])
def test_it_rejects_a_missing_field(missing):
    data = hand(FOUR)
    del data[missing]

    with pytest.raises(RuleError, match=f"missing field '{missing}'"):
        adjudicate(data)


@pytest.mark.parametrize(
    ("players", "message"),
    [
        ([{"name": "A", "stack": 100}], "players: a hand needs at least 2 players"),
        ([{"name": "A", "stack": 100}, {"name": "A", "stack": 50}], "players: A is listed twice"),
        ([{"name": "A", "stack": -5}, {"name": "B", "stack": 50}], "players[0].stack: must be a"),
        ([{"name": "A", "stack": 0}, {"name": "B", "stack": 50}], "players[0].stack: must be a"),
        ([{"name": "A", "stack": 10.5}, {"name": "B", "stack": 50}], "players[0].stack: must"),
        ([{"name": "A", "stack": "10"}, {"name": "B", "stack": 50}], "players[0].stack: must"),
        ([{"name": "A", "stack": True}, {"name": "B", "stack": 50}], "players[0].stack: must"),
        ([{"name": "", "stack": 10}, {"name": "B", "stack": 50}], "players[0].name: must be"),
        ([{"name": "A"}, {"name": "B", "stack": 50}], "players[0]: missing field 'stack'"),
        ([{"name": "A", "stack": 1, "seat": 3}, {"name": "B", "stack": 5}], "players[0]: unknown"),
        ("Alice, Bob", "players: must be a list"),
    ],
)
def test_it_rejects_bad_players(players, message):
    with pytest.raises(RuleError) as caught:
        adjudicate({**hand(FOUR), "players": players})

    assert str(caught.value).startswith(message)


@pytest.mark.parametrize(
    ("action", "message"),
    [
        ({"player": "D"}, "action 0: missing field 'do'"),
        ({"do": "call"}, "action 0: missing field 'player'"),
        ({"player": "D", "do": "limp"}, "action 0: 'do' must be one of"),
        ({"player": "D", "do": "raise"}, "action 0: raise needs 'to'"),
        ({"player": "D", "do": "raise", "to": 16.5}, "action 0: 'to' must be a positive whole"),
        ({"player": "D", "do": "raise", "to": "16"}, "action 0: 'to' must be a positive whole"),
        ({"player": "D", "do": "raise", "to": -16}, "action 0: 'to' must be a positive whole"),
        ({"player": "D", "do": "call", "to": 8}, "action 0: call takes no 'to'"),
        ({"player": "Zed", "do": "call"}, "action 0: unknown player 'Zed'"),
        ({"player": "D", "do": "call", "why": 1}, "action 0: unknown field 'why'"),
        ("D calls", "action 0: must be an object"),
    ],
)
def test_it_rejects_bad_actions(action, message):
    with pytest.raises(RuleError) as caught:
        adjudicate({**hand(FOUR), "actions": [action]})

    assert str(caught.value).startswith(message)
    assert caught.value.action_index == 0


def test_it_rejects_a_raise_beyond_the_stack():
    with pytest.raises(RuleError) as caught:
        adjudicate(hand(FOUR, ["D raise 600"]))

    assert str(caught.value) == (
        "action 0: D may not raise to 600: D has only 500 for this round (table stakes) (D3)"
    )


def test_it_rejects_a_hand_that_is_not_an_object():
    with pytest.raises(RuleError, match="the hand must be a JSON object"):
        adjudicate([1, 2])


# -- the Python API --------------------------------------------------------------------


def test_it_accepts_a_hand_spec_built_in_python():
    spec = HandSpec(
        structure="no-limit",
        blinds=(4, 8),
        players=(PlayerSpec("A", 100), PlayerSpec("B", 100), PlayerSpec("C", 100)),
        actions=(Action("A", "raise", 20),),
    )

    assert adjudicate(spec)["next"]["player"] == "B"


def test_it_checks_a_hand_spec_built_in_python():
    with pytest.raises(RuleError, match="D7"):
        HandSpec(structure="no-limit", blinds=(8, 4), players=(PlayerSpec("A", 1),) * 2)


def test_it_replays_one_action_at_a_time():
    spec = HandSpec(
        structure="no-limit",
        blinds=(4, 8),
        players=(PlayerSpec("A", 100), PlayerSpec("B", 100), PlayerSpec("C", 100)),
    )
    state = HandState(spec)
    state.act(Action("A", "raise", 20), 0)

    assert state.next_action().player == "B"
    assert ruling_of(state).as_dict() == adjudicate(
        hand(["A 100", "B 100", "C 100"], ["A raise 20"])
    )
    assert ruling_of(replay(spec)).street == "preflop"


def test_it_keeps_the_error_fields_for_pages():
    with pytest.raises(RuleError) as caught:
        adjudicate(hand(FOUR, ["D raise 10"]))

    error = caught.value
    assert (error.action_index, error.rule) == (0, "D3")
    assert error.message == "D may not raise to 10: the minimum raise is to 16"
