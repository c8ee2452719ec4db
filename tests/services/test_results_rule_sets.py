"""Players out on the same hand, placed by the event's rule set: TDA 2024, TDA 2026, WSOP 2026.

One table: the bigger starting stack places higher, equal stacks tie (every set). Different
tables during hand-for-hand: ranked by stack (TDA) or tied (WSOP R126). Big blind ante: the
stack after the ante the big blind paid (TDA 2026). The bubble hand: everyone out on it
shares the paid place (TDA RP-8-A), or not (WSOP).
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest
from django.urls import reverse

from tdsystem.core.models import LogEntry
from tdsystem.engine.bustout import Out, group_places
from tdsystem.engine.rulesets import rule_set
from tdsystem.results import services
from tdsystem.results.models import Finish
from tdsystem.seating.models import Entry, EventTable
from tdsystem.simulation.seatings import ACTOR, arrange
from tests.fixtures import make_event

D = Decimal
FULL = list(range(1, 10))
# 18 entries of 100: 1800. Fourteen paid; places 10 to 14 pay 90, 72, 54, 36, 36.
PAID = ["24", "15", "10", "8", "7", "5", "5", "5", "5", "5", "4", "3", "2", "2"]


def test_at_different_tables_wsop_ties_them_while_each_table_keeps_its_order():
    """A and B at table 1 (A bigger), C at table 2, with 10 left: places 8, 9 and 10.

    The orders R126 allows are A-B-C, A-C-B and C-A-B: A is 8th or 9th, B 9th or 10th,
    C any of the three; each wins what they win on average over those three orders.
    """
    wsop = rule_set("wsop-2026").settings
    a, b, c = Out(1, 5000, 1), Out(2, 3000, 1), Out(3, 4000, 2)
    placed = group_places(10, [a, b, c], wsop, 0, hand_for_hand=True)
    assert {(f.entry, f.place, f.place_to) for f in placed.finishes} == {
        (1, 8, 9),
        (2, 9, 10),
        (3, 8, 10),
    }
    assert placed.odds == {
        1: {8: Fraction(2, 3), 9: Fraction(1, 3)},
        2: {9: Fraction(1, 3), 10: Fraction(2, 3)},
        3: {8: Fraction(1, 3), 9: Fraction(1, 3), 10: Fraction(1, 3)},
    }
    assert sorted(placed.slots.values()) == [8, 9, 10]
    prizes = [D(0)] * 7 + [D(90), D(30), D(0)]  # places 8, 9, 10
    assert placed.prizes(prizes, D(1)) == {1: D(70), 2: D(10), 3: D(40)}
    # Outside hand-for-hand, or ranking by stack (TDA): A, C, B.
    tda = rule_set("tda-2024").settings
    by_stack = group_places(10, [a, b, c], tda, 0, hand_for_hand=True)
    assert {(f.entry, f.place, f.place_to) for f in by_stack.finishes} == {
        (1, 8, 8),
        (3, 9, 9),
        (2, 10, 10),
    }
    assert by_stack.odds is None


def test_wsop_ties_across_tables_share_equally_and_keep_the_units_exact():
    wsop = rule_set("wsop-2026").settings
    # One player at each of three tables: one plain tie for 3-5.
    placed = group_places(
        5, [Out(1, 10, 1), Out(2, 99, 2), Out(3, 50, 3)], wsop, 0, hand_for_hand=True
    )
    assert {(f.place, f.place_to) for f in placed.finishes} == {(3, 5)}
    assert placed.odds is None
    assert placed.prizes([D(50), D(30), D(10), D(0), D(0)], D(1)) == {1: D(4), 2: D(3), 3: D(3)}
    # Two equal stacks at table 1 and one at table 2: a tie as well.
    tied = group_places(4, [Out(1, 7, 1), Out(2, 7, 1), Out(3, 1, 2)], wsop, 0, hand_for_hand=True)
    assert {(f.place, f.place_to) for f in tied.finishes} == {(2, 4)}


@pytest.fixture
def events(db):
    """The same field under each rule set: 18 players at two tables of nine, 14 paid, big
    blind ante (blind first); level 1 is 50/100 with a big blind ante of 10."""
    made = {}
    for n, code in enumerate(("tda-2024", "tda-2026", "wsop-2026")):
        event = make_event(3600, 3600, name=code, rule_set=code, ante_type="big-blind")
        one, two = 2 * n + 1, 2 * n + 2  # the room's tables: two for each event
        arrange(event, {one: FULL, two: FULL}, positions={one: (1, 2, 3), two: (1, 2, 3)})
        services.payout_plan_update(
            event_id=event.pk, table="custom", percentages=PAID, unit=D(1), actor=ACTOR
        )
        made[code] = event
    return made


def table_number(event, nth: int) -> int:
    """The number of the event's first or second table (nth 1 or 2)."""
    numbers = EventTable.objects.filter(event=event).values_list("number", flat=True)
    return sorted(numbers)[nth - 1]


