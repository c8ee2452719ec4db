"""Straddles, three blinds, kill blinds and missed blinds (D7): each example of the source
documents naming its passage (the reference article "Betting in poker", source 002 in
Japanese and 000 in Arabic), the contract's refusals, and random hands against pokerkit,
which posts each of them too."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tdsystem.engine.betting import SHOWDOWN, HandState
from tdsystem.engine.ruling import adjudicate, rule_on
from tdsystem.engine.spec import HandSpec, PlayerSpec
from tests.engine._betting_helpers import hand, run_cli
from tests.engine._betting_oracle import OracleStats, play_and_compare, random_spec
from tests.engine.test_properties_betting import (
    SETTINGS,
    accepts,
    check_invariants,
    illegal_actions,
    legal_actions,
    refuses,
)

SIX = ["D 1000", "S 1000", "B 1000", "U 1000", "M 1000", "C 1000"]  # from the button


def option(table) -> tuple:
    nxt = adjudicate(table)["next"]
    return nxt["player"], nxt["call"], nxt["min_raise_to"], nxt["max_raise_to"]


# -- straddles ------------------------------------------------------------------------------


def test_a_straddle_of_20_over_5_10_makes_the_minimum_raise_30_not_40():
    # "Example: small blind 5, big blind 10, the straddle costs 20. The minimum raise is 10,
    # to 30 in all; it need not be doubled to 40." Action starts left of the straddle.
    assert option(hand(SIX, [], blinds=(5, 10), straddles=[20])) == ("M", 20, 30, 1000)


def test_the_straddle_acts_last_and_may_raise_when_no_one_raised():
    # "If the action comes back to the straddle without a raise, the straddle has the
    # option to raise."
    calls = ["M call", "C call", "D call", "S call", "B call"]

    assert option(hand(SIX, calls, blinds=(5, 10), straddles=[20])) == ("U", 0, 30, 1000)


def test_a_re_straddle_doubles_and_acts_last():
    # "Some casinos allow the player left of the live straddle to re-straddle ... each
    # re-straddle double the one before."
    table = hand(SIX, [], blinds=(5, 10), straddles=[20, 40])

    assert option(table) == ("C", 40, 60, 1000)  # 40 + the largest step (20)
    ruling = rule_on(table)
    assert [n.text for n in ruling.notes][-1].startswith("M straddles 40: a live blind raise")


def test_a_straddle_counts_in_the_pot_limit_pot():
    table = hand(SIX, [], blinds=(5, 10), straddles=[20], structure="pot-limit")

    # 5 + 10 + 20, the call of 20: 55, plus the 20 faced: 75.
    assert option(table) == ("M", 20, 30, 75)


def test_a_straddle_in_fixed_limit_is_a_raise_toward_the_cap():
    table = hand(
        SIX,
        ["M raise 30", "C raise 40"],
        blinds=(5, 10),
        straddles=[20],
        structure="fixed-limit",
        bets=[10, 20],
        raise_cap=3,
    )

    assert option(table) == ("D", 40, None, None)  # 20 (1), 30 (2), 40 (3): capped


# -- three blinds ---------------------------------------------------------------------------


def test_three_blinds_the_first_on_the_button():
    # "Three blinds (usually a quarter, a quarter and half of the normal bet): the first is
    # posted on the button by the dealer." A 4/8 game with blinds 1, 1, 2: the first player
    # calls 2 or completes to 4 (fixed limit, D5).
    table = hand(SIX, [], blinds=(1, 1, 2), structure="fixed-limit", bets=[4, 8])

    assert option(table) == ("U", 2, 4, 4)
    assert [p["committed"] for p in adjudicate(table)["players"]][:3] == [1, 1, 2]


def test_three_blinds_the_button_acts_before_the_small_blind():
    calls = ["U call", "M call", "C call"]

    result = adjudicate(hand(SIX, calls, blinds=(1, 1, 2), structure="fixed-limit", bets=[4, 8]))

    assert result["next"]["player"] == "D" and result["next"]["call"] == 1


# -- kill blinds ----------------------------------------------------------------------------


def kill_table(moves, kind="full", killer="M"):
    # "The kill blind is usually twice the big blind or minimum bet (a full kill) or one and
    # a half times (a half kill) ... live, and the killer usually acts last in the first
    # round, after the other blinds. The other players must call the kill blind to play" and
    # "the betting limits of the kill hand are multiplied by 1.5 or 2."
    return hand(
        SIX,
        moves,
        blinds=(5, 10),
        structure="fixed-limit",
        bets=[10, 20],
        kill={"player": killer, "kind": kind},
    )


def test_a_full_kill_doubles_the_blind_and_the_limits():
    assert option(kill_table([])) == ("U", 20, 40, 40)


def test_a_half_kill_is_one_and_a_half_times():
    assert option(kill_table([], kind="half")) == ("U", 15, 30, 30)


def test_the_killer_acts_last_in_the_first_round():
    calls = ["U call", "C call", "D call", "S call", "B call"]

    assert option(kill_table(calls)) == ("M", 0, 40, 40)


def test_the_killer_acts_in_turn_after_the_first_round():
    calls = ["U call", "C call", "D call", "S call", "B call", "M check"]
    flop = ["S check", "B check", "U check"]

    assert option(kill_table([*calls, *flop])) == ("M", 0, 20, 20)  # the kill hand's 20


# -- missed blinds --------------------------------------------------------------------------


def test_missed_blinds_posted_together_the_big_live_the_small_dead():
    # "If both must be paid on return, the big blind is live and the small blind dead: it does
    # not count toward the player's call or raise."
    table = hand(SIX, [], blinds=(1, 2), missed_blinds={"C": "both"})
    result = adjudicate(table)

    assert option(table) == ("U", 2, 4, 1000)
    c = next(p for p in result["players"] if p["name"] == "C")
    assert (c["committed"], c["stack"]) == (3, 997)


def test_a_returning_player_with_a_live_big_blind_may_check_when_no_one_raised():
    # "This bet is live ... if no one has raised when it is the player's turn, the player may
    # check, as a big blind does."
    calls = ["U call", "M call"]

    assert option(hand(SIX, calls, blinds=(1, 2), missed_blinds={"C": "big"})) == (
        "C",
        0,
        4,
        1000,
    )


def test_a_missed_small_blind_alone_is_dead_money():
    table = hand(SIX, ["U call", "M call"], blinds=(1, 2), missed_blinds={"C": "small"})

    assert option(table)[:2] == ("C", 2)  # the dead 1 does not count toward the call


# -- the contract ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"straddles": [15]}, "straddles: each straddle is at least twice"),
        ({"straddles": [20, 30]}, "straddles: each straddle is at least twice"),
        ({"straddles": "20"}, "straddles: a list of amounts"),
        ({"blinds": [2, 1, 2]}, "blinds: the button's 2, the small 1 and the big 2 blind"),
        ({"kill": {"player": "M", "kind": "full"}}, "kill: kill pots are a fixed-limit game's"),
        ({"kill": "M"}, 'kill: an object {"player"'),
        ({"missed_blinds": {"Zed": "big"}}, "missed_blinds: unknown player 'Zed'"),
        ({"missed_blinds": {"C": "ante"}}, "missed_blinds.C: big, small or both"),
        ({"missed_blinds": {"B": "big"}}, "missed_blinds.B: B is in the blinds this hand"),
    ],
)
def test_the_command_line_refuses_bad_forced_bets_naming_the_field(change, message):
    done = run_cli({**hand(SIX, [], blinds=(5, 10)), **change})

    assert done.returncode == 2
    assert message in json.loads(done.stdout)["error"]


def test_the_kill_blind_may_not_be_a_blinds():
    table = kill_table([], killer="B")

    done = run_cli(table)
    assert "kill.player: B posts a blind already this hand" in json.loads(done.stdout)["error"]


def test_a_short_straddler_is_refused():
    seats = ["D 1000", "S 1000", "B 1000", "U 15", "M 1000"]

    done = run_cli(hand(seats, [], blinds=(5, 10), straddles=[20]))
    assert "U has only 15, less than the straddle of 20" in json.loads(done.stdout)["error"]


# -- pokerkit plays them too ---------------------------------------------------------------


def deep(rng: random.Random, structure: str, least: int = 3) -> HandSpec:
    base = random_spec(rng, structure)
    while len(base.players) < least:
        base = random_spec(rng, structure)
    return base


def with_(base: HandSpec, **forced) -> HandSpec:
    return HandSpec(
        structure=base.structure,
        blinds=forced.pop("blinds", base.blinds),
        ante=forced.pop("ante", base.ante),
        players=forced.pop("players", base.players),
        **forced,
    )


def test_straddles_agree_with_pokerkit():
    rng, stats = random.Random(7), OracleStats()
    for _ in range(250):
        base = deep(rng, rng.choice(("no-limit", "pot-limit")))
        bb = base.big_blind
        players = tuple(PlayerSpec(p.name, max(p.stack, 2 * bb + base.ante)) for p in base.players)
        play_and_compare(rng, stats, spec=with_(base, players=players, straddles=(2 * bb,)))
    assert stats.hands == 250 and stats.raise_checks > 250


def test_three_blinds_agree_with_pokerkit():
    rng, stats = random.Random(8), OracleStats()
    for _ in range(250):
        base = deep(rng, rng.choice(("no-limit", "pot-limit")))
        small, big = base.blinds
        button = max(1, small // 2)
        players = tuple(PlayerSpec(p.name, max(p.stack, big + base.ante)) for p in base.players)
        play_and_compare(rng, stats, spec=with_(base, players=players, blinds=(button, small, big)))
    assert stats.hands == 250 and stats.raise_checks > 250


def test_missed_blinds_agree_with_pokerkit():
    rng, stats = random.Random(9), OracleStats()
    for _ in range(250):
        base = deep(rng, rng.choice(("no-limit", "pot-limit")), least=4)
        seat = rng.randrange(3, len(base.players))
        name = base.players[seat].name
        which = rng.choice(("big", "small", "both"))
        players = tuple(
            PlayerSpec(p.name, max(p.stack, 2 * base.big_blind + base.ante)) for p in base.players
        )
        spec = with_(base, players=players, ante=0, missed_blinds=((name, which),))
        play_and_compare(rng, stats, spec=spec)
    assert stats.hands == 250 and stats.raise_checks > 250


def test_a_kill_blind_after_the_big_blind_agrees_with_pokerkit_in_the_first_round():
    # pokerkit caps a fixed-limit round at four completions: after the kill blind, four
    # raises, as raise_cap 4 here. Deep stacks: no all-in short of a fixed raise.
    rng, stats = random.Random(10), OracleStats()
    for _ in range(250):
        n = rng.randint(3, 9)
        bb = rng.choice((2, 4, 10))
        spec = HandSpec(
            structure="fixed-limit",
            blinds=(bb // 2, bb),
            bets=(bb, 2 * bb),
            raise_cap=4,
            raise_cap_heads_up="kept",
            players=tuple(PlayerSpec(f"P{i}", 400 * bb) for i in range(n)),
            kill=(f"P{3 % n}", "full"),
        )
        play_and_compare(rng, stats, spec=spec, first_round_only=True)
    assert stats.hands == 250 and stats.raise_checks > 250


# -- properties: chips kept, every option listed accepted, everything else refused ---------


@st.composite
def forced_tables(draw) -> HandSpec:
    structure = draw(st.sampled_from(["no-limit", "pot-limit", "fixed-limit"]))
    big = draw(st.sampled_from([2, 4, 10]))
    count = draw(st.integers(5, 8))
    stacks = draw(
        st.lists(
            st.one_of(st.integers(1, 4 * big), st.integers(4 * big, 100 * big)),
            min_size=count,
            max_size=count,
        )
    )
    kind = draw(st.sampled_from(["straddle", "three", "kill", "missed"]))
    fixed = structure == "fixed-limit"
    settings: dict = {"bets": (big, 2 * big)} if fixed else {}
    blinds: tuple[int, ...] = (big // 2, big)
    if kind == "straddle":
        settings["straddles"] = (2 * big,)
        stacks[3] = max(stacks[3], 2 * big)
    elif kind == "three":
        blinds = (max(1, big // 4), max(1, big // 4), big // 2 if fixed else big)
    elif kind == "kill":
        structure, fixed = "fixed-limit", True
        settings = {"bets": (big, 2 * big), "kill": ("P4", draw(st.sampled_from(["full"])))}
        stacks[4] = max(stacks[4], 2 * big)
    else:
        seat = draw(st.integers(3, count - 1))
        settings["missed_blinds"] = ((f"P{seat}", draw(st.sampled_from(["big", "small", "both"]))),)
    if fixed:
        settings["raise_cap"] = draw(st.sampled_from([None, 3]))
    return HandSpec(
        structure=structure,
        blinds=blinds,
        players=tuple(PlayerSpec(f"P{i}", stack) for i, stack in enumerate(stacks)),
        **settings,
    )


@SETTINGS
@given(spec=forced_tables(), data=st.data())
def test_forced_bets_keep_every_rule_along_random_hands(spec, data):
    state = HandState(spec)
    check_invariants(spec, state)
    for index in range(60):
        if state.street >= SHOWDOWN:
            break
        menu = legal_actions(state, data)
        for action in menu:
            check_invariants(spec, accepts(state, action))
        for action in illegal_actions(state):
            refuses(state, action)
        state.act(menu[data.draw(st.integers(0, len(menu) - 1))], index)
        check_invariants(spec, state)
