"""The director console and the public pages."""

from __future__ import annotations

import pytest

from tdsystem.core.models import LogEntry
from tdsystem.events.clock_forms import parse_time_left
from tdsystem.events.models import Clock
from tdsystem.events.services import clock_action
from tdsystem.simulation.seatings import ACTOR, arrange

pytestmark = pytest.mark.django_db


def test_the_console_needs_a_login(client, event):
    response = client.get(f"/console/events/{event.pk}/")
    assert response.status_code == 302 and "/login/" in response["Location"]


def test_a_table_device_may_not_open_the_console(client, event, table_device):
    client.force_login(table_device)
    assert client.get(f"/console/events/{event.pk}/").status_code == 403


def test_the_director_sees_the_clock_controls(client, event, director):
    client.force_login(director)
    page = client.get(f"/console/events/{event.pk}/").content.decode()
    assert "Start" in page and "Next level" in page and "Event log" in page


def clock_post(client, event, **data):
    return client.post(f"/console/events/{event.pk}/clock", data, HTTP_HX_REQUEST="true")


def test_an_htmx_start_returns_the_clock_panel(client, event, director):
    arrange(event, {1: [1, 2]})
    client.force_login(director)
    response = clock_post(client, event, action="start")
    assert response.status_code == 200
    assert 'id="clock-panel"' in response.content.decode()
    assert "<html" not in response.content.decode()
    assert response["HX-Trigger"] == "log-changed"
    assert Clock.objects.get(pk=event.pk).status == "running"


@pytest.mark.parametrize(
    "typed",
    [
        "",
        "   ",
        "soon",
        "-5",
        "-0:30",
        "inf",
        "nan",
        "1e9",
        "10:75",
        "1:60:00",
        "0",
        "0:00",
        "24:00:01",
        "1441",
        "99999999999999999999",
        "10:30:00:00",
    ],
)
def test_a_bad_time_answers_400_with_a_message_in_the_panel_and_changes_nothing(
    client, event, director, typed
):
    client.force_login(director)
    response = clock_post(client, event, action="set_time", time_left=typed)
    page = response.content.decode()
    assert response.status_code == 400
    assert 'id="clock-panel"' in page and 'class="flash error"' in page
    assert Clock.objects.get(pk=event.pk).version == 0
    assert not LogEntry.objects.filter(event=event, action="clock.set_time").exists()


@pytest.mark.parametrize(
    ("typed", "seconds"),
    [
        ("10:30", 630),
        ("45", 2700),
        ("7.5", 450),
        ("7,5", 450),
        ("1:05:00", 3900),
        ("90:00", 5400),
        ("24:00:00", 86400),
        ("1440", 86400),
        (" 0:01 ", 1),
    ],
)
def test_it_reads_the_time_left_as_minutes_m_ss_or_h_mm_ss(typed, seconds):
    assert parse_time_left(typed) == seconds


def test_it_sets_ten_thirty_as_ten_minutes_thirty_seconds(client, event, director):
    client.force_login(director)
    response = clock_post(client, event, action="set_time", time_left="10:30")
    assert response.status_code == 200
    assert Clock.objects.get(pk=event.pk).remaining_ms == 630_000
    assert "10:30" in response.content.decode()
    assert LogEntry.objects.get(event=event, action="clock.set_time").data["seconds"] == 630


def test_it_refuses_to_set_a_day_and_a_second(client, event, director):
    client.force_login(director)
    response = clock_post(client, event, action="set_time", time_left="24:00:01")
    assert response.status_code == 400 and "at most 24 hours" in response.content.decode()
    assert Clock.objects.get(pk=event.pk).version == 0


def test_it_refuses_to_add_more_than_a_day(client, event, director):
    client.force_login(director)
    response = clock_post(client, event, action="add_time", seconds=86401)
    assert response.status_code == 400 and 'class="flash error"' in response.content.decode()
    assert Clock.objects.get(pk=event.pk).version == 0


def test_a_state_refusal_answers_409_with_the_panel(client, event, director):
    client.force_login(director)
    response = clock_post(client, event, action="previous")
    assert response.status_code == 409
    assert "already the first level" in response.content.decode()


def test_an_unknown_action_is_refused(client, event, director):
    client.force_login(director)
    assert clock_post(client, event, action="dance").status_code == 400
    assert Clock.objects.get(pk=event.pk).version == 0


# Starting with nobody seated ---------------------------------------------------------------


def test_the_start_button_asks_first_while_nobody_is_seated(client, event, director):
    client.force_login(director)
    page = client.get(f"/console/events/{event.pk}/").content.decode()
    assert "Nobody is seated yet. Start the clock anyway?" in page
    assert '"confirm_empty": "1"' in page


