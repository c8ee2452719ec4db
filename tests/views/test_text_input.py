"""Text people read, typed on the pages or imported: stored in NFC with its spaces tidied,
refused with a message when it holds a control or invisible character, and a structure
import that names the row and field of a NUL or a broken character, or of a number that
is not one. Each refusal changes nothing. Run on SQLite and on PostgreSQL."""

from __future__ import annotations

import importlib
import json
import unicodedata

import pytest
from django.apps import apps
from django.urls import reverse

from tdsystem.events.models import Event, HouseRuleSet
from tdsystem.seating.forms_dayend import BagCorrectForm
from tdsystem.seating.models import Entry, Player, name_key
from tdsystem.seating.services import player_register
from tdsystem.simulation.seatings import ACTOR
from tdsystem.structures.models import Structure
from tdsystem.structures.services import templates_install
from tests.fixtures import make_event

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}
RTL = "\u202eevil\u202c gnaY"
NFD_JOSE = unicodedata.normalize("NFD", "José Lee")


def register(client, event, **data):
    url = reverse("seating:register", args=[event.pk])
    return client.post(url, data, **HTMX).content.decode()


@pytest.fixture
def floor(client, floor_person):
    client.force_login(floor_person)
    return client


@pytest.fixture
def directing(client, director):
    client.force_login(director)
    return client


# The seating console ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "char"),
    [(RTL, "U+202E"), ("\x07Red", "U+0007"), ("A\u200bnn", "U+200B"), ("\ufeffAnn", "U+FEFF")],
)
def test_the_register_form_refuses_a_name_a_person_cannot_read(floor, event, name, char):
    page = register(floor, event, name=name)
    assert f"({char}" in page and "type the text again without it" in page
    assert not Player.objects.exists()


def test_nfd_and_nfc_names_are_one_player_on_the_console(floor, event):
    player_register(event=event, name="José Lee", actor=ACTOR)
    page = register(floor, event, name=f" {NFD_JOSE}  ")
    assert "Already registered under this name" in page
    assert Entry.objects.count() == 1
    page = register(floor, event, name=NFD_JOSE, note="from Lyon")
    assert Player.objects.filter(name="José Lee").count() == 2  # stored as one spelling


def test_a_pasted_list_names_the_line_a_person_cannot_read(floor, event):
    url = reverse("seating:register_many", args=[event.pk])
    names = f"Ann\n{NFD_JOSE}\nBob\x1b[31m\n"
    page = floor.post(url, {"names": names}, **HTMX).content.decode()
    assert "line 3: character 4 (U+001B)" in page
    assert not Player.objects.exists()
    floor.post(url, {"names": f"Ann\n  {NFD_JOSE}  \n"}, **HTMX)
    assert sorted(Player.objects.values_list("name", flat=True)) == ["Ann", "José Lee"]


def test_a_flight_named_with_a_bidi_override_is_refused_on_the_page(directing, db):
    main = make_event(600, name="Main Event")
    url = reverse("seating:flight_add", args=[main.pk])
    page = directing.post(url, {"name": "\u202e1A"}, **HTMX).content.decode()
    assert "U+202E" in page and Event.objects.count() == 1
    directing.post(url, {"name": " 1A "}, **HTMX)
    assert Event.objects.filter(parent=main).get().flight == "1A"


def test_the_event_form_refuses_a_name_with_a_zero_width_space(directing):
    template = templates_install()[0]
    data = {
        "name": "Friday\u200b Deepstack",
        "template": template.pk,
        "game": "holdem",
        "betting": "no-limit",
        "seats_per_table": "9",
        "button_rule": "dead",
        "incomplete_raise": "full-bet",
        "pot_limit_preflop": "true-pot",
        "late_registration_end_level": "0",
        "buy_in": "0",
        "fee": "0",
    }
    answer = directing.post("/console/events/new/", data)
    assert "U+200B ZERO WIDTH SPACE" in answer.context["form"].errors["name"][0]
    assert not Event.objects.exists()
    directing.post("/console/events/new/", data | {"name": "  Friday   Deepstack "})
    assert Event.objects.get().name == "Friday Deepstack"


def test_a_house_rule_set_name_is_text_too(directing):
    url = reverse("console:house_sets")
    answer = directing.post(url, {"name": "House\x1b", "source": "tda-2024"})
    assert "U+001B" in answer.content.decode()
    assert not HouseRuleSet.objects.exists()


def test_a_bag_number_is_text_too():
    form = BagCorrectForm({"entry": "1", "chips": "1000", "number": "B\u202e12"})
    assert not form.is_valid() and "U+202E" in form.errors["number"][0]


def test_a_ruling_s_player_name_is_text_too(floor):
    data = {
        "structure": "no-limit",
        "small_blind": "4",
        "big_blind": "8",
        "ante_type": "each",
        "incomplete_raise": "full-bet",
        "pot_limit_preflop": "true-pot",
        "seat_name": ["Ann", "B\u202eob"],
        "seat_stack": ["100", "100"],
    }
    page = floor.post("/console/rulings/", data).content.decode()
    assert "Seat 2: character 2 (U+202E RIGHT-TO-LEFT OVERRIDE)" in page


