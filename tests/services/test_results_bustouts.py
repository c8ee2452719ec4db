"""Bust-outs: places, simultaneous eliminations, ties, prizes, balancing, the winner."""

from __future__ import annotations

from contextlib import contextmanager
from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tdsystem.core.models import LogEntry
from tdsystem.events.models import Clock, Event
from tdsystem.events.services import clock_action
from tdsystem.results import services
from tdsystem.results.errors import ResultsError
from tdsystem.results.models import BustOut, Finish
from tdsystem.seating import services as seating
from tdsystem.seating.models import Entry
from tdsystem.simulation.seatings import ACTOR, arrange, field, seating_problems
from tests.fixtures import make_event

pytestmark = pytest.mark.django_db

FULL = list(range(1, 10))
D = Decimal


@contextmanager
def statements_run():
    """Statements sent to the database, each of an executemany's rows counted (as the
    database runs them), unlike the query capture, which counts an executemany once."""
    run = [0]

    def count(execute, sql, params, many, context):
        run[0] += len(params) if many else 1
        return execute(sql, params, many, context)

    with connection.execute_wrapper(count):
        yield run


def bust(event, *entries, stacks=None, **kwargs):
    return services.bustout_record(
        event_id=event.pk,
        entry_ids=[e.pk for e in entries],
        stacks={e.pk: s for e, s in zip(entries, stacks, strict=True)} if stacks else None,
        actor=ACTOR,
        rng_seed=3,
        **kwargs,
    )


def standing(event) -> list[tuple[str, int, int, Decimal]]:
    rows = Finish.objects.filter(event=event, undone_at__isnull=True).select_related(
        "entry__player"
    )
    return sorted((f.entry.player.name, f.place, f.place_to, f.prize) for f in rows)


def test_it_gives_the_place_from_the_players_still_in(event):
    people = arrange(event, {1: [1, 2, 3, 4, 5]})
    done = bust(event, people["T1S3"])
    assert [(f.place, f.place_to) for f in done.finishes] == [(5, 5)]
    assert done.players_left == 4
    entry = Entry.objects.get(pk=people["T1S3"].pk)
    assert (entry.status, entry.table, entry.seat) == ("busted", None, None)
    bust(event, people["T1S1"])
    assert standing(event) == [("T1S1", 4, 4, D(0)), ("T1S3", 5, 5, D(0))]
    log = LogEntry.objects.filter(action="bustout.record").first()
    assert "T1S1" in log.summary and "table 1" in log.summary and log.actor_label == "test"


def test_it_answers_already_out_and_changes_nothing(event):
    people = arrange(event, {1: [1, 2, 3, 4]})
    bust(event, people["T1S2"])
    with pytest.raises(ResultsError, match="already out") as caught:
        bust(event, people["T1S2"])
    assert caught.value.field is None  # a conflict, not bad input
    assert BustOut.objects.count() == 1 and Finish.objects.count() == 1


def test_the_bigger_starting_stack_finishes_higher_on_the_same_hand(event):
    people = arrange(event, {1: [1, 2, 3, 4, 5, 6]})
    bust(event, people["T1S1"], people["T1S2"], stacks=[3000, 5000])
    assert standing(event) == [("T1S1", 6, 6, D(0)), ("T1S2", 5, 5, D(0))]


def test_it_asks_for_starting_stacks_when_two_bust_together(event):
    people = arrange(event, {1: [1, 2, 3, 4]})
    with pytest.raises(ResultsError, match="start of the hand") as caught:
        bust(event, people["T1S1"], people["T1S2"])
    assert caught.value.field == "stacks"
    assert Finish.objects.count() == 0
    assert Entry.objects.filter(status="active").count() == 4


def test_equal_starting_stacks_tie_and_split_the_prizes_across_the_money_line():
    event = make_event(600, buy_in=D(100))
    people = arrange(event, {1: [1, 2, 3, 4, 5]})
    services.payout_plan_update(event_id=event.pk, table="top-3", unit=D(1), actor=ACTOR)
    # Pool 500: 250 / 150 / 100. Four left, two tie for places 3-4: they split 100.
    bust(event, people["T1S5"])
    bust(event, people["T1S1"], people["T1S2"], stacks=[2000, 2000])
    assert standing(event)[:2] == [("T1S1", 3, 4, D(50)), ("T1S2", 3, 4, D(50))]
    slots = set(Finish.objects.filter(place=3).values_list("slot", flat=True))
    assert slots == {3, 4}


