"""The audit log: API tokens, structure imports and refused staff actions are written to
the event log without an event; the console's "Recent activity" lists all but refusals."""

from __future__ import annotations

import io
import re

import pytest
import time_machine
from django.core.management import call_command
from django.urls import reverse

from tdsystem.core.models import ApiToken, LogEntry
from tdsystem.structures.models import Structure

pytestmark = pytest.mark.django_db

CSV = "kind,duration_minutes,small_blind,big_blind,ante,note\nlevel,20,100,200,0,\n"


def audit(action: str):
    return LogEntry.objects.filter(event=None, action=action)


def home(client) -> str:
    """The console's home page, its log's names and numbers without their <bdi>."""
    return re.sub(r"</?bdi>", "", client.get("/console/").content.decode())


def test_it_logs_a_token_created_and_revoked_on_the_page_without_the_token(client, director):
    client.force_login(director)
    page = client.post(reverse("tokens"), {"label": "stream overlay"}).content.decode()
    token = ApiToken.objects.get()
    created = audit("token.create").get()
    assert created.actor == director and created.data["token_id"] == token.pk
    assert f"{token.prefix}… (stream overlay)" in created.summary
    # The raw key is on the page, once, and nowhere in the log.
    raw = page.split(token.prefix, 1)[1].split("<", 1)[0]
    assert len(raw) > 8
    assert raw not in created.summary and raw not in str(created.data)
    client.post(reverse("token_revoke", args=[token.pk]))
    client.post(reverse("token_revoke", args=[token.pk]))  # twice: logged once
    revoked = audit("token.revoke").get()
    assert revoked.actor == director and revoked.data["token_id"] == token.pk
    assert revoked.data["user"] == director.username
    body = home(client)
    assert "Recent activity" in body and "revoked" in body and "created for" in body


def test_it_logs_a_token_made_by_the_command(director):
    out = io.StringIO()
    call_command("create_api_token", director.username, "--label", "scoreboard", stdout=out)
    raw = out.getvalue().split()[-1]
    entry = audit("token.create").get()
    assert entry.actor is None and entry.actor_label == "manage.py create_api_token"
    assert raw not in entry.summary and raw not in str(entry.data)
    assert entry.data["user"] == director.username


def test_it_logs_a_structure_import(client, director):
    client.force_login(director)
    answer = client.post(reverse("console:structures"), {"data": CSV, "name": "Turbo"})
    assert answer.status_code == 302
    entry = audit("structure.import").get()
    structure = Structure.objects.get(name="Turbo")
    assert entry.actor == director and entry.data["structure_id"] == structure.pk
    assert "Turbo" in entry.summary and "CSV" in entry.summary
    assert "Structure Turbo imported" in home(client)


def test_a_refused_import_logs_nothing(client, director):
    client.force_login(director)
    client.post(reverse("console:structures"), {"data": "kind\nnonsense\n", "name": "Bad"})
    assert not audit("structure.import").exists()


def test_it_logs_a_refused_staff_action_with_who_and_the_path(client, floor_person, event):
    client.force_login(floor_person)
    url = reverse("results:hand_for_hand", args=[event.pk])
    with time_machine.travel("2026-06-01 20:00:00Z", tick=False) as traveller:
        assert client.post(url, {"action": "start"}).status_code == 403
        assert client.post(url, {"action": "start"}).status_code == 403  # a retry: once
        entry = audit("access.refused").get()
        assert entry.actor == floor_person
        assert {k: entry.data[k] for k in ("path", "method", "right")} == {
            "path": url,
            "method": "POST",
            "right": "clock",
        }
        assert url in entry.summary and floor_person.username in entry.summary
        traveller.shift(120)
        client.post(url, {"action": "start"})
        assert audit("access.refused").count() == 2
    # Kept in the log, but not on the console's home: refusals would crowd it.
    assert "was refused" not in home(client)


def test_an_allowed_action_logs_no_refusal(client, director, event):
    client.force_login(director)
    client.get(reverse("results:console", args=[event.pk]))
    assert not audit("access.refused").exists()
