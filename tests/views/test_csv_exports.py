"""Every CSV the system writes defuses text a spreadsheet would run as a formula.

A player who registers as =HYPERLINK("http://x") (or its full-width ＝) appears as text in
the director's spreadsheet, not as a link; control and invisible characters stored before
the text rule are dropped; numbers, negative ones too, stay plain numbers.
"""

from __future__ import annotations

import csv
import io
from decimal import Decimal

import pytest

from tdsystem.core.csv import cell
from tdsystem.results import services
from tdsystem.seating.models import Player
from tdsystem.simulation.seatings import ACTOR, arrange

pytestmark = pytest.mark.django_db

NAME = '=HYPERLINK("http://x")'


@pytest.mark.parametrize(
    "text",
    [NAME, "+1", "-2+3", "@SUM(A1)", "\tx", "\rx", "＝1+1", "＋1", "－2+3", "＠SUM(A1)", "-"],
)
def test_it_escapes_text_that_starts_a_formula(text):
    assert cell(text) == "'" + text


@pytest.mark.parametrize(
    "value", ["Sam Lee", "", "1-2", "-5", "-1.50", 0, -5, 12.5, -12.5, Decimal("-1.50"), None]
)
def test_it_keeps_other_cells_as_they_are(value):
    assert cell(value) == value


@pytest.mark.parametrize(
    ("text", "written"),
    [
        ("\x07Bell", "Bell"),
        ("\u202eevil\u202c gnaY", "evil gnaY"),
        ("Ann\x00\x1b[31mLee", "Ann[31mLee"),
        ("\x07=1+1", "'=1+1"),  # the control dropped, the formula escaped
        ("\u200b＝1+1", "'＝1+1"),
        ("می\u200cخواهم", "می\u200cخواهم"),  # a joiner a script needs stays
    ],
)
def test_it_drops_control_and_invisible_characters(text, written):
    assert cell(text) == written


def test_it_writes_a_player_named_like_a_formula_as_text_in_the_results(client, event):
    people = arrange(event, {1: list(range(1, 10))}, positions={1: (5, 6, 7)})
    Player.objects.filter(pk=people["T1S1"].player_id).update(name=NAME)
    services.bustout_record(event_id=event.pk, entry_ids=[people["T1S1"].pk], actor=ACTOR)
    answer = client.get(f"/events/{event.pk}/results.csv")
    rows = list(csv.reader(io.StringIO(answer.content.decode())))
    assert rows[1][3] == "'" + NAME
    assert rows[1][0] == "9" and rows[1][4] == str(people["T1S1"].number)


def test_the_results_escape_full_width_formulas_and_drop_controls(client, event):
    people = arrange(event, {1: list(range(1, 10))}, positions={1: (5, 6, 7)})
    Player.objects.filter(pk=people["T1S1"].player_id).update(name="＝1+1")
    Player.objects.filter(pk=people["T1S2"].player_id).update(name="\x1b[31mRed\u202e")
    for name in ("T1S1", "T1S2"):
        services.bustout_record(event_id=event.pk, entry_ids=[people[name].pk], actor=ACTOR)
    answer = client.get(f"/events/{event.pk}/results.csv")
    rows = list(csv.reader(io.StringIO(answer.content.decode())))
    assert [row[3] for row in rows[1:]] == ["[31mRed", "'＝1+1"]


def test_it_escapes_the_structure_export(client, director):
    from tdsystem.structures.models import Level
    from tdsystem.structures.services import templates_install

    structure = templates_install()[0]
    Level.objects.filter(structure=structure).update(note="=1+1")
    client.force_login(director)
    answer = client.get(f"/console/structures/{structure.pk}/export.csv")
    rows = list(csv.DictReader(io.StringIO(answer.content.decode())))
    assert {row["note"] for row in rows} == {"'=1+1"}
    assert rows[0]["small_blind"].lstrip("'") == rows[0]["small_blind"]


def test_a_structure_exported_with_an_escaped_note_imports_back_as_it_was(db):
    from tdsystem.structures import services

    structure, _ = services.structure_create(
        name="Round trip",
        levels=[
            {"kind": "level", "small_blind": 100, "big_blind": 200, "duration_minutes": 20},
            {"kind": "break", "duration_minutes": 10, "note": "- colour up the 25s"},
            {"kind": "level", "small_blind": 200, "big_blind": 400, "duration_minutes": 20},
        ],
    )
    exported = services.to_csv(structure)
    assert "'- colour up the 25s" in exported  # safe in a spreadsheet
    again, _ = services.structure_import(name="Round trip 2", text=exported, actor=ACTOR)
    notes = [level.note for level in again.levels.all() if level.note]
    assert notes == ["- colour up the 25s"]
