"""Input an attacker or a careless hand would send: a NUL character, a body of 10 MB, a
number out of every range, NaN, deep nesting. Each answers 4xx naming what is wrong
(JSON {"error", "field"} under /api/, the house page or a form error elsewhere), never a
500, and changes nothing. Run on SQLite and on PostgreSQL (which refuses NUL in text)."""

from __future__ import annotations

import json

import pytest
from django.conf import settings
from django.test import override_settings
from django.urls import reverse

from tdsystem.events.models import Event
from tdsystem.results.models import PayoutPlan
from tdsystem.seating.models import Entry, Player
from tdsystem.structures.models import Structure

pytestmark = pytest.mark.django_db

TEN_MB = 10 * 1024 * 1024


def api_post(client, path, token, body, content_type="application/json"):
    return client.post(
        path, data=body, content_type=content_type, HTTP_AUTHORIZATION=f"Bearer {token}"
    )


def house_page(response) -> str:
    html = response.content.decode()
    assert "css/td" in html and "Traceback" not in html
    return html


# 1. NUL characters -------------------------------------------------------------------

NUL_PAGES = [
    ("get", "/events/{event}/seats/?q=%00", None, "q"),
    ("get", "/events/{event}/seats/?q=Ann%00Lee", None, "q"),
    ("get", "/console/events/{event}/seating/search?q=%00", None, "q"),
    ("get", "/events/{event}/seats%00/", None, None),
    ("post", "/login/", {"username": "director\x00", "password": "x"}, "username"),
    ("post", "/login/", {"username": "director", "password": "\x00"}, "password"),
    ("post", "/console/events/{event}/seating/register", {"name": "Ann\x00"}, "name"),
]


@pytest.mark.parametrize(("method", "path", "data", "field"), NUL_PAGES)
def test_it_refuses_a_nul_character_on_a_page_with_the_house_400(
    client, director, event, method, path, data, field
):
    client.force_login(director)
    players = Player.objects.count()
    response = getattr(client, method)(path.format(event=event.pk), data)
    assert response.status_code == 400
    html = house_page(response)
    assert "NUL" in html and (field is None or field in html)
    assert Player.objects.count() == players


def test_it_refuses_a_nul_character_in_a_cookie(client, event):
    client.cookies["sessionid"] = "abc\x00def"
    assert client.get(f"/events/{event.pk}/seats/").status_code == 400


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ('{"name": "Ann\\u0000 Lee"}', "name"),
        ('{"name": "Ann", "note": ["x", {"y": "\\u0000"}]}', "note"),
        ('{"name": "Ann\x00"}', "name"),
        ('{"na\\u0000me": "Ann"}', "name"),
    ],
)
def test_it_refuses_a_nul_character_in_an_api_body_naming_the_field(
    client, director_token, event, body, field
):
    response = api_post(client, f"/api/events/{event.pk}/entries", director_token, body)
    assert response.status_code == 400
    assert response.json() == {"error": f"{field} may not contain NUL characters", "field": field}
    assert not Entry.objects.filter(event=event).exists()


def test_it_refuses_a_nul_character_in_an_api_query(client, event):
    response = client.get(f"/api/events/{event.pk}/seats?q=%00")
    assert response.status_code == 400 and response.json()["field"] == "q"


# 2. Bodies past DATA_UPLOAD_MAX_MEMORY_SIZE -------------------------------------------

WITHOUT_GUARD = [m for m in settings.MIDDLEWARE if "BadInput" not in m]


@pytest.mark.parametrize("guard", [True, False], ids=["middleware", "view-reads-body"])
def test_it_answers_a_10_mb_api_body_with_a_json_413(client, director_token, event, guard):
    big = json.dumps({"table": 1, "entries": [1], "pad": "x" * TEN_MB})
    path = f"/api/events/{event.pk}/bustouts"
    if guard:
        response = api_post(client, path, director_token, big)
    else:  # the API view's own read of the body meets the limit (errors.bad_request)
        with override_settings(MIDDLEWARE=WITHOUT_GUARD):
            response = api_post(client, path, director_token, big)
    assert response.status_code == 413
    assert "too large" in response.json()["error"]


def test_it_answers_a_10_mb_form_with_the_house_413(client):
    response = client.post("/login/", {"username": "x" * TEN_MB, "password": "y"})
    assert response.status_code == 413
    assert "This request is too large" in house_page(response)


# 3. Structure imports ----------------------------------------------------------------

HEADER = "kind,small_blind,big_blind,ante,small_bet,big_bet,duration_minutes,note\n"
GOOD = '{"small_blind": 100, "big_blind": 200, "duration_minutes": 20}'


