"""simulate_event plays a whole tournament through the services and checks it throughout."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.db.models import F

from tdsystem.events.models import Event
from tdsystem.results.models import Finish
from tdsystem.seating.models import Entry
from tdsystem.simulation.event import InvariantBroken, Simulation

pytestmark = pytest.mark.django_db

KEYS = {
    "event",
    "name",
    "players",
    "seed",
    "seats_per_table",
    "entries",
    "tables",
    "tables_broken",
    "moves",
    "bustouts",
    "simultaneous_groups",
    "tied_places",
    "undos",
    "hand_for_hand_hands",
    "heads_up_hands",
    "paid_places",
    "prize_pool",
    "winner",
    "bustout_ms",
    "bustout_queries",
    "total_seconds",
    "cpu_seconds",
}


# The winner's clock finishes on commit, as on the floor: these runs commit.
@pytest.mark.django_db(transaction=True)
def test_it_plays_sixty_players_to_a_winner_and_prints_the_summary():
    out = StringIO()
    call_command("simulate_event", "--players", "60", "--seed", "1", stdout=out)
    summary = json.loads(out.getvalue())
    assert set(summary) == KEYS
    assert (summary["players"], summary["entries"], summary["name"]) == (60, 60, "Simulation 1")
    assert summary["tables"] == 7 and summary["tables_broken"] == 6
    assert summary["moves"] > 0 and summary["hand_for_hand_hands"] > 0
    assert summary["simultaneous_groups"] > 0 and summary["heads_up_hands"] == 3
    assert summary["prize_pool"] == "6000.00" and summary["paid_places"] == 9
    assert set(summary["bustout_ms"]) == {"median", "p95", "max"}
    assert summary["bustout_queries"]["max"] < 60
    event = Event.objects.get(pk=summary["event"])
    assert event.status == "finished"
    # The invariants, once more from the outside: places 1..60, prizes add up to the pool.
    finishes = Finish.objects.filter(event=event, undone_at__isnull=True)
    slots = sorted(finishes.values_list("slot", flat=True))
    assert slots == list(range(1, 61))
    assert sum(finishes.values_list("prize", flat=True)) == 6000
    winner = Entry.objects.get(event=event, finishes__is_winner=True)
    assert winner.player.name == summary["winner"] and winner.status == "active"


# The winner's clock finishes on commit, as on the floor: these runs commit.
@pytest.mark.django_db(transaction=True)
def test_the_same_seed_plays_the_same_tournament():
    first = Simulation(players=25, seed=7).run()
    second = Simulation(players=25, seed=7).run()
    same = ("moves", "bustouts", "simultaneous_groups", "tied_places", "undos", "winner")
    assert [first[k] for k in same] == [second[k] for k in same]


def test_a_broken_invariant_stops_the_run_naming_the_step(monkeypatch):
    from tdsystem.results.services import bustouts

    real = bustouts._rebalance
    calls = []

    def forgetful(event, bustout, actor, rng_seed):
        calls.append(bustout)
        if len(calls) > 5:
            return None  # bust-outs that never balance the tables
        return real(event, bustout, actor, rng_seed)

    monkeypatch.setattr(bustouts, "_rebalance", forgetful)
    with pytest.raises(InvariantBroken, match=r"^step \d+: .*tables unbalanced"):
        Simulation(players=30, seed=2).run()


def test_bad_arguments_are_a_command_error():
    with pytest.raises(CommandError, match="at least 2 players"):
        call_command("simulate_event", "--players", "1", "--seed", "1")


def test_a_wrong_prize_is_caught_at_the_step_that_wrote_it(monkeypatch):
    from tdsystem.simulation import event as simulation

    real = simulation.services.bustout_record
    calls = []

    def generous(**kwargs):
        done = real(**kwargs)
        calls.append(done)
        if len(calls) == 8:  # long before the first full check (every 100 steps)
            Finish.objects.filter(bustout=done.bustout).update(prize=F("prize") + 1)
        return done

    monkeypatch.setattr(simulation.services, "bustout_record", generous)
    with pytest.raises(InvariantBroken, match=r"^step \d+: \d out: prizes awarded") as broken:
        Simulation(players=300, seed=3).run()
    assert len(calls) == 8, broken.value


def test_a_stranger_seated_at_a_table_is_caught_at_the_step_that_seated_them(monkeypatch):
    from tdsystem.seating.models import EventTable, Player
    from tdsystem.simulation import event as simulation
    from tests.fixtures import make_event

    other = make_event(600, name="Next door")
    stranger = Entry.objects.create(
        event=other, player=Player.objects.create(name="Stranger"), number=1, chips=1, paid=0
    )
    real = simulation.services.bustout_record
    calls = []

    def careless(**kwargs):
        done = real(**kwargs)
        calls.append(done)
        if len(calls) == 8:  # a seat of the table that lost a player, to another event's entry
            table = EventTable.objects.get(
                event_id=kwargs["event_id"], number=done.bustout.table_number
            )
            taken = set(Entry.objects.filter(table=table).values_list("seat", flat=True))
            seat = min(set(range(1, table.seats + 1)) - taken)
            Entry.objects.filter(pk=stranger.pk).update(table=table, seat=seat)
        return done

    monkeypatch.setattr(simulation.services, "bustout_record", careless)
    with pytest.raises(InvariantBroken, match=r"^step \d+: .*holds a player not in the event"):
        Simulation(players=300, seed=3).run()
    assert len(calls) == 8


def test_a_stored_field_count_that_differs_from_the_entries_fails_the_full_check():
    from tdsystem.results.models import FieldCount

    sim = Simulation(players=20, seed=4)
    sim.setup()
    assert sim.full_problems() == []
    FieldCount.objects.filter(event_id=sim.event.pk).update(paid_cents=1)
    assert any("stored field counts" in p for p in sim.full_problems())
    with pytest.raises(InvariantBroken, match="stored field counts"):
        sim.check("a step", full=True)
