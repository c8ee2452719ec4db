"""simulate_event never touches the room: it refuses a database with real events unless
told, and its events never become the room's current event (the screens' addresses)."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from tdsystem.events.models import Event
from tdsystem.events.selectors_life import current_event_id
from tdsystem.simulation.event import Simulation
from tdsystem.simulation.management.commands.simulate_event import REAL_EVENTS_STATUS
from tests.fixtures import make_event

pytestmark = pytest.mark.django_db


def test_it_refuses_a_database_with_real_events_and_changes_nothing():
    make_event(600, name="Sunday Deepstack")
    with pytest.raises(CommandError) as refused:
        call_command("simulate_event", "--players", "12", "--seed", "1")
    assert refused.value.returncode == REAL_EVENTS_STATUS == 3
    assert "holds 1 real event(s) (Sunday Deepstack)" in str(refused.value)
    assert "--allow-real-events" in str(refused.value)
    assert list(Event.objects.values_list("name", flat=True)) == ["Sunday Deepstack"]


# The winner's follow-ups (the clock's finish) run on commit: the test commits.
@pytest.mark.django_db(transaction=True)
def test_it_plays_beside_real_events_when_told_and_the_room_keeps_its_event(client):
    real = make_event(600, name="Sunday Deepstack")
    out = StringIO()
    call_command(
        "simulate_event", "--players", "12", "--seed", "1", "--allow-real-events", stdout=out
    )
    simulated = Event.objects.get(pk=json.loads(out.getvalue())["event"])
    assert simulated.simulated and not Event.objects.get(pk=real.pk).simulated
    assert current_event_id() == real.pk
    assert client.get("/api/current-event").json()["name"] == "Sunday Deepstack"


# The winner's follow-ups (the clock's finish) run on commit: the test commits.
@pytest.mark.django_db(transaction=True)
def test_a_running_simulation_never_becomes_the_rooms_current_event(client):
    real = make_event(600, name="Sunday Deepstack")  # planned: a running event would win
    play = Simulation(players=12, seed=3)
    play.setup()  # registered, drawn, its clock running: as in the middle of a run
    play.event.refresh_from_db()
    assert play.event.simulated and play.event.clock.status == "running"
    assert client.get("/api/current-event").json()["id"] == real.pk
    for stable in ("/clock/", "/schedule/", "/seats/"):
        assert client.get(stable)["Location"].startswith(f"/events/{real.pk}/"), stable
    real.delete()
    assert client.get("/api/current-event").status_code == 404
    assert "events/no_event.html" in [t.name for t in client.get("/clock/").templates]


# The winner's follow-ups (the clock's finish) run on commit: the test commits.
@pytest.mark.django_db(transaction=True)
def test_on_a_database_of_simulations_only_it_plays_without_being_told():
    Simulation(players=8, seed=4).setup()
    out = StringIO()
    call_command("simulate_event", "--players", "8", "--seed", "5", stdout=out)
    assert json.loads(out.getvalue())["name"] == "Simulation 5"
    assert current_event_id() is None