def level(**fields) -> str:
    row = {"small_blind": 100, "big_blind": 200, "duration_minutes": 20} | fields
    return json.dumps([row]).replace('"@', "").replace('@"', "")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (level(small_blind="@1e400@"), "level 1: small blind: inf is not a finite number"),
        (
            level(big_blind=10**30),
            "level 1: big blind: 1,000,000,000,000,000,000,000,000,000,000 is more",
        ),
        (level(big_blind=-200), "level 1: big blind: -200 is negative"),
        (level(small_blind=100.5), "level 1: small blind: 100.5 is not a whole number"),
        (level(duration_minutes="@NaN@"), "NaN is not a number"),
        (level(duration_minutes="@Infinity@"), "Infinity is not a number"),
        (level(duration_minutes=10**8), "level 1: duration: 6,000,000,000 is more than 86,400"),
        (level(duration_minutes=0.001), "level 1: duration: 0.001 minutes is not a whole"),
        (level(small_blind=[1, 2]), "level 1: small blind: [1, 2] is not a whole number"),
        (level(note={"a": 1}), "level 1: note: expected text"),
        (level(note="x" * 201), "level 1: note: longer than 200 characters"),
        (level(kind=["level"]), "row 1: kind ['level'] must be 'level' or 'break'"),
        ('{"name": ["x"], "levels": [' + GOOD + "]}", "name: expected text, not ['x']"),
        ('{"name": "' + "x" * 121 + '", "levels": [' + GOOD + "]}", "name: longer than 120"),
        ('{"starting_stack": 1e400, "levels": [' + GOOD + "]}", "starting stack: inf is not"),
        ('{"starting_stack": -5, "levels": [' + GOOD + "]}", "starting stack: -5 is negative"),
        ('{"ante_type": ["each"], "levels": [' + GOOD + "]}", "ante type ['each'] must be"),
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
        ("[" + ", ".join([GOOD] * 1001) + "]", "1,001 rows: at most 1,000"),
        (HEADER + "level,100,99999999999999999999999,0,,,20,\n", "big blind: 999"),
        (HEADER + "level,100,200,0,,,1e9,\n", "level 1: duration: '1e9' is not a whole number"),
        (HEADER + "level,100,200,0,,,20,\x00\n", "NUL character"),
    ],
)
def test_it_refuses_a_bad_structure_import_naming_the_row_and_field(
    client, director, text, message
):
    client.force_login(director)
    response = client.post("/console/structures/", {"name": "", "data": text})
    assert response.status_code == 400
    assert message in response.content.decode().replace("&#x27;", "'")
    assert not Structure.objects.exists()


def test_it_refuses_a_nul_in_an_uploaded_structure_file(client, director):
    from django.core.files.uploadedfile import SimpleUploadedFile

    client.force_login(director)
    upload = SimpleUploadedFile("s.csv", (HEADER + "level,100,200,0,,,20,a\x00\n").encode())
    response = client.post("/console/structures/", {"name": "S", "file": upload})
    assert response.status_code == 400 and "NUL character" in response.content.decode()
    assert not Structure.objects.exists()


def test_it_imports_fractional_minutes_as_exported(client, director):
    client.force_login(director)
    text = level(duration_minutes=7.5)
    response = client.post("/console/structures/", {"name": "Turbo", "data": text})
    assert response.status_code == 302
    assert Structure.objects.get(name="Turbo").levels.get().duration_seconds == 450


# 4. Payout percentages ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("NaN", "not NaN or infinity"),
        ("50, NaN", "not NaN or infinity"),
        ("sNaN", "not NaN or infinity"),
        ("Infinity", "not NaN or infinity"),
        ("1e999999999", "cannot be more than 100"),
        ("100.00000000000000000000000000000000001", "cannot be more than 100"),
        ("99.99999, 0.00001", "at most 4 decimals"),
        ("150, -50", "above 0"),
    ],
)
def test_it_refuses_payout_percentages_out_of_range(client, director, event, text, message):
    client.force_login(director)
    response = client.post(
        reverse("results:payouts", args=[event.pk]),
        {"table": "custom", "percentages": text, "unit": "1"},
    )
    assert response.status_code == 200  # the form again, with the error
    assert message in response.content.decode()
    assert not PayoutPlan.objects.filter(event=event, table="custom").exists()


# 5. and 6. Numbers out of range in the event form and the API bodies -------------------


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("starting_stack", "0", "a whole number from 1 to 1,000,000,000,000"),
        ("starting_stack", str(10**30), "a whole number from 1 to 1,000,000,000,000"),
        ("starting_stack", "-1", "a whole number from 1 to 1,000,000,000,000"),
        ("seats_per_table", str(10**30), "a whole number from 6 to 10"),
        ("buy_in", "1e400", "an amount from 0 to 9,999,999,999.99"),
        ("fee", "NaN", "an amount from 0 to 9,999,999,999.99"),
        ("fee", "-5", "an amount from 0 to 9,999,999,999.99"),
        ("late_registration_end_level", str(10**30), "a whole number from 0 to 1,000"),
        ("reentry_max", "40000", "a whole number from 0 to 1,000"),
    ],
)
def test_it_refuses_an_event_form_number_out_of_range(client, director, field, value, message):
    from tdsystem.structures.services import templates_install

    template = templates_install()[0]
    client.force_login(director)
    data = {
        "name": "X",
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
        field: value,
    }
    response = client.post("/console/events/new/", data)
    assert response.status_code == 400  # the form again, with the error
    assert field in response.context["form"].errors
    assert message in response.context["form"].errors[field][0]
    assert not Event.objects.filter(name="X").exists()


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        ("bustouts", {"table": 10**30, "entries": [1]}, "table"),
        ("bustouts", {"table": 1, "entries": [10**30]}, "entries"),
        ("bustouts", {"table": 1, "entries": [1], "stacks": {"1": -(10**30)}}, "stacks"),
        ("draw", '{"seed": 1e400}', "seed"),
        ("clock", {"action": "add_time", "seconds": 10**30}, "seconds"),
        ("clock", '{"action": "add_time", "seconds": 1e400}', "seconds"),
        ("clock", '{"action": "add_time", "seconds": NaN}', "seconds"),
        ("draw", {"seed": 10**30}, "seed"),
        ("entries", {"name": "Ann", "member_id": "x" * 41}, "member_id"),
    ],
)
def test_it_refuses_an_api_number_out_of_range_naming_the_field(
    client, director_token, event, path, body, field
):
    text = body if isinstance(body, str) else json.dumps(body)
    response = api_post(client, f"/api/events/{event.pk}/{path}", director_token, text)
    assert response.status_code == 400, response.content
    assert response.json()["field"] == field
    assert not Entry.objects.filter(event=event).exists()
