"""The print queue on a fake network printer, in this process: what prints by itself, in
what order, and what waits while the printer cannot take it."""

from __future__ import annotations

import pytest
import zxingcpp

from tdsystem.players.models import PlayerLink
from tdsystem.printing import preview, services
from tdsystem.printing.models import EventPrinting, Printer, PrintJob
from tdsystem.results import services as results
from tdsystem.results.models import PayoutPlan
from tdsystem.seating import services as seating
from tdsystem.simulation.seatings import ACTOR, arrange
from tests.fake_printer import FakePrinter
from tests.fixtures import make_event

pytestmark = pytest.mark.django_db

FULL = list(range(1, 10))


@pytest.fixture
def fake():
    printer = FakePrinter()
    printer.start()
    yield printer
    printer.stop()


@pytest.fixture(autouse=True)
def _quick(settings):
    settings.PUBLIC_URL = "http://tdsystem.test"
    settings.PRINT_TIMEOUT_SECONDS = 2
    settings.PRINT_STATUS_SECONDS = 1


def drain(printer: Printer) -> services.Drained:
    return services.printer_drain(printer_id=printer.pk)


def texts(fake: FakePrinter, count: int) -> list[str]:
    return [preview.read(data).text for data in fake.documents(count)]


def test_it_prints_a_seat_card_when_a_player_registers(fake, django_capture_on_commit_callbacks):
    event = make_event(600)
    arrange(event, {1: FULL, 2: [1, 2, 3, 4, 5, 6, 7]}, positions={1: (1, 2, 3), 2: (1, 2, 3)})
    printer = services.printer_add(name="Floor", url=fake.url)
    with django_capture_on_commit_callbacks(execute=True):
        enrolment = seating.player_register(event=event, name="Ann Lee", actor=ACTOR, rng_seed=1)
    entry = enrolment.entry
    assert drain(printer).printed == 1
    (data,) = fake.documents(1)
    paper = preview.read(data)
    assert f"Table {entry.table.number}, seat {entry.seat}" in paper.text
    assert "Ann Lee" in paper.text
    (code,) = zxingcpp.read_barcodes(paper.image())
    link = PlayerLink.objects.get(entry=entry, revoked_at__isnull=True)
    assert code.text == f"http://tdsystem.test/me/{link.token}/"  # the player's own page


def test_a_balancing_move_prints_its_slip_and_a_player_in_the_money_a_payout_slip(
    fake, django_capture_on_commit_callbacks
):
    event = make_event(600)
    players = arrange(
        event, {1: FULL, 2: [1, 2, 3, 4, 5, 6, 7]}, positions={1: (1, 2, 3), 2: (1, 2, 3)}
    )
    PayoutPlan.objects.create(event=event, table="custom", percentages=["25"] + ["5"] * 15)
    printer = services.printer_add(name="Floor", url=fake.url)
    with django_capture_on_commit_callbacks(execute=True):
        results.bustout_record(event_id=event.pk, entry_ids=[players["T2S4"].pk], actor=ACTOR)
    printed = texts(fake, drain(printer).printed)
    slips = [t for t in printed if "Move slip" in t]
    payouts = [t for t in printed if "Payout slip" in t]
    assert len(slips) == 1 and "From" in slips[0] and "Balancing" in slips[0]
    assert len(payouts) == 1 and "T2S4" in payouts[0] and "16th" in payouts[0]
    assert "Player's signature" in payouts[0]


def test_nothing_prints_by_itself_when_the_event_says_so(fake, django_capture_on_commit_callbacks):
    event = make_event(600)
    arrange(event, {1: [1, 2, 3]}, positions={1: (1, 2, 3)})
    EventPrinting.objects.create(event=event, seat_cards=False)
    services.printer_add(name="Floor", url=fake.url)
    with django_capture_on_commit_callbacks(execute=True):
        seating.player_register(event=event, name="Ann Lee", actor=ACTOR, rng_seed=1)
    assert not PrintJob.objects.exists()


def test_a_printer_that_refuses_keeps_every_document_and_prints_them_in_order_later(fake):
    event = make_event(600)
    arrange(event, {1: [1, 2, 3, 4]}, positions={1: (1, 2, 3)})
    printer = services.printer_add(name="Floor", url=fake.url)
    fake.stop()
    jobs = services.documents_print(event=event, document="seat-cards", actor=ACTOR)
    drained = drain(printer)
    assert drained.printed == 0 and drained.waiting == jobs[0]
    assert "refused" in drained.waiting.error.lower()
    waiting = services.queue_state()
    assert [(q.printer.name, q.pending, q.waiting) for q in waiting] == [("Floor", 4, True)]
    fake.start()
    assert drain(printer).printed == 4
    assert [t.split("\n")[4] for t in texts(fake, 4)] == [
        "Table 1, seat 1",
        "Table 1, seat 2",
        "Table 1, seat 3",
        "Table 1, seat 4",
    ]
    assert set(PrintJob.objects.values_list("status", flat=True)) == {"printed"}


def test_a_printer_out_of_paper_waits_with_that_reason(fake):
    printer = services.printer_add(name="Cage", url=fake.url)
    fake.paper_out = True
    services.printer_test(printer=printer, actor=ACTOR)
    assert drain(printer).waiting.error == "out of paper"
    assert fake.documents() == []
    fake.paper_out = False
    assert drain(printer).printed == 1


def test_a_section_printer_prints_its_tables_and_the_desk_the_rest(fake):
    event = make_event(600)
    arrange(event, {1: [1, 2], 5: [1, 2]}, positions={1: (1, 2, 1), 5: (1, 2, 1)})
    desk = services.printer_add(name="Desk", url=fake.url, documents=["seat-card"])
    far = services.printer_add(name="Far", url=fake.url, tables=(5, 8))
    services.printer_add(name="Cage", url=fake.url, documents=["entry-receipt"])
    jobs = services.documents_print(event=event, document="seat-cards", actor=ACTOR)
    assert [job.printer for job in jobs] == [desk, desk, far, far]


def test_two_workers_never_print_one_printer_at_once(fake):
    printer = services.printer_add(name="Floor", url=fake.url)
    services.printer_test(printer=printer, actor=ACTOR)
    Printer.objects.filter(pk=printer.pk).update(busy_until="2100-01-01T00:00:00Z")
    assert drain(printer).busy
    assert fake.documents() == []


def test_a_reprint_is_the_same_document_again(fake):
    event = make_event(600)
    arrange(event, {1: [1, 2]}, positions={1: (1, 2, 1)})
    printer = services.printer_add(name="Floor", url=fake.url)
    (job,) = services.documents_print(event=event, document="seat-card", entry=1, actor=ACTOR)
    again = services.job_reprint(job_id=job.pk, actor=ACTOR)
    assert again.data == job.data and again.pk > job.pk
    drain(printer)
    first, second = fake.documents(2)
    assert preview.read(first).text == preview.read(second).text


def test_without_a_printer_a_document_waits_for_its_page():
    event = make_event(600)
    arrange(event, {1: [1, 2]}, positions={1: (1, 2, 1)})
    (job,) = services.documents_print(
        event=event, document="seat-card", entry=2, actor=ACTOR, copies=2
    )
    assert job.status == PrintJob.Status.BROWSER and job.printer is None
    assert (job.data["entry"], job.data["seat"], job.copies) == (2, 2, 2)
