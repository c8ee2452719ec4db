"""A bust-out decided without a database: places, slots, prizes, antes, bounties and the
winner."""

from __future__ import annotations

from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tdsystem.engine import bustout as b
from tdsystem.engine import payouts
from tdsystem.engine.rulesets import OTHER_TABLES_TIE, rule_set

D = Decimal
TDA = rule_set("tda-2024").settings
WSOP = rule_set("wsop-2026").settings
PRIZES = (D(500), D(300), D(200))  # places 1 to 3 paid


def situation(left: int, **changes) -> b.Situation:
    values: dict = {
        "left": left,
        "settings": TDA,
        "prizes": PRIZES,
        "unit": D(1),
        "current": True,
    }
    values.update(changes)
    return b.Situation(**values)


def report(*players: tuple[int, int | None], table: int = 1, seats=None) -> b.Report:
    seats = seats or {}
    return b.Report(table, tuple(b.Player(e, seats.get(e, e), s) for e, s in players))


def test_one_player_out_takes_the_last_place_left():
    outcome = b.decide(situation(10), report((7, None)))
    assert outcome.placings == {7: b.Placing(10, 10, 10, D(0))}
    assert outcome.players_left == 9 and outcome.rebalance and outcome.winner is None


def test_the_bigger_starting_stack_finishes_higher_and_equal_stacks_tie():
    outcome = b.decide(situation(6), report((1, 500), (2, 900), (3, 500)))
    assert outcome.placings == {
        2: b.Placing(4, 4, 4, D(0)),
        1: b.Placing(5, 6, 5, D(0)),
        3: b.Placing(5, 6, 6, D(0)),
    }


def test_a_tie_in_the_money_splits_the_places_prizes():
    outcome = b.decide(situation(3, still_in=(1, 2, 3)), report((1, 100), (2, 100)))
    assert outcome.placings is not None
    assert {e: p.prize for e, p in outcome.placings.items()} == {1: D(250), 2: D(250)}
    assert {(p.place, p.place_to) for p in outcome.placings.values()} == {(2, 3)}
    assert outcome.winner == 3


def test_the_last_player_left_wins_first_prize():
    outcome = b.decide(situation(2, still_in=(4, 9)), report((4, None)))
    assert outcome.winner == 9 and outcome.winner_prize == D(500)
    assert outcome.placings == {4: b.Placing(2, 2, 2, D(300))}
    assert not outcome.rebalance and outcome.players_left == 1


def test_a_winner_with_nothing_to_pay_takes_nothing():
    outcome = b.decide(situation(2, prizes=(), still_in=(4, 9)), report((4, None)))
    assert outcome.winner == 9 and outcome.winner_prize == D(0)


def test_everyone_out_at_once_is_refused():
    with pytest.raises(payouts.PayoutError, match="one must win"):
        b.decide(situation(2), report((1, 5), (2, 6)))


def test_without_current_prizes_nothing_is_placed_here():
    outcome = b.decide(situation(10, current=False), report((7, None)))
    assert outcome.placings is None and outcome.players_left == 9


def test_the_big_blind_is_ranked_on_the_stack_after_the_ante():
    # Blind first: 3,000 before the hand, the 2,000 big blind, then 1,000 of ante.
    ante = b.AnteDue(seat=5, ante=1000, big_blind=2000, blind_first=True)
    outcome = b.decide(situation(9, ante=ante), report((1, 3000), (2, 2500), seats={1: 5, 2: 6}))
    assert outcome.antes == {1: 1000}
    assert outcome.stacks == {1: 2000, 2: 2500}
    assert outcome.placings is not None
    assert outcome.placings[2].place == 8 and outcome.placings[1].place == 9


def test_ante_first_takes_what_is_left():
    ante = b.AnteDue(seat=5, ante=1000, big_blind=2000, blind_first=False)
    assert b.antes_paid(ante, [b.Player(1, 5, 600)]) == {1: 600}
    blind_first = b.AnteDue(seat=5, ante=1000, big_blind=2000, blind_first=True)
    assert b.antes_paid(blind_first, [b.Player(1, 5, 1500)]) == {}  # all in for the blind


def test_a_short_big_blind_pays_no_ante():
    ante = b.AnteDue(seat=1, ante=1000, big_blind=2000, blind_first=False)
    r = b.Report(1, (b.Player(1, 1, 500),), short_big_blind=True)
    outcome = b.decide(situation(9, ante=ante), r)
    assert outcome.antes == {} and outcome.stacks == {1: 500}