def test_a_house_rule_big_blind_short_of_the_small_blind_is_out_with_the_chips_removed():
    event = make_event(600, bb_must_cover_sb=True)  # level 1: 50/100 ante 10
    people = arrange(event, {1: [1, 2, 3, 4]}, positions={1: (1, 2, 3)})
    with pytest.raises(ResultsError, match="big blind at table 1 is seat 3"):
        services.bustout_short_big_blind(
            event_id=event.pk, entry_id=people["T1S4"].pk, chips=20, actor=ACTOR
        )
    with pytest.raises(ResultsError, match="cover the small blind of 50 and the ante of 10"):
        services.bustout_short_big_blind(
            event_id=event.pk, entry_id=people["T1S3"].pk, chips=60, actor=ACTOR
        )
    done = services.bustout_short_big_blind(
        event_id=event.pk, entry_id=people["T1S3"].pk, chips=45, actor=ACTOR
    )
    entry = Entry.objects.get(pk=people["T1S3"].pk)
    assert (entry.status, entry.chips_removed, done.finishes[0].place) == ("busted", 45, 4)
    assert done.bustout.kind == "short-bb"
    assert done.finishes[0].starting_stack == 45


def test_the_house_rule_applies_only_where_the_event_plays_it(event):
    people = arrange(event, {1: [1, 2, 3]}, positions={1: (1, 2, 3)})
    with pytest.raises(ResultsError, match="does not play the house rule"):
        services.bustout_short_big_blind(
            event_id=event.pk, entry_id=people["T1S3"].pk, chips=5, actor=ACTOR
        )


def test_it_refuses_players_from_two_tables_outside_hand_for_hand(event):
    people = arrange(event, {1: [1, 2, 3], 2: [1, 2, 3]})
    with pytest.raises(ResultsError, match="each table") as caught:
        bust(event, people["T1S1"], people["T2S1"], stacks=[1, 2])
    assert caught.value.field == "entries"
    with pytest.raises(ResultsError, match="sits at table 2, not table 1"):
        bust(event, people["T2S1"], table_number=1)


def test_it_balances_the_tables_and_links_the_move_slips(event):
    people = arrange(event, {1: FULL, 2: FULL[:8]}, positions={1: (5, 6, 7), 2: (1, 2, 3)})
    done = bust(event, people["T2S4"])
    assert done.rebalance.kind == "balance"
    (move,) = done.bustout.moves.all()
    assert (move.from_table, move.to_table) == (1, 2)
    assert done.bustout.rebalance["kind"] == "balance" and done.bustout.rebalance["tables"]["2"]
    assert seating_problems(event) == []


def test_the_last_player_wins_and_the_event_finishes(django_capture_on_commit_callbacks):
    event = make_event(600, buy_in=D(100))
    people = arrange(event, {1: [1, 2, 3]}, positions={1: (1, 2, 3)})
    services.payout_plan_update(event_id=event.pk, table="top-2", unit=D(1), actor=ACTOR)
    clock_action(event_id=event.pk, action="start", actor=ACTOR)
    bust(event, people["T1S1"])
    # Heads-up: the button posts the small blind (D11).
    table = seating.table_hand_finish(
        event_id=event.pk, table_number=1, expected_hand=0, actor=ACTOR
    )
    assert table.button == table.small_blind
    with django_capture_on_commit_callbacks() as follow_ups:
        done = bust(event, people["T1S2"])
    # The clock finishes once the report commits, not inside it.
    assert Clock.objects.get(pk=event.pk).status == "running"
    for follow_up in follow_ups:
        follow_up()
    assert done.winner is not None and done.winner.entry_id == people["T1S3"].pk
    assert standing(event) == [
        ("T1S1", 3, 3, D(0)),
        ("T1S2", 2, 2, D(105)),
        ("T1S3", 1, 1, D(195)),
    ]
    assert Event.objects.get(pk=event.pk).status == "finished"
    assert Clock.objects.get(pk=event.pk).status == "finished"
    with pytest.raises(ResultsError, match="finished"):
        bust(event, people["T1S3"])


