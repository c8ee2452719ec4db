"""The levels editor pages: a template's and an event's, posted as a whole table."""

from __future__ import annotations

import re

import pytest
from django.utils import timezone

from tdsystem.core.actors import Actor
from tdsystem.core.models import LogEntry
from tdsystem.events import selectors, services
from tdsystem.events.models import Clock
from tdsystem.structures.editing import editor_rows, stored_rows
from tdsystem.structures.services import structure_create

from ..fixtures import short_levels

pytestmark = pytest.mark.django_db


@pytest.fixture
def warm_screens(settings):
    """The screens' short cache on (a warm cache must not hide an edit), empty before and
    after: its entries are keyed by event id, which the next test may reuse."""
    from tdsystem.core import screencache

    settings.SCREEN_CACHE_SECONDS = 60
    screencache.clear()
    yield
    screencache.clear()


FIELDS = ("kind", "small_blind", "big_blind", "ante", "small_bet", "big_bet")


def table(rows: list[dict], **extra) -> dict:
    """The POST body the editor's form sends for these rows."""
    body: dict = {key: [r[key] for r in rows] for key in (*FIELDS, "duration_minutes", "note")}
    body.update(extra)
    return body


def event_rows(event) -> list[dict]:
    return editor_rows(stored_rows(event.structure))


@pytest.fixture
def template(db):
    structure, _ = structure_create(name="Daily", levels=short_levels(600, 600, "B300", 600))
    return structure


def test_the_detail_page_links_the_editor_for_a_director(client, director, floor_person, template):
    client.force_login(director)
    page = client.get(f"/console/structures/{template.pk}/").content.decode()
    assert f"/console/structures/{template.pk}/edit/" in page
    client.force_login(floor_person)
    page = client.get(f"/console/structures/{template.pk}/").content.decode()
    assert "/edit/" not in page
    assert client.get(f"/console/structures/{template.pk}/edit/").status_code == 403


def test_it_saves_a_templates_table(client, director, template):
    client.force_login(director)
    page = client.get(f"/console/structures/{template.pk}/edit/").content.decode()
    assert 'id="sb-0"' in page and 'id="minutes-3"' in page
    rows = editor_rows(stored_rows(template))
    rows[1]["duration_minutes"] = "25"
    rows[3]["ante"] = "0"
    response = client.post(f"/console/structures/{template.pk}/edit/", table(rows, op=""))
    assert response.status_code == 302
    assert [r["duration_seconds"] for r in stored_rows(template)] == [600, 1500, 300, 600]
    assert LogEntry.objects.get(action="structure.edit").data["new"][3]["ante"] == 0


def test_a_row_operation_keeps_what_was_typed_and_saves_nothing(client, director, template):
    client.force_login(director)
    rows = editor_rows(stored_rows(template))
    rows[0]["note"] = "typed, not saved"
    url = f"/console/structures/{template.pk}/edit/"
    page = client.post(url, table(rows, op="add-break:0")).content.decode()
    assert page.count('name="kind"') == 5 and "typed, not saved" in page
    assert re.search(r'id="minutes-1"[^>]*autofocus', page)
    page = client.post(url, table(rows, op="down:0")).content.decode()
    assert page.index("typed, not saved") > page.index('id="sb-1"')
    assert stored_rows(template)[0]["note"] == ""
    assert not LogEntry.objects.filter(action="structure.edit").exists()


def test_an_error_is_shown_and_the_typed_table_kept(client, director, template):
    client.force_login(director)
    rows = editor_rows(stored_rows(template))
    rows[1]["big_blind"] = "abc"
    response = client.post(f"/console/structures/{template.pk}/edit/", table(rows, op=""))
    assert response.status_code == 400
    page = response.content.decode()
    assert "level 2: big blind: &#x27;abc&#x27; is not a whole number" in page
    assert 'value="abc"' in page
    assert stored_rows(template)[1]["big_blind"] == 200


def test_a_warning_asks_then_saves_when_confirmed(client, director, template):
    client.force_login(director)
    rows = editor_rows(stored_rows(template))
    rows[3]["small_blind"], rows[3]["big_blind"] = "1000", "5000"
    url = f"/console/structures/{template.pk}/edit/"
    page = client.post(url, table(rows, op="")).content.decode()
    assert "jumps from 200 to 5,000" in page and 'name="confirm"' in page
    assert stored_rows(template)[3]["big_blind"] == 400
    assert client.post(url, table(rows, confirm="1")).status_code == 302
    assert stored_rows(template)[3]["big_blind"] == 5000


