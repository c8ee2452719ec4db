"""Results out: the file for The Hendon Mob checked against the columns docs/printing.md
describes, the generic files, and the public feed with its ETag."""

from __future__ import annotations

import csv
import io
import re
from decimal import Decimal
from pathlib import Path

import pytest

from tdsystem.printing import exports
from tdsystem.results import services as results
from tdsystem.results.models import PayoutPlan
from tdsystem.seating.models import Player
from tdsystem.simulation.seatings import ACTOR, arrange
from tests.fixtures import make_event

pytestmark = pytest.mark.django_db

DOCS = Path(__file__).resolve().parents[2] / "docs" / "printing.md"


def documented_columns() -> list[str]:
    """The first column of the table under "### The Hendon Mob file"."""
    section = DOCS.read_text().split("### The Hendon Mob file", 1)[1].split("\n### ", 1)[0]
    cells = [line.split("|")[1].strip() for line in section.splitlines() if line.startswith("|")]
    return [cell for cell in cells[1:] if cell != "---"]  # the header row left out


@pytest.fixture
def finished_places():
    event = make_event(600, name="Friday Deepstack", buy_in=Decimal("90"), fee=Decimal("10"))
    players = arrange(event, {1: [1, 2, 3, 4, 5]}, positions={1: (1, 2, 3)})
    PayoutPlan.objects.create(event=event, table="custom", percentages=["60", "40"])
    for name in ("T1S5", "T1S4", "T1S3"):
        results.bustout_record(event_id=event.pk, entry_ids=[players[name].pk], actor=ACTOR)
    return event, players


def test_the_hendon_mob_file_has_the_documented_columns(finished_places):
    event, _ = finished_places
    rows = list(csv.reader(io.StringIO(exports.hendon_mob_csv(event))))
    assert rows[0] == documented_columns() == exports.HENDON_MOB
    assert [row[6] for row in rows[1:]] == []  # nobody in the money yet: 2 places paid


def test_the_hendon_mob_file_lists_the_paid_places_as_documented(finished_places):
    event, players = finished_places
    players["T1S2"].player.name = "Ann Marie Lee"
    players["T1S2"].player.country = "JP"
    players["T1S2"].player.save()
    results.bustout_record(event_id=event.pk, entry_ids=[players["T1S2"].pk], actor=ACTOR)
    reader = csv.DictReader(io.StringIO(exports.hendon_mob_csv(event)))
    rows = list(reader)
    assert [(r["Place"], r["First name"], r["Last name"], r["Prize"]) for r in rows] == [
        ("1", "", "T1S1", "270.00"),
        ("2", "Ann Marie", "Lee", "180.00"),
    ]
    first = rows[0]
    assert first["Event"] == "Friday Deepstack" and first["Country"] == ""
    assert rows[1]["Country"] == "Japan"  # the desk recorded it; English whatever the reader
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", first["Date"])
    assert (first["Buy-in"], first["Fee"], first["Entries"], first["Prize pool"]) == (
        "90.00",
        "10.00",
        "5",
        "450.00",
    )


def test_the_generic_files_list_every_finish_with_the_event(finished_places):
    event, players = finished_places
    Player.objects.filter(pk=players["T1S4"].player_id).update(country="VN")
    rows = list(csv.DictReader(io.StringIO(exports.generic_csv(event))))
    assert list(rows[0]) == exports.GENERIC
    assert [(r["place"], r["player"], r["prize"]) for r in rows] == [
        ("3", "T1S3", "0.00"),
        ("4", "T1S4", "0.00"),
        ("5", "T1S5", "0.00"),
    ]
    data = exports.generic_json(event)
    assert data["entries"] == 5 and data["places_paid"] == 2
    assert [r["place"] for r in data["results"]] == [3, 4, 5]
    assert [r["country"] for r in rows] == ["", "VN", ""]
    assert [r["country"] for r in data["results"]] == [None, "VN", None]


def test_the_feed_answers_304_until_the_event_changes(client, finished_places):
    event, players = finished_places
    first = client.get(f"/events/{event.pk}/feed.json")
    assert first.status_code == 200 and first["Access-Control-Allow-Origin"] == "*"
    body = first.json()
    assert body["players_left"] == 2 and body["entries"] == 5
    assert [e["player"] for e in body["eliminations"]][:1] == ["T1S3"]
    etag = first["ETag"]
    again = client.get(f"/events/{event.pk}/feed.json", HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304 and again["ETag"] == etag
    results.bustout_record(event_id=event.pk, entry_ids=[players["T1S2"].pk], actor=ACTOR)
    changed = client.get(f"/events/{event.pk}/feed.json", HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and changed["ETag"] != etag
    assert client.get("/events/999999/feed.json").status_code == 404