def test_late_entries_move_earlier_places_down_and_change_the_prizes():
    event = make_event(600, 600, late_registration_end_level=2, buy_in=D(100))
    field(event, players=6, tables=1)
    services.payout_plan_update(event_id=event.pk, table="top-2", unit=D(1), actor=ACTOR)
    first = Entry.objects.filter(event=event).order_by("number").first()
    services.bustout_record(event_id=event.pk, entry_ids=[first.pk], actor=ACTOR)
    assert Finish.objects.get(entry=first).place == 6
    seating.player_register(event=event, name="Late Larry", actor=ACTOR)
    second = Entry.objects.filter(event=event, status="active").order_by("number").first()
    services.bustout_record(event_id=event.pk, entry_ids=[second.pk], actor=ACTOR)
    assert Finish.objects.get(entry=first).place == 7
    assert Finish.objects.get(entry=second).place == 6


def test_a_late_entry_moves_every_place_taken_in_the_same_few_statements_whatever_their_number():
    """The field grew by one: each finish moves one place down, a tie's range and its
    slots with it, and the entries' places too; the statements do not grow with the
    finishes (a row a statement, a flight of 6,250 took hours)."""
    counts = []
    for players, out in ((30, 6), (60, 30)):
        event = make_event(600, 600, name=f"Late {players}", late_registration_end_level=2)
        field(event, players=players, tables=players // 6, first=players)
        services.payout_plan_update(event_id=event.pk, table="top-3", unit=D(1), actor=ACTOR)
        seated = list(Entry.objects.filter(event=event).order_by("number"))
        tied = [e for e in seated if e.table_id == seated[0].table_id][:2]
        bust(event, *tied, stacks=[5_000, 5_000])  # a tie: places players-1..players
        for entry in [e for e in seated if e not in tied][: out - 2]:
            bust(event, entry)
        before = {
            f.entry_id: (f.place, f.place_to, f.slot, f.prize)
            for f in Finish.objects.filter(event=event)
        }
        assert (before[tied[0].pk][:2], before[tied[1].pk][:2]) == ((players - 1, players),) * 2
        seating.player_register(event=event, name="Late Larry", actor=ACTOR)
        with statements_run() as run:
            assert services.standings_update(event_id=event.pk, actor=ACTOR) == out
        counts.append(run[0])
        after = {
            f.entry_id: (f.place, f.place_to, f.slot, f.prize)
            for f in Finish.objects.filter(event=event)
        }
        assert after == {
            entry: (place + 1, place_to + 1, slot + 1, prize)
            for entry, (place, place_to, slot, prize) in before.items()
        }
    assert counts[0] == counts[1], counts


def test_a_bust_out_costs_the_same_queries_whatever_the_field_size():
    counts = []
    for players in (27, 90):
        event = make_event(600, name=f"Field {players}")
        field(event, players=players, tables=players // 9, first=players)
        first, second = sorted(
            set(Entry.objects.filter(event=event).values_list("table__number", flat=True))
        )[:2]
        at = {
            n: list(Entry.objects.filter(event=event, table__number=n).order_by("seat"))
            for n in (first, second)
        }
        bust(event, at[first][0])  # the first works the prizes out for the field
        measured = []
        for entry in (at[second][0], at[first][1]):  # no move, then a balancing move
            with CaptureQueriesContext(connection) as ctx:
                done = bust(event, entry)
            measured.append((len(ctx), len(done.bustout.moves.all())))
        counts.append(measured)
    assert counts[0] == counts[1], counts
    assert counts[0][1][1] == 1


def test_a_late_entry_works_the_prizes_out_again_as_soon_as_it_commits(
    django_capture_on_commit_callbacks,
):
    # Late entries in the money, as a room that allows them (the sets close there).
    event = make_event(
        600,
        600,
        late_registration_end_level=2,
        buy_in=D(100),
        rule_overrides={"entries_close": "level"},
    )
    people = arrange(event, {1: [1, 2, 3, 4, 5, 6]})
    services.payout_plan_update(event_id=event.pk, table="top-5", unit=D(1), actor=ACTOR)
    bust(event, people["T1S1"])
    bust(event, people["T1S2"])
    assert Finish.objects.get(entry=people["T1S2"]).prize == D(48)  # 5th of 600
    with django_capture_on_commit_callbacks(execute=True):
        seating.player_register(event=event, name="Late Larry", confirm_changes=True, actor=ACTOR)
    second = Finish.objects.get(entry=people["T1S2"])
    assert (second.place, second.prize) == (6, D(0))
    assert Finish.objects.get(entry=people["T1S1"]).place == 7
    assert LogEntry.objects.filter(action="payouts.refresh").count() == 1