def players_at(event, nth: int) -> list[Entry]:
    number = table_number(event, nth)
    rows = Entry.objects.filter(event=event, status="active", table__number=number)
    return list(rows.select_related("player").order_by("seat"))


def out(event, players: list[Entry], stacks: list[int]):
    return services.bustout_record(
        event_id=event.pk,
        entry_ids=[p.pk for p in players],
        stacks={p.pk: s for p, s in zip(players, stacks, strict=True)},
        actor=ACTOR,
        rng_seed=7,
    )


def finished(event, players: list[Entry]) -> list[tuple[int, int, Decimal]]:
    rows = {f.entry_id: f for f in Finish.objects.filter(event=event, undone_at__isnull=True)}
    return [(rows[p.pk].place, rows[p.pk].place_to, rows[p.pk].prize) for p in players]


def play(event) -> dict[str, list[tuple[int, int, Decimal]]]:
    """One bust-out sequence; the places and prizes of each step."""
    seen = {}
    # 1. One table, one hand, stacks 3000 and 2000, neither the big blind: 17th and 18th.
    x, y = players_at(event, 1)[3:5]
    out(event, [x, y], [3000, 2000])
    seen["one table"] = finished(event, [x, y])
    # 2. Hand-for-hand at the bubble (16 left, 14 paid): A (5000) and B (3000) out at
    #    table 1, C (4000) at table 2, on hand 1.
    services.handforhand_start(event_id=event.pk, actor=ACTOR)
    a, b = players_at(event, 1)[:2]
    c = players_at(event, 2)[0]
    out(event, [a, b], [5000, 3000])
    out(event, [c], [4000])
    seen["bubble"] = finished(event, [a, b, c])
    services.handforhand_stop(event_id=event.pk, actor=ACTOR)
    # 3. Hand-for-hand again, in the money (13 left): D (6000) at table 1, F (2000) at
    #    table 2, on its first hand.
    services.handforhand_start(event_id=event.pk, actor=ACTOR)
    d, f = players_at(event, 1)[0], players_at(event, 2)[0]
    out(event, [d], [6000])
    out(event, [f], [2000])
    seen["other tables"] = finished(event, [d, f])
    services.handforhand_stop(event_id=event.pk, actor=ACTOR)
    # 4. A big-blind-ante hand (11 left): G and the big blind H both began it with 1000.
    nth = max((1, 2), key=lambda n: len(players_at(event, n)))
    seats = [p.seat for p in players_at(event, nth)]
    EventTable.objects.filter(event=event, number=table_number(event, nth)).update(
        button=seats[0], small_blind=seats[1], big_blind=seats[2]
    )
    by_seat = {p.seat: p for p in players_at(event, nth)}
    g, h = by_seat[seats[3]], by_seat[seats[2]]
    done = out(event, [g, h], [1000, 1000])
    seen["big blind ante"] = finished(event, [g, h])
    seen["ante paid"] = [(done.antes.get(h.pk, 0), Finish.objects.get(entry=h).starting_stack)]
    return seen


def test_the_same_bust_outs_are_placed_by_each_rule_set(events):
    results = {code: play(event) for code, event in events.items()}
    tda24, tda26, wsop = results["tda-2024"], results["tda-2026"], results["wsop-2026"]

    # One table: the bigger stack places higher, under every set.
    for seen in (tda24, tda26, wsop):
        assert seen["one table"] == [(17, 17, D(0)), (18, 18, D(0))]

    # The bubble (places 14-16, 14th pays 36). TDA (RP-8-A): all three share the 14th
    # prize. WSOP (R126): A above B at table 1, C tied with both.
    for seen in (tda24, tda26):
        assert seen["bubble"] == [(14, 16, D(12)), (14, 16, D(12)), (14, 16, D(12))]
    assert wsop["bubble"] == [(14, 15, D(24)), (15, 16, D(0)), (14, 16, D(12))]

    # Different tables in the money (places 12-13: 54 and 36): TDA ranks by stack, WSOP
    # ties them.
    for seen in (tda24, tda26):
        assert seen["other tables"] == [(12, 12, D(54)), (13, 13, D(36))]
    assert wsop["other tables"] == [(12, 13, D(45)), (12, 13, D(45))]

    # Big blind ante (places 10-11: 90 and 72): TDA 2026 compares the big blind's 990 after
    # the 10 ante with G's 1000; TDA 2024 and WSOP compare 1000 with 1000, a tie.
    assert tda26["big blind ante"] == [(10, 10, D(90)), (11, 11, D(72))]
    assert tda26["ante paid"] == [(10, 990)]
    for seen in (tda24, wsop):
        assert seen["big blind ante"] == [(10, 11, D(81)), (10, 11, D(81))]
        assert seen["ante paid"] == [(0, 1000)]

    for code, event in events.items():
        # Every prize so far adds up to what places 10-18 pay.
        paid = sum(Finish.objects.filter(event=event).values_list("prize", flat=True), D(0))
        assert paid == D(90 + 72 + 54 + 36 + 36), code
        # Working every place out again (the full refresh) gives the same answer.
        before = set(
            Finish.objects.filter(event=event).values_list(
                "entry", "place", "place_to", "slot", "prize"
            )
        )
        services.payout_plan_update(
            event_id=event.pk, table="custom", percentages=PAID, unit=D(1), actor=ACTOR
        )
        after = set(
            Finish.objects.filter(event=event).values_list(
                "entry", "place", "place_to", "slot", "prize"
            )
        )
        assert after == before, code


