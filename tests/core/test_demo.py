from __future__ import annotations

import pytest
from django.core.management import call_command

from tdsystem.events.models import Event
from tdsystem.seating.models import Entry
from tdsystem.structures.models import Structure

pytestmark = pytest.mark.django_db


def test_loaddemo_seats_27_players_at_three_tables_and_is_idempotent(monkeypatch):
    monkeypatch.setenv("DEMO_PASSWORD", "demo-pass")
    call_command("loaddemo")
    call_command("loaddemo")
    event = Event.objects.get()
    assert event.clock.status == "not-started"
    entries = Entry.objects.filter(event=event)
    assert entries.count() == 27
    assert set(entries.values_list("table__number", flat=True)) == {101, 102, 103}
    for number in (101, 102, 103):
        assert entries.filter(table__number=number).count() == 9
    levels = list(event.structure.levels.filter(kind="level").order_by("position"))
    assert len(levels) == 28
    assert (levels[0].small_blind, levels[0].big_blind, levels[0].ante) == (75, 150, 25)
    assert (levels[24].small_blind, levels[24].big_blind) == (25_000, 50_000)
    assert Structure.objects.filter(is_template=True).count() == 4
    from django.contrib.auth import authenticate
    from django.test import RequestFactory

    login = RequestFactory().post("/login/")  # django-axes counts logins per request
    assert authenticate(login, username="director", password="demo-pass").is_superuser


def test_the_demo_leaves_tables_1_to_3_to_the_directors_first_event(monkeypatch):
    from tdsystem.seating import services as seating
    from tdsystem.simulation.seatings import ACTOR
    from tests.fixtures import make_event

    monkeypatch.setenv("DEMO_PASSWORD", "demo-pass")
    call_command("loaddemo")
    demo = Event.objects.get()
    assert "tables 101, 102 and 103" in demo.log.get(action="event.note").summary
    first = make_event(600, name="Our first Friday")
    seating.tables_setup(event=first, numbers=[1, 2, 3], seats=9, actor=ACTOR)
    assert first.tables.filter(in_play=True).count() == 3


def test_it_gives_the_floor_account_a_password_of_its_own(monkeypatch, settings, tmp_path):
    from django.contrib.auth import authenticate
    from django.contrib.auth.password_validation import validate_password
    from django.test import RequestFactory

    from tdsystem.venue.management.commands.loaddemo import demo_password

    settings.VAR_DIR = tmp_path
    monkeypatch.delenv("DEMO_PASSWORD", raising=False)
    monkeypatch.delenv("DEMO_FLOOR_PASSWORD", raising=False)
    call_command("loaddemo")
    director, floor = demo_password(), demo_password("floor")
    assert director != floor
    assert (tmp_path / "demo-floor-password.txt").read_text().strip() == floor
    for password in (director, floor):
        validate_password(password)  # the generated ones pass the staff validators
    login = RequestFactory().post("/login/")
    assert authenticate(login, username="floor", password=floor) is not None
    assert authenticate(login, username="floor", password=director) is None


def test_it_refuses_a_demo_password_the_validators_refuse(monkeypatch):
    from django.core.management.base import CommandError

    monkeypatch.setenv("DEMO_PASSWORD", "12345678")
    with pytest.raises(CommandError, match="DEMO_PASSWORD"):
        call_command("loaddemo")
