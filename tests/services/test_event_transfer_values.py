"""An event's file takes the same rules as every other way in: the one text rule on the
text people type (stored as the pages store it, refused for what they refuse), the same
refusals on every other string, and the one range of dates and times; a refusal names the
row and the field and changes nothing. On SQLite and PostgreSQL alike."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.db import models

from tdsystem.core.actors import Actor
from tdsystem.core.models import EventStaff
from tdsystem.seating.models import Player
from tdsystem.simulation.seatings import ACTOR
from tdsystem.structures.models import Structure
from tdsystem.venue import transfer
from tdsystem.venue.transfer_values import KEPT, TEXT
from tests.services import test_event_transfer as transfer_tests
from tests.services.test_event_transfer import last, refused

pytestmark = pytest.mark.django_db
exported = transfer_tests.exported  # the fixture: a night's file, its tables given back

RANGE = "choose a date and time from 2000-01-01 00:00 to 2100-12-31 23:59"
RLO = "\u202e"  # RIGHT-TO-LEFT OVERRIDE: "Ann\u202enhoJ" shows as "AnnJohn"


def row_of(doc: dict, label: str, **match) -> dict:
    return next(
        r for r in doc["rows"][label] if all(r["fields"].get(k) == v for k, v in match.items())
    )


def test_a_bidi_override_in_a_player_name_refuses_the_file(exported):
    player = row_of(exported, "seating.player", name="T2S3")
    player["fields"]["name"] = f"Ann{RLO}nhoJ"
    refused(
        exported,
        rf"seating.player {player['pk']}, field name: character 4 \(U\+202E RIGHT-TO-LEFT "
        r"OVERRIDE\) is invisible or a control character",
    )


@pytest.mark.parametrize(
    ("label", "field", "value", "problem"),
    [
        ("events.event", "name", "Friday\u200bPKO", r"character 7 \(U\+200B ZERO WIDTH SPACE\)"),
        ("events.event", "flight", "1\u2066A", r"character 2 \(U\+2066 LEFT-TO-RIGHT ISOLATE"),
        ("seating.player", "note", "from\x1b[31mLyon", r"character 5 \(U\+001B\)"),
        (
            "seating.entry",
            "reserve_reason",
            "\ufeffwheelchair",
            r"character 1 \(U\+FEFF ZERO WIDTH NO",
        ),
        ("seating.ticket", "note", "won\u3164Tuesday", r"character 4 \(U\+3164 HANGUL FILLER"),
        ("structures.level", "note", "x" + "\u0301" * 6, "character 7: at most 5 accents or marks"),
        ("events.event", "name", "x" * 121, r"at most 120 characters \(this is 121\)"),
        # Kept as the file has them, but refused for the same characters.
        ("core.logentry", "actor_label", f"floor{RLO}", r"character 6 \(U\+202E"),
        ("core.logentry", "data", {"name": f"Ann{RLO}"}, r"character 4 \(U\+202E"),
    ],
)
def test_text_the_pages_refuse_refuses_the_file_naming_its_row_and_field(
    exported, label, field, value, problem
):
    row = exported["rows"][label][-1]
    row["fields"][field] = value
    refused(exported, rf"{label} {row['pk']}, field {field}: {problem}")


def test_people_text_is_stored_as_the_pages_store_it(exported):
    row_of(exported, "seating.player", name="T2S4")["fields"].update(
        name="  Jose\u0301\t  Ramos ", note="from   Lyon"
    )
    last(exported, "events.event")["name"] = " Friday   PKO "
    structure = last(exported, "structures.structure")
    structure["notes"] = "  Blinds   up\r\nevery  20 minutes  \n\n"
    last(exported, "core.logentry")["summary"] = "Kept  as\u00a0written"
    # Counted as stored: 120 characters once the spaces around them are gone.
    last(exported, "seating.ticket")["note"] = "  " + "n" * 120 + "  "
    done = transfer.event_import(data=json.dumps(exported), actor=ACTOR)
    player = Player.objects.get(entries__event=done.event, name="José Ramos")
    assert player.name == "Jos\u00e9 Ramos" and player.note == "from Lyon"  # NFC, one space
    assert done.event.name == "Friday PKO"
    notes = Structure.objects.get(event=done.event).notes
    assert notes == "Blinds up\nevery 20 minutes"  # its line breaks kept
    assert done.event.log.filter(summary="Kept  as\u00a0written").exists()
    assert done.event.tickets.get().note == "n" * 120


@pytest.mark.parametrize(
    ("label", "field", "value"),
    [
        ("events.event", "scheduled_start", "10000-01-01T00:00:00Z"),  # past Python's years
        ("events.event", "scheduled_start", "+12020-06-01T18:00:00+00:00"),
        ("events.event", "scheduled_start", "0000-06-01T18:00:00"),
        ("events.event", "scheduled_start", "1999-12-31T23:59:59+00:00"),
        ("events.event", "scheduled_start", "2101-01-01T00:00:00+00:00"),
        ("events.clock", "ends_at", "9999-12-31T23:59:59+00:00"),
        ("core.logentry", "at", "1970-01-01T00:00:00+00:00"),
        ("seating.entry", "registered_at", "0001-01-01T00:00:00+00:00"),
    ],
)
def test_a_date_and_time_out_of_the_range_refuses_the_file(exported, label, field, value):
    row = exported["rows"][label][-1]
    row["fields"][field] = value
    refused(exported, rf"{label} {row['pk']}, field {field}: {RANGE} \(time zone UTC\)\.")


def test_the_ends_of_the_range_are_taken(exported):
    last(exported, "events.event")["scheduled_start"] = "2100-12-31T23:59:59+00:00"
    last(exported, "core.logentry")["at"] = "2000-01-01T00:00:00"  # the installation's zone
    done = transfer.event_import(data=json.dumps(exported), actor=ACTOR)
    assert done.event.scheduled_start == datetime(2100, 12, 31, 23, 59, 59, tzinfo=UTC)
    assert done.event.log.filter(at=datetime(2000, 1, 1, tzinfo=UTC)).exists()


def test_the_command_and_its_refusal(exported, tmp_path):
    path = tmp_path / "friday.json"
    last(exported, "events.event")["scheduled_start"] = "10000-01-01T00:00:00Z"
    path.write_text(json.dumps(exported))
    with pytest.raises(
        CommandError, match=f"Nothing imported: events.event .*, field scheduled_start: {RANGE}"
    ):
        call_command("event_import", str(path), stdout=StringIO())


def test_the_importer_directs_the_imported_event(exported, director):
    done = transfer.event_import(data=json.dumps(exported), actor=Actor.of(director))
    assert EventStaff.objects.get(event=done.event).user == director


def test_every_text_field_of_the_file_is_peoples_text_or_kept_with_a_reason():
    """A new text field of an event's models must say how an import takes it."""
    for label in transfer.PARTS:
        model = transfer._model(label)
        for field in model._meta.concrete_fields:
            if not isinstance(field, models.CharField | models.TextField) or field.choices:
                continue
            name = field.name
            known = (
                name in TEXT.get(label, {})
                or name in KEPT
                or f"{label}.{name}" in KEPT
                or name in transfer.DERIVED.get(label, ())
            )
            assert known, f"{label}.{name}: add it to TEXT or KEPT (transfer_values.py)"
    for label, fields in TEXT.items():
        assert set(fields) <= {f.name for f in transfer._model(label)._meta.concrete_fields}