def test_a_late_hand_for_hand_report_joins_its_group():
    # Table 1 reported entry 1 (out with 800) on the hand; table 2 now reports entry 2.
    s = situation(9, hand_for_hand=True, others=(b.Out(1, 800, 1),), settings=TDA)
    outcome = b.decide(s, report((2, 900), table=2))
    assert outcome.placings is not None
    assert outcome.placings[2].place == 9 and outcome.placings[1].place == 10


def test_across_tables_the_wsop_rule_ties_with_expected_prizes():
    assert WSOP.other_tables == OTHER_TABLES_TIE
    s = situation(
        3, settings=WSOP, hand_for_hand=True, others=(b.Out(1, 700, 1),), still_in=(2, 3, 4)
    )
    outcome = b.decide(s, report((2, 900), (3, 100), table=2))
    assert outcome.placings is not None
    assert outcome.placings[1].place < outcome.placings[1].place_to  # the ranges overlap
    prizes = {e: p.prize for e, p in outcome.placings.items()}
    assert sum(prizes.values()) == D(500)  # places 2 to 4: 300 + 200 + 0
    assert prizes[2] > prizes[3]


# Properties -----------------------------------------------------------------------------------

stacks = st.integers(min_value=0, max_value=50)


@st.composite
def a_report(draw):
    left = draw(st.integers(min_value=3, max_value=40))
    n = draw(st.integers(min_value=1, max_value=max(1, min(left - 2, 9))))
    chips = draw(st.lists(stacks, min_size=n, max_size=n))
    table_of = draw(st.lists(st.integers(1, 3), min_size=n, max_size=n))
    return left, [(i + 1, c, t) for i, (c, t) in enumerate(zip(chips, table_of, strict=True))]


def prize_table(left: int) -> tuple[Decimal, ...]:
    return tuple(payouts.split_pool(D(10_000), payouts.standard_table(left), D(1)))


@given(a_report(), st.booleans(), st.sampled_from([TDA, WSOP]))
def test_places_are_a_permutation_of_the_open_places(drawn, hfh, settings):
    left, players = drawn
    others = tuple(b.Out(e, c, t) for e, c, t in players[:-1]) if hfh else ()
    last = players[-1:] if hfh else players
    s = situation(
        left, settings=settings, prizes=prize_table(left), hand_for_hand=hfh, others=others
    )
    r = b.Report(1, tuple(b.Player(e, None, c) for e, c, _ in last))
    outcome = b.decide(s, r)
    assert outcome.placings is not None
    total = left + len(others)
    open_places = set(range(total - len(players) + 1, total + 1))
    assert sorted(p.slot for p in outcome.placings.values()) == sorted(open_places)
    for p in outcome.placings.values():
        assert p.place <= p.slot <= p.place_to and {p.place, p.place_to} <= open_places


@given(a_report())
def test_at_one_table_a_bigger_stack_never_finishes_lower(drawn):
    left, players = drawn
    outcome = b.decide(
        situation(left), b.Report(1, tuple(b.Player(e, None, c) for e, c, _ in players))
    )
    assert outcome.placings is not None
    chips = {e: c for e, c, _ in players}
    for x in chips:
        for y in chips:
            px, py = outcome.placings[x], outcome.placings[y]
            if chips[x] > chips[y]:
                assert px.place_to < py.place
            if chips[x] == chips[y]:
                assert (px.place, px.place_to) == (py.place, py.place_to)


@given(a_report(), st.booleans(), st.sampled_from([TDA, WSOP]))
def test_prizes_sum_to_what_the_plan_pays_for_those_places(drawn, hfh, settings):
    left, players = drawn
    prizes = prize_table(left)
    tables = {e: (t if hfh else 1) for e, _, t in players}
    others = tuple(b.Out(e, c, tables[e]) for e, c, _ in players[:-1])
    s = situation(
        left - len(others),
        settings=settings,
        prizes=prizes,
        hand_for_hand=hfh,
        others=others,
    )
    (e, c, _) = players[-1]
    outcome = b.decide(s, b.Report(tables[e], (b.Player(e, None, c),)))
    assert outcome.placings is not None
    paid = sum((p.prize for p in outcome.placings.values()), D(0))
    places = range(left - len(players) + 1, left + 1)
    assert paid == sum((prizes[p - 1] for p in places if p <= len(prizes)), D(0))


@given(st.integers(min_value=2, max_value=30), st.data())
def test_the_last_one_left_is_the_winner(left, data):
    n = left - 1
    ids = list(range(1, left + 1))
    winner = data.draw(st.sampled_from(ids))
    out = [e for e in ids if e != winner][:n]
    s = situation(left, prizes=prize_table(left), still_in=tuple(ids))
    outcome = b.decide(s, b.Report(1, tuple(b.Player(e, None, 10) for e in out)))
    assert outcome.winner == winner and outcome.players_left == 1
    assert outcome.winner_prize == prize_table(left)[0]
    assert not outcome.rebalance