def test_the_log_cites_the_rule_that_placed_them(events):
    for code, event in events.items():
        play(event)
        summaries = list(
            LogEntry.objects.filter(event=event, action="bustout.record")
            .order_by("pk")
            .values_list("summary", flat=True)
        )
        assert f"({event.cite('hand_for_hand')})" in summaries[1], code
        assert f"({event.cite('simultaneous')})" in summaries[-1], code
    assert "(WSOP R126)" in summaries[1]
    tda26 = LogEntry.objects.filter(event=events["tda-2026"], action="bustout.record")
    assert "1,000 before the hand, 990 after the 10 big blind ante" in tda26.latest("pk").summary


@pytest.mark.parametrize(
    ("ante_type", "paid", "places"),
    [
        # Blind first: the big blind's 105 posts 100 and antes the 5 left; 100 ties 100.
        ("big-blind", 5, [(5, 6), (5, 6)]),
        # Ante first: the full 10, then the blind; 95 is below 100.
        ("big-blind-ante-first", 10, [(6, 6), (5, 5)]),
    ],
)
def test_a_big_blind_short_of_the_ante_paid_what_was_left(db, ante_type, paid, places):
    event = make_event(3600, rule_set="tda-2026", ante_type=ante_type)
    people = arrange(event, {1: [1, 2, 3, 4, 5, 6]}, positions={1: (1, 2, 3)})
    big, other = people["T1S3"], people["T1S4"]
    done = out(event, [big, other], [105, 100])
    assert done.antes == {big.pk: paid}
    assert [
        (f.place, f.place_to)
        for f in Finish.objects.filter(entry__in=[big, other]).order_by("entry")
    ] == places
    assert Finish.objects.get(entry=big).starting_stack == 105 - paid


def test_the_console_answer_says_the_big_blind_was_ranked_after_the_ante(client, floor_person):
    event = make_event(3600, rule_set="tda-2026", ante_type="big-blind")
    people = arrange(event, {1: [1, 2, 3, 4, 5, 6]}, positions={1: (1, 2, 3)})
    big, other = people["T1S3"].pk, people["T1S4"].pk
    client.force_login(floor_person)
    answer = client.post(
        reverse("results:bustout", args=[event.pk]),
        {"table": 1, "entry": [big, other], f"stack-{big}": "1,000", f"stack-{other}": "1,000"},
        HTTP_HX_REQUEST="true",
    )
    page = answer.content.decode()
    assert "6th place" in page and "5th place" in page
    number = people["T1S3"].number
    assert f"#{number} ranked on 990 chips, after the 10 big blind ante" in page


def test_undoing_one_tables_report_places_the_rest_of_a_wsop_group_again(events):
    event = events["wsop-2026"]
    services.bustout_record(
        event_id=event.pk,
        entry_ids=[p.pk for p in players_at(event, 1)[3:5]],
        stacks={p.pk: 1000 for p in players_at(event, 1)[3:5]},
        actor=ACTOR,
        rng_seed=7,
    )
    services.handforhand_start(event_id=event.pk, actor=ACTOR)
    a, b = players_at(event, 1)[:2]
    c = players_at(event, 2)[0]
    out(event, [a, b], [5000, 3000])
    report = out(event, [c], [4000])
    assert finished(event, [a, b, c]) == [(14, 15, D(24)), (15, 16, D(0)), (14, 16, D(12))]
    services.bustout_undo(event_id=event.pk, bustout_id=report.bustout.pk, actor=ACTOR)
    # Table 1's two alone: by stack, 15th and 16th, outside the money.
    assert finished(event, [a, b]) == [(15, 15, D(0)), (16, 16, D(0))]
    assert Entry.objects.get(pk=c.pk).status == "active"
