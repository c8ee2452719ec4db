"""The pages' forms that create something carry a hidden key, fresh at each render: the
same form sent twice (a double tap, the browser sending it again after a dropped
connection) registers once, busts once, and the second sending gets the first answer."""

from __future__ import annotations

import re

import pytest

from tdsystem.results.models import Finish
from tdsystem.seating import services
from tdsystem.seating.models import Entry
from tdsystem.simulation.seatings import ACTOR
from tests.fixtures import make_event

pytestmark = pytest.mark.django_db

KEY = re.compile(r'name="idempotency_key" value="([0-9a-f]{32})"')


@pytest.fixture
def staff(client, director):
    client.force_login(director)
    return client


@pytest.fixture
def seated(event):
    for name in ("Ana", "Bob", "Cy"):
        services.player_register(event=event, name=name, actor=ACTOR)
    services.tables_setup(event=event, numbers=[1], seats=9, actor=ACTOR)
    services.seats_draw(event=event, seed=1, actor=ACTOR)
    return event


def forms_to(page: str, action: str) -> list[str]:
    """The forms of `page` that post to `action` (or have that text), each as its HTML."""
    mark = action if "=" in action else f'action="{action}"'
    return [form for form in re.findall(r"<form\b.*?</form>", page, flags=re.S) if mark in form]


def test_each_render_of_a_form_has_a_fresh_key(staff, seated):
    url = f"/console/events/{seated.pk}/seating/"
    register = f"/console/events/{seated.pk}/seating/register"
    keys = [KEY.findall(forms_to(staff.get(url).content.decode(), register)[0]) for _ in "ab"]
    assert len(keys[0]) == len(keys[1]) == 1 and keys[0] != keys[1]


def test_the_forms_that_create_something_carry_a_key(staff, seated):
    event = seated
    Entry.objects.filter(event=event, number=3).update(status="busted", table=None, seat=None)
    seating = f"/console/events/{event.pk}/seating/"
    panel = f"{seating}entries/{{}}/"
    pages = {
        seating: [f"{seating}register", f"{seating}register-many", f"{seating}tickets"],
        panel.format(Entry.objects.get(event=event, number=1).pk): [
            f"/console/events/{event.pk}/results/bustouts"
        ],
        f"/console/events/{event.pk}/results/": [f"/console/events/{event.pk}/results/bustouts"],
        f"/console/events/{event.pk}/tables/1/": [f"/console/events/{event.pk}/results/bustouts"],
        f"/console/events/{event.pk}/flights/": [f"/console/events/{event.pk}/flights/add"],
        "/console/events/new/": ['method="post" class="card"'],
    }
    for url, actions in pages.items():
        page = staff.get(url, HTTP_HX_REQUEST="true" if "entries" in url else "").content.decode()
        for action in actions:
            forms = forms_to(page, action)
            assert forms, (url, action)
            assert all(KEY.search(form) for form in forms), (url, action)


def test_a_registration_sent_twice_with_its_key_registers_once(staff, seated):
    url = f"/console/events/{seated.pk}/seating/register"
    form = {"name": "Dee", "idempotency_key": "a" * 32, "csrfmiddlewaretoken": "x"}
    first = staff.post(url, form, HTTP_HX_REQUEST="true")
    assert first.status_code == 200 and "Dee" in first.content.decode()
    again = staff.post(url, form, HTTP_HX_REQUEST="true")
    assert (again.status_code, again.content) == (200, first.content)
    assert again["HX-Trigger"] == first["HX-Trigger"] and again["Idempotent-Replayed"] == "true"
    assert Entry.objects.filter(event=seated, player__name="Dee").count() == 1


def test_without_a_key_the_same_form_twice_is_two_registrations(staff, seated):
    url = f"/console/events/{seated.pk}/seating/register"
    for _ in range(2):
        staff.post(url, {"name": "Dee", "note": "x", "confirm_duplicate": "1"})
    assert Entry.objects.filter(event=seated, player__name="Dee").count() == 2


def test_a_bust_out_sent_twice_with_its_key_busts_once(staff, seated):
    entry = Entry.objects.get(event=seated, number=1)
    url = f"/console/events/{seated.pk}/results/bustouts"
    form = {"answer": "entry", "entry": entry.pk, "table": 1, "idempotency_key": "b" * 32}
    first = staff.post(url, form, HTTP_HX_REQUEST="true")
    assert first.status_code == 200 and "is out" in first.content.decode()
    again = staff.post(url, form, HTTP_HX_REQUEST="true")
    assert (again.status_code, again.content) == (200, first.content)
    assert "already out" not in again.content.decode()
    assert Finish.objects.filter(event=seated).count() == 1


def test_a_full_page_form_sent_again_is_redirected_as_the_first(staff, seated):
    url = f"/console/events/{seated.pk}/seating/register"
    form = {"name": "Dee", "idempotency_key": "c" * 32}
    first = staff.post(url, form)
    again = staff.post(url, form)
    assert first.status_code == again.status_code == 302
    assert again["Location"] == first["Location"]
    assert Entry.objects.filter(event=seated, player__name="Dee").count() == 1


def test_a_key_sent_again_with_other_values_is_refused(staff, seated):
    url = f"/console/events/{seated.pk}/seating/register"
    staff.post(url, {"name": "Dee", "idempotency_key": "d" * 32}, HTTP_HX_REQUEST="true")
    flash = staff.post(url, {"name": "Eve", "idempotency_key": "d" * 32}, HTTP_HX_REQUEST="true")
    assert flash.status_code == 422 and flash["X-Flash"] == "1"
    assert flash["HX-Retarget"] == "main"
    assert "sent already with other values" in flash.content.decode()
    page = staff.post(url, {"name": "Eve", "idempotency_key": "d" * 32})
    assert page.status_code == 422 and "This form was sent already" in page.content.decode()
    assert not Entry.objects.filter(player__name="Eve").exists()


def test_a_structure_import_with_its_file_sent_twice_imports_once(staff):
    from django.core.files.uploadedfile import SimpleUploadedFile

    from tdsystem.structures.models import Structure

    text = (
        "kind,small_blind,big_blind,ante,small_bet,big_bet,duration_minutes,note\n"
        "level,100,200,0,,,20,\nlevel,200,400,0,,,20,\n"
    )

    def upload(content: str):
        return {
            "name": "Turbo",
            "file": SimpleUploadedFile("turbo.csv", content.encode(), "text/csv"),
            "idempotency_key": "e" * 32,
        }

    first = staff.post("/console/structures/", upload(text))
    assert first.status_code == 302, first.content.decode()[:400]
    again = staff.post("/console/structures/", upload(text))
    assert again.status_code == 302 and again["Location"] == first["Location"]
    other = staff.post("/console/structures/", upload(text.replace(",20,", ",15,")))
    assert other.status_code == 422
    assert Structure.objects.filter(name="Turbo").count() == 1


def test_a_second_event_form_is_not_mistaken_for_the_first(staff):
    make_event(600, name="Monday")
    keys = {KEY.search(staff.get("/console/events/new/").content.decode()).group(1) for _ in "ab"}
    assert len(keys) == 2
