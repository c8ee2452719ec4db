"""The printing pages: who may use them, what they show, the print page of a document."""

from __future__ import annotations

import pytest

from tdsystem.printing import services
from tdsystem.printing.models import Printer, PrintJob
from tdsystem.simulation.seatings import ACTOR, arrange
from tests.fixtures import make_event

pytestmark = pytest.mark.django_db


@pytest.fixture
def seated():
    event = make_event(600)
    arrange(event, {1: [1, 2, 3]}, positions={1: (1, 2, 3)})
    return event


def test_a_director_adds_a_printer_and_the_floor_may_not(client, director, floor_person):
    client.force_login(floor_person)
    assert client.get("/console/printers/").status_code == 403
    client.force_login(director)
    response = client.post(
        "/console/printers/",
        {
            "name": "Cage",
            "url": "tcp://127.0.0.1:9100",
            "paper": "80",
            "documents": ["entry-receipt"],
        },
    )
    assert response.status_code == 302
    cage = Printer.objects.get()
    assert (cage.name, cage.documents) == ("Cage", ["entry-receipt"])
    bad = client.post("/console/printers/", {"name": "Floor", "url": "lpt1", "paper": "80"})
    assert bad.status_code == 400 and "tcp://HOST:9100" in bad.content.decode()


def test_the_floor_prints_a_seat_card_and_opens_its_page(client, floor_person, seated, settings):
    settings.PUBLIC_URL = "http://tdsystem.test"
    client.force_login(floor_person)
    page = client.get(f"/console/events/{seated.pk}/printing/")
    assert page.status_code == 200 and "No receipt printer is set up" in page.content.decode()
    response = client.post(
        f"/console/events/{seated.pk}/printing/print",
        {"document": "seat-card", "entry": "2", "copies": "1"},
    )
    assert response.status_code == 302
    job = PrintJob.objects.get()
    assert job.status == PrintJob.Status.BROWSER
    shown = client.get(f"/console/events/{seated.pk}/printing/jobs/{job.pk}/").content.decode()
    assert "Table 1, seat 2" in shown and "<svg" in shown
    refused = client.post(
        f"/console/events/{seated.pk}/printing/print",
        {"document": "seat-card", "entry": "9", "copies": "1"},
    )
    assert refused.status_code == 400 and "no entry #9" in refused.content.decode()


def test_the_printing_page_says_which_printer_waits_and_why(client, director, seated):
    printer = services.printer_add(name="Floor", url="tcp://127.0.0.1:9")
    (job,) = services.documents_print(event=seated, document="seat-card", entry=1, actor=ACTOR)
    PrintJob.objects.filter(pk=job.pk).update(
        status="waiting", attempts=3, error="Connection refused"
    )
    client.force_login(director)
    shown = client.get(f"/console/events/{seated.pk}/printing/").content.decode()
    assert "is waiting with 1 document: Connection refused" in shown
    assert printer.name in shown
    client.post(f"/console/events/{seated.pk}/printing/jobs/{job.pk}/cancel")
    assert PrintJob.objects.get(pk=job.pk).status == PrintJob.Status.CANCELLED


def test_the_event_s_switches_are_saved(client, director, seated):
    client.force_login(director)
    response = client.post(
        f"/console/events/{seated.pk}/printing/switches",
        {"seat_cards": "on", "receipt_copies": "2", "break_slips": "each"},
    )
    assert response.status_code == 302
    saved = services.event_printing(seated)
    assert (saved.seat_cards, saved.move_slips, saved.receipt_copies) == (True, False, 2)
