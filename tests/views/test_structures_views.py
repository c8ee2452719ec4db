from __future__ import annotations

import pytest

from tdsystem.structures.models import Structure

pytestmark = pytest.mark.django_db

ODD = """kind,small_blind,big_blind,ante,small_bet,big_bet,duration_minutes,note
level,100,200,0,,,20,
level,200,400,0,,,20,
level,300,600,0,,,20,
level,400,700,0,,,20,
level,500,1000,0,,,20,
"""


def test_an_odd_step_asks_for_confirmation_then_imports(client, director):
    client.force_login(director)
    page = client.post("/console/structures/", {"name": "Odd", "data": ODD}).content.decode()
    assert "level 4: the big blind 700 breaks the pattern" in page
    assert 'name="confirm"' in page
    assert not Structure.objects.filter(name="Odd").exists()
    response = client.post("/console/structures/", {"name": "Odd", "data": ODD, "confirm": "1"})
    assert response.status_code == 302
    assert Structure.objects.get(name="Odd").levels.count() == 5


def test_errors_are_shown_and_nothing_is_saved(client, director):
    client.force_login(director)
    bad = ODD.replace("level,300,600", "level,300,-600")
    page = client.post("/console/structures/", {"name": "Bad", "data": bad}).content.decode()
    assert "level 3: big blind: -600 is negative" in page
    assert 'name="confirm"' not in page
    assert not Structure.objects.filter(name="Bad").exists()


def test_floor_staff_may_look_but_not_import(client, floor_person):
    client.force_login(floor_person)
    assert client.get("/console/structures/").status_code == 200
    assert client.post("/console/structures/", {"name": "X", "data": ODD}).status_code == 403


def test_export_downloads_csv(client, director):
    from tdsystem.structures.services import templates_install

    structure = templates_install()[0]
    client.force_login(director)
    response = client.get(f"/console/structures/{structure.pk}/export.csv")
    assert response["Content-Type"] == "text/csv"
    assert response.content.decode().startswith("kind,small_blind,big_blind")


def test_a_director_creates_an_event_from_a_template(client, director):
    from tdsystem.structures.services import templates_install

    template = templates_install()[2]
    client.force_login(director)
    response = client.post(
        "/console/events/new/",
        {
            "name": "Friday Turbo",
            "template": template.pk,
            "game": "holdem",
            "betting": "pot-limit",
            "buy_in": "50",
            "fee": "5",
            "seats_per_table": 9,
            "button_rule": "dead",
            "incomplete_raise": "full-bet",
            "pot_limit_preflop": "true-pot",
            "late_registration_end_level": 4,
        },
    )
    assert response.status_code == 302
    event = template.__class__.objects.get(event__name="Friday Turbo").event
    assert event.starting_stack == template.starting_stack
    assert event.structure.levels.count() == template.levels.count()
    assert event.clock.status == "not-started"
    body = client.get(f"/api/events/{event.pk}/clock").json()
    assert body["max_raise_to"] == 7 * 25  # pot-limit, true pot: 7 x SB at 25/50


def test_the_event_form_names_the_bad_field(client, director):
    from tdsystem.structures.services import templates_install

    template = templates_install()[0]
    client.force_login(director)
    page = client.post(
        "/console/events/new/",
        {
            "name": "X",
            "template": template.pk,
            "game": "holdem",
            "betting": "no-limit",
            "buy_in": "-5",
            "fee": "0",
            "seats_per_table": 12,
            "button_rule": "dead",
            "incomplete_raise": "full-bet",
            "pot_limit_preflop": "true-pot",
            "late_registration_end_level": 0,
        },
    ).content.decode()
    assert "a whole number from 6 to 10" in page and "an amount from 0 to" in page