def test_the_start_button_does_not_ask_once_players_are_seated(client, event, director):
    arrange(event, {1: [1, 2]})
    client.force_login(director)
    page = client.get(f"/console/events/{event.pk}/").content.decode()
    assert "Nobody is seated yet" not in page


def test_a_start_without_the_confirmation_is_refused_while_nobody_is_seated(
    client, event, director
):
    client.force_login(director)
    response = clock_post(client, event, action="start")
    page = response.content.decode()
    assert response.status_code == 409
    assert "Nobody is seated yet" in page and "Start anyway" in page
    assert Clock.objects.get(pk=event.pk).status == "not-started"
    assert not LogEntry.objects.filter(event=event, action="clock.start").exists()


def test_a_confirmed_start_runs_with_nobody_seated(client, event, director):
    client.force_login(director)
    response = clock_post(client, event, action="start", confirm_empty="1")
    assert response.status_code == 200
    assert Clock.objects.get(pk=event.pk).status == "running"


# What the panel reads ---------------------------------------------------------------------


def test_the_badge_reads_a_label_not_the_raw_status(client, event, director):
    client.force_login(director)
    page = client.get(f"/console/events/{event.pk}/?part=clock-panel", HTTP_HX_REQUEST="true")
    text = page.content.decode()
    assert ">Not started</span>" in text and ">not-started<" not in text
    clock_post(client, event, action="start", confirm_empty="1")
    text = clock_post(client, event, action="pause").content.decode()
    assert ">Paused</span>" in text


def test_a_finished_clock_offers_no_clock_controls(client, event, director):
    client.force_login(director)
    panel = f"/console/events/{event.pk}/?part=clock-panel"
    assert '"action": "next"' in client.get(panel, HTTP_HX_REQUEST="true").content.decode()
    clock_action(event_id=event.pk, action="finish", actor=ACTOR)
    text = client.get(panel, HTTP_HX_REQUEST="true").content.decode()
    assert ">Finished</span>" in text and 'id="clock-finished"' in text
    assert "The event is over" in text
    for control in ('"action": "previous"', '"action": "next"', '"add_time"', 'name="time_left"'):
        assert control not in text


def test_the_panel_shows_a_break_as_a_break_with_the_next_level(client, event, director):
    Clock.objects.filter(pk=event.pk).update(level_index=2, remaining_ms=300_000)
    client.force_login(director)
    response = client.get(f"/console/events/{event.pk}/?part=clock-panel", HTTP_HX_REQUEST="true")
    page = " ".join(response.content.decode().split())
    assert "<h2" in page and ">Break</h2>" in page
    assert "Colour up" in page and "5:00" in page
    # The level after the break (blinds 200 / 400, ante 40) is "next", not current.
    assert "Next: <b>Level 3</b> 200 / 400" in page and "ante</span> 40" in page
    assert ">Blinds<" not in page and "End break" in page


def test_floor_may_pause_but_not_skip_levels(client, event, director, floor_person):
    client.force_login(director)
    client.post(f"/console/events/{event.pk}/clock", {"action": "start", "confirm_empty": "1"})
    client.force_login(floor_person)
    assert client.post(f"/console/events/{event.pk}/clock", {"action": "next"}).status_code == 403
    client.post(f"/console/events/{event.pk}/clock", {"action": "pause"})
    assert Clock.objects.get(pk=event.pk).status == "paused"


def test_the_clock_screen_is_public(client, event):
    page = client.get(f"/events/{event.pk}/clock/").content.decode()
    assert "Level 1" in page and "10:00" in page and "Tap for sound" in page


def test_the_printed_schedule_lists_levels_breaks_and_raises(client, event):
    page = client.get(f"/events/{event.pk}/schedule/").content.decode()
    assert "Colour up" in page and "Min raise to" in page and "@media print" not in page


def test_the_console_gives_the_tvs_and_phones_the_public_address(client, event, director, settings):
    settings.PUBLIC_URL = "https://poker.venue.example"
    client.force_login(director)
    html = client.get(f"/console/events/{event.pk}/", HTTP_HOST="127.0.0.1").content.decode()
    links = html.split('id="device-links"', 1)[1].split("</section>", 1)[0]
    assert "https://poker.venue.example/clock/?layout=draw" in links
    assert "https://poker.venue.example/seats/poster/" in links
    assert f"https://poker.venue.example/events/{event.pk}/clock/" in links
    assert f"https://poker.venue.example/events/{event.pk}/seats/poster/" in links
    assert "127.0.0.1" not in links  # never the address the console was opened at
