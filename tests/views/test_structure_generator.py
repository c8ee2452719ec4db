from __future__ import annotations

import pytest

from tdsystem.core.models import LogEntry
from tdsystem.structures.models import Structure

pytestmark = pytest.mark.django_db

URL = "/console/structures/generator/"
INPUTS = {
    "starting_stack": "20000",
    "entries": "120",
    "target_hours": "8",
    "level_minutes": "30",
    "ante_type": "each",
    "chips": "25 100 500 1000 5000 25000",
    "break_every": "4",
    "break_minutes": "15",
    "start_big_blinds": "100",
}


def test_it_shows_the_form(client, director):
    client.force_login(director)
    page = client.get(URL).content.decode()

    assert 'name="chips"' in page
    assert "Save as a structure" not in page


def test_it_proposes_levels_with_the_projected_finish_and_saves_nothing(client, director):
    client.force_login(director)
    before = Structure.objects.count()
    page = client.get(URL, INPUTS).content.decode()

    assert "Projected finish: the end of level 14, 7 h 45 min after the start" in page
    assert "(target 8 h 00 min)" in page
    assert "Colour up the 25 chips (smallest chip now 100)" in page
    assert "Save as a structure" in page
    assert Structure.objects.count() == before


def test_a_start_and_finishing_time_set_the_target(client, director):
    client.force_login(director)
    times = INPUTS | {"target_hours": "", "start_time": "19:00", "finish_time": "03:00"}
    page = client.get(URL, times).content.decode()

    assert "(target 8 h 00 min)" in page
    assert "(02:45)" in page  # 19:00 plus 7 h 45 min


def test_save_creates_a_template_the_structures_list_shows(client, director):
    client.force_login(director)
    response = client.post(URL, INPUTS | {"name": "Friday 20k"})

    structure = Structure.objects.get(name="Friday 20k")
    assert response.status_code == 302
    assert response["Location"] == f"/console/structures/{structure.pk}/"
    assert structure.is_template
    assert structure.starting_stack == 20_000
    levels = list(structure.levels.order_by("position"))
    assert (levels[0].small_blind, levels[0].big_blind, levels[0].ante) == (100, 200, 25)
    assert levels[4].is_break and levels[4].note.startswith("Colour up the 25 chips")
    assert "Projected finish: the end of level 14" in structure.notes
    assert LogEntry.objects.filter(action="structure.generate").count() == 1
    assert "Friday 20k" in client.get("/console/structures/").content.decode()


def test_a_structure_with_no_ante_saves_with_zero_antes(client, director):
    client.force_login(director)
    client.post(URL, INPUTS | {"ante_type": "none", "name": "No ante"})

    structure = Structure.objects.get(name="No ante")
    assert set(structure.levels.values_list("ante", flat=True)) == {0}


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"chips": "25 60 500"}, "the 60 chip is not a multiple of the 25 chip"),
        ({"chips": "25 abc"}, "“abc” is not a chip value"),
        ({"starting_stack": "20010"}, "20,010 is not a multiple of the smallest chip, 25"),
        ({"target_hours": ""}, "give a target length in hours, or a start time"),
        ({"entries": "1"}, "a whole number from 2 to 100,000"),
        ({"level_minutes": "600"}, "a whole number from 1 to 240"),
    ],
)
def test_bad_input_gets_a_clear_message_and_changes_nothing(client, director, changes, message):
    client.force_login(director)
    before = Structure.objects.count()
    for send in (client.get, client.post):
        response = send(URL, INPUTS | changes | {"name": "Bad"})
        assert response.status_code == 400
        assert message in response.content.decode()
    assert Structure.objects.count() == before


def test_floor_staff_may_propose_but_not_save(client, floor_person):
    client.force_login(floor_person)

    assert client.get(URL, INPUTS).status_code == 200
    assert client.post(URL, INPUTS | {"name": "X"}).status_code == 403
    assert not Structure.objects.filter(name="X").exists()
