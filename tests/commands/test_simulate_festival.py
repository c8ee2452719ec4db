"""simulate_event --flights plays a festival: flights, their ends of day, Day 2, a winner."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from tdsystem.events.models import Event
from tdsystem.results.models import Finish
from tdsystem.results.services import standings
from tdsystem.seating.models import Bag, DayEnd, Entry
from tdsystem.simulation.event import InvariantBroken
from tdsystem.simulation.festival import Festival

# A re-entry works the flight's places out again after it commits (results/signals.py):
# the run needs real commits, as on the command line.
pytestmark = pytest.mark.django_db(transaction=True)

SEED = "3"  # a festival with re-entries and a player who bags in both flights


def test_it_plays_two_flights_their_ends_of_day_and_day2_to_a_winner():
    out = StringIO()
    call_command(
        "simulate_event",
        *("--players", "200", "--flights", "2", "--seats-per-table", "6", "--seed", SEED),
        *("--full-check-every", "20"),
        stdout=out,
    )
    summary = json.loads(out.getvalue())
    flights = summary["flights"]
    assert [f["name"] for f in flights] == ["1A", "1B"]
    assert summary["reentries"] > 0 and summary["bagged_twice"] >= 1
    assert summary["entries"] == sum(f["entries"] for f in flights) == 200 + summary["reentries"]
    assert summary["day2_players"] == sum(f["bagged"] for f in flights) - summary["bagged_twice"]
    assert all(2 <= f["last_hands"] <= 5 for f in flights)  # 6-handed: 2 to 5 (R125)
    assert summary["bustouts"]["count"] > 0 and summary["bustouts"]["queries_max"] < 80
    assert {"p50_ms", "p95_ms", "max_ms", "queries_mean"} <= set(summary["bustouts"])
    assert summary["winner"] and summary["total_seconds"] > 0

    main = Event.objects.get(pk=summary["event"])
    assert (main.day, main.status) == (2, Event.Status.FINISHED)
    # Every flight's day closed with a bag for each player still in it, who went on to
    # Day 2; the flight is over.
    for flight in main.flights.all():
        assert DayEnd.objects.get(event=flight, day=1).closed_at is not None
        carried = Entry.objects.filter(event=flight, status=Entry.Status.CARRIED)
        assert Bag.objects.filter(event=flight, day=1).count() == carried.count()
        assert not Entry.objects.filter(event=flight, status=Entry.Status.ACTIVE).exists()
        assert flight.status == Event.Status.FINISHED
    # From the outside once more: places 1..Day 2 field, the whole pool paid out.
    finishes = Finish.objects.filter(event=main, undone_at__isnull=True)
    assert sorted(finishes.values_list("slot", flat=True)) == list(
        range(1, summary["day2_players"] + 1)
    )
    assert sum(finishes.values_list("prize", flat=True)) == 100 * summary["entries"]
    assert standings.field_read(main).pool == 100 * summary["entries"]


def test_a_whole_event_that_miscounts_its_flights_stops_the_run(monkeypatch):
    real = standings.field_read

    def short(event):
        fld = real(event)
        if event.parent_id is None:  # the main event forgets an entry
            return standings.Field(fld.entries - 1, fld.active, fld.pool, fld.start)
        return fld

    monkeypatch.setattr(standings, "field_read", short)
    with pytest.raises(InvariantBroken, match=r"^flight 1A, the seat draw: the whole event"):
        Festival(players=200, flights=2, seed=1, seats_per_table=6).run()


def test_a_whole_event_miscounted_after_a_bust_out_stops_the_run_at_that_step(monkeypatch):
    from django.db.models import F

    from tdsystem.results.models import FieldCount
    from tdsystem.simulation import event as simulation

    real = simulation.services.bustout_record
    calls = []

    def miscounting(**kwargs):
        done = real(**kwargs)
        calls.append(done)
        if len(calls) == 10:  # a step that makes no entry, long before a full check
            main = Event.objects.get(pk=kwargs["event_id"]).parent_id
            # The main event has no entries of its own before Day 2: no row yet.
            FieldCount.objects.get_or_create(event_id=main)
            FieldCount.objects.filter(event_id=main).update(entries=F("entries") + 1)
        return done

    monkeypatch.setattr(simulation.services, "bustout_record", miscounting)
    with pytest.raises(
        InvariantBroken, match=r"^flight 1[AB], step \d+: \d out: the whole event has"
    ):
        Festival(players=200, flights=2, seed=1, seats_per_table=6, full_every=1000).run()
    assert len(calls) == 10


def test_too_few_players_for_the_flights_is_a_command_error():
    with pytest.raises(CommandError, match="2 flights need at least 216 players"):
        call_command("simulate_event", "--players", "100", "--flights", "2", "--seed", "1")