def test_the_htmx_form_answers_with_the_form_only(client, director, template):
    client.force_login(director)
    rows = editor_rows(stored_rows(template))
    url = f"/console/structures/{template.pk}/edit/"
    page = client.post(url, table(rows, op="up:1"), HTTP_HX_REQUEST="true").content.decode()
    assert page.lstrip().startswith("<form") and "<html" not in page
    saved = client.post(url, table(rows, op=""), HTTP_HX_REQUEST="true")
    assert saved.headers["HX-Redirect"] == f"/console/structures/{template.pk}/"


def test_an_events_structure_opens_the_events_editor(client, director, event):
    client.force_login(director)
    response = client.get(f"/console/structures/{event.structure_id}/edit/")
    assert response.headers["Location"] == f"/console/events/{event.pk}/levels/"
    page = client.get(f"/console/events/{event.pk}/").content.decode()
    assert f"/console/events/{event.pk}/levels/" in page


def test_a_running_events_editor_locks_the_played_rows(client, director, event):
    services.clock_action(event_id=event.pk, action="start", actor=Actor(label="t"))
    services.clock_action(event_id=event.pk, action="next", actor=Actor(label="t"))
    client.force_login(director)
    page = client.get(f"/console/events/{event.pk}/levels/").content.decode()
    assert "played" in page and 'id="sb-0"' not in page  # level 1: read only
    assert 'id="minutes-1"' in page and 'id="sb-1"' not in page  # now: the duration only
    assert 'id="sb-3"' in page


def test_a_running_events_edit_changes_the_screen_at_once(client, director, event, warm_screens):
    services.clock_action(event_id=event.pk, action="start", actor=Actor(label="t"))
    assert selectors.event_clock_payload(event.pk, timezone.now())["next"]["ante"] == 20
    client.force_login(director)
    version = Clock.objects.get(pk=event.pk).version
    rows = event_rows(event)
    rows[1]["ante"] = "25"
    rows[1]["duration_minutes"] = "30"
    response = client.post(
        f"/console/events/{event.pk}/levels/", table(rows, op="", version=str(version))
    )
    assert response.status_code == 302
    nxt = selectors.event_clock_payload(event.pk, timezone.now())["next"]
    assert nxt["ante"] == 25 and nxt["duration_seconds"] == 1800
    entry = LogEntry.objects.get(event=event, action="structure.edit")
    assert entry.actor == director and entry.data["old"][1]["ante"] == 20


def test_a_refused_events_edit_keeps_the_table(client, director, event):
    services.clock_action(event_id=event.pk, action="start", actor=Actor(label="t"))
    client.force_login(director)
    rows = event_rows(event)
    rows[0]["ante"] = "99"  # the current level's ante: refused
    rows[3]["note"] = "kept"
    response = client.post(f"/console/events/{event.pk}/levels/", table(rows, op=""))
    assert response.status_code == 400
    page = response.content.decode()
    assert "only its duration can change" in page and "kept" in page
    assert stored_rows(event.structure)[0]["ante"] == 10


def test_a_stale_page_is_refused_once_then_may_save(client, director, event):
    client.force_login(director)
    rows = event_rows(event)
    rows[2]["duration_minutes"] = "20"
    url = f"/console/events/{event.pk}/levels/"
    stale = str(Clock.objects.get(pk=event.pk).version)
    services.clock_action(event_id=event.pk, action="start", actor=Actor(label="t"))
    page = client.post(url, table(rows, op="", version=stale)).content.decode()
    assert "changed since this page was opened" in page
    fresh = re.search(r'name="version" value="(\d+)"', page).group(1)
    assert client.post(url, table(rows, op="", version=fresh)).status_code == 302
    assert stored_rows(event.structure)[2]["duration_seconds"] == 1200


def test_a_finished_events_levels_are_shown_not_edited(client, director, event):
    services.clock_action(event_id=event.pk, action="start", actor=Actor(label="t"))
    services.clock_action(event_id=event.pk, action="finish", actor=Actor(label="t"))
    client.force_login(director)
    page = client.get(f"/console/events/{event.pk}/levels/").content.decode()
    assert "finished" in page and 'id="editor-save"' not in page and 'id="sb-3"' not in page