# The structure import -----------------------------------------------------------------

GOOD = {"small_blind": 100, "big_blind": 200, "duration_minutes": 20}


def a_break(note: str) -> dict:
    return {"kind": "break", "duration_minutes": 10, "note": note}


def imported(client, data: dict | str, **form) -> tuple[int, str]:
    """The import page's answer to `data` as JSON (json.dumps writes a NUL, a control
    character or half of a surrogate pair escaped, as a file would)."""
    text = data if isinstance(data, str) else json.dumps(data)
    answer = client.post("/console/structures/", {"name": "", "data": text} | form)
    return answer.status_code, answer.content.decode().replace("&#x27;", "'")


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"name": "a\x00b", "levels": [GOOD]}, "name: character 2 (U+0000)"),
        ({"name": "a\ud800b", "levels": [GOOD]}, "name: character 2 (U+D800)"),
        (
            {"name": "S", "levels": [GOOD, a_break("Colour\x00 up")]},
            "row 2 (break): note: character 7 (U+0000)",
        ),
        (
            {"name": "S", "levels": [GOOD, a_break("\udc00")]},
            "row 2 (break): note: character 1 (U+DC00)",
        ),
        ({"name": "S", "notes": "fine\n\u202eevil", "levels": [GOOD]}, "notes: character 6"),
        ({"name": "S", "starting_stack": 0, "levels": [GOOD]}, "starting stack: must be"),
        ({"name": "S", "starting_stack": False, "levels": [GOOD]}, "starting stack: False"),
        ({"name": "S", "ante_type": 0, "levels": [GOOD]}, "ante type 0 must be one of"),
        ({"name": "S", "levels": [{"kind": 0, "duration_minutes": 5}]}, "row 1: kind 0 must"),
        (
            {"name": "S", "levels": [{"kind": "level\x00", "duration_minutes": 5}]},
            "row 1: kind 'level\\x00' must",
        ),
        (
            {"name": "S", "levels": [GOOD | {"small_blind": "\ud800"}]},
            "level 1: small blind: '\\ud800' is not a whole number",
        ),
        (
            {"name": "S", "levels": [GOOD | {"ante": False}]},
            "level 1: ante: False is not a whole number",
        ),
    ],
)
def test_a_structure_import_names_the_row_and_field_of_what_it_cannot_store(
    directing, data, message
):
    status, page = imported(directing, data)
    assert status == 400 and message in page, page[-3000:]
    assert not Structure.objects.exists()


def test_a_starting_stack_of_0_typed_in_the_form_is_refused_too(directing):
    status, page = imported(directing, [GOOD], name="S", starting_stack="0")
    assert status == 400 and "starting stack: must be more than 0" in page
    assert not Structure.objects.exists()


def test_an_import_without_a_starting_stack_takes_10000_and_tidies_its_text(directing):
    name = unicodedata.normalize("NFD", "Café  Turbo ")
    data = {"name": name, "notes": " a \r\n b ", "levels": [GOOD, a_break(" Colour   up ")]}
    status, _page = imported(directing, data)
    assert status == 302
    structure = Structure.objects.get()
    assert (structure.name, structure.starting_stack, structure.notes) == (
        "Café Turbo",
        10_000,
        "a\nb",
    )
    assert structure.levels.get(kind="break").note == "Colour up"


def test_an_uploaded_csv_with_a_byte_order_mark_imports(directing):
    from django.core.files.uploadedfile import SimpleUploadedFile

    header = "kind,small_blind,big_blind,ante,small_bet,big_bet,duration_minutes,note\n"
    upload = SimpleUploadedFile("s.csv", ("\ufeff" + header + "level,100,200,0,,,20,\n").encode())
    answer = directing.post("/console/structures/", {"name": "Sheet", "file": upload})
    assert answer.status_code == 302
    assert Structure.objects.get().levels.get().big_blind == 200


# Players stored before the rule -------------------------------------------------------


def test_the_migration_stores_players_names_in_nfc_and_keeps_them_apart(db):
    migration = importlib.import_module("tdsystem.seating.migrations.0017_player_names_nfc")
    nfd_id = unicodedata.normalize("NFD", "Mé-1")
    a = Player.objects.create(name="José Lee", member_id="Mé-1")
    b = Player.objects.create(name="Ann")
    Player.objects.filter(pk=b.pk).update(name=NFD_JOSE, note=NFD_JOSE, member_id=nfd_id)
    c = Player.objects.create(name="Zoë")
    Player.objects.filter(pk=c.pk).update(name=unicodedata.normalize("NFD", "Zoë"))
    migration.names_nfc(apps, None)
    b.refresh_from_db()
    assert (b.name, b.note) == ("José Lee", "José Lee")
    assert b.member_id == nfd_id  # the NFC one is another player's: left, no collision
    assert Player.objects.get(pk=c.pk).name == "Zoë"
    assert Player.objects.get(pk=a.pk).member_id == "Mé-1"
    assert name_key(b.name) == name_key(NFD_JOSE) == Player.objects.get(pk=a.pk).name_key