@given(a_report())
def test_working_the_groups_out_again_gives_the_same_places(drawn):
    left, players = drawn
    members = [b.Out(e, c, 1) for e, c, _ in players]
    once = b.group_places(left, members, TDA, 3, hand_for_hand=False)
    again = b.places_in_order(left, [(False, members)], TDA, 3)
    assert again == [once]


# Bounties ----------------------------------------------------------------------------------

CENT = D("0.01")


def heads(kind, eliminators=(), **head) -> b.Heads:
    return b.Heads(kind, tuple(eliminators), {int(k[1:]): D(v) for k, v in head.items()}, CENT)


def test_a_pko_head_is_half_paid_and_half_onto_the_eliminators_head():
    outcome = b.decide(
        situation(10, heads=heads("progressive", [4], e7="100.01")), report((7, None))
    )
    assert outcome.knocks == (b.Knock(7, 4, D("50.00"), D("50.01")),)


def test_a_split_pot_shares_the_head_and_the_first_clockwise_takes_the_odd_unit():
    outcome = b.decide(
        situation(10, heads=heads("knockout", [5, 2], e7="100.01")), report((7, None))
    )
    assert outcome.knocks == (b.Knock(7, 5, D("50.01")), b.Knock(7, 2, D("50.00")))


def test_two_players_out_each_pay_every_eliminator():
    outcome = b.decide(
        situation(10, heads=heads("knockout", [3], e1=20, e2=30)), report((1, 50), (2, 80))
    )
    assert outcome.knocks == (b.Knock(1, 3, D(20)), b.Knock(2, 3, D(30)))


def test_a_player_out_with_no_eliminator_keeps_their_head():
    outcome = b.decide(
        situation(10, heads=heads("progressive", e7=75)),
        b.Report(1, (b.Player(7, 2, 40),), short_big_blind=True),
    )
    assert outcome.knocks == (b.Knock(7, 7, D(75)),)


def test_outside_a_bounty_event_the_eliminator_is_kept_with_nothing_paid():
    outcome = b.decide(situation(10, heads=heads("none", [4])), report((7, None)))
    assert outcome.knocks == (b.Knock(7, 4, D(0)),)
    assert b.decide(situation(10), report((7, None))).knocks == ()


def test_the_winner_collects_their_head_with_what_they_won_onto_it_on_the_last_hand():
    outcome = b.decide(
        situation(2, still_in=(7, 4), heads=heads("progressive", [4], e7=100, e4=300)),
        report((7, None)),
    )
    assert outcome.winner == 4
    assert outcome.knocks == (b.Knock(7, 4, D(50), D(50)), b.Knock(4, 4, D(350)))


@given(
    st.sampled_from(["knockout", "progressive"]),
    st.lists(st.integers(min_value=0, max_value=100_000), min_size=1, max_size=4),
    st.integers(min_value=0, max_value=3),
    st.booleans(),
    st.integers(min_value=0, max_value=100_000),
)
def test_every_cent_of_the_heads_is_paid_or_moved_onto_a_head(kind, cents, n_elim, last, win):
    out = list(range(1, len(cents) + 1))
    eliminators = list(range(100, 100 + n_elim))
    winner = 100 if last and eliminators else None
    left = len(out) + (1 if winner else 2)  # the winner left, or two still in
    amounts = {p: D(c) * CENT for p, c in zip(out, cents, strict=True)}
    if winner:
        amounts[winner] = D(win) * CENT
    outcome = b.decide(
        situation(left, still_in=(*out, winner) if winner else (),
                  heads=b.Heads(kind, tuple(eliminators), amounts, CENT)),
        report(*((p, p) for p in out)),
    )  # fmt: skip
    knocks = outcome.knocks
    assert all(k.paid >= 0 and k.to_head >= 0 for k in knocks)
    # Each head out leaves entirely: as cash or onto the eliminators' heads (or its own).
    for p in out:
        moved = [k for k in knocks if k.eliminated == p]
        assert sum((k.paid + k.to_head for k in moved), D(0)) == amounts[p]
        assert {k.eliminator for k in moved} == (set(eliminators) or {p})
    if winner:
        # The winner collects their head as it stands after the hand: nothing is lost.
        assert knocks[-1].paid == amounts[winner] + sum(
            (k.to_head for k in knocks if k.eliminator == winner), D(0)
        )
    if kind == "knockout":
        assert all(k.to_head == 0 for k in knocks)
